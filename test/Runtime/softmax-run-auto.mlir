// Not MLIR: softmax-run with the programs built into it. `auto` picks the
// program for the shape (include/blk/Programs/Programs.h); on the CPU there
// are no thread-block clusters, so rows over 32768 go to the split program.
// A built-in program can be named without its file, and a name that is
// neither a file nor a built-in program is an error.
// RUN: softmax-run auto --target cpu --check --rows 9 --cols 300 | FileCheck %s --check-prefix=SHORT
// RUN: softmax-run auto --target cpu --check --rows 5 --cols 5000 --dtype bf16 | FileCheck %s --check-prefix=MEDIUM
// RUN: softmax-run auto --target cpu --check --rows 2 --cols 40000 | FileCheck %s --check-prefix=LONG
// RUN: softmax-run softmax_online --target cpu --check --rows 3 --cols 1000 | FileCheck %s --check-prefix=NAMED
// Past 2^28 columns softmax_split's partials no longer fit a block of
// registers: auto takes softmax_online (compiled only: 1.2 GB a row).
// RUN: softmax-run auto --rows 1 --cols 300000000 --emit-ptx %t.ptx | FileCheck %s --check-prefix=HUGE
// HUGE: softmax_online.mlir: 1 x 300000000 f32 (auto)
// On an sm_90 GPU, long aligned f32 rows are split over programs that meet
// in one launch, unless clusters are asked for (such a program is one CTA).
// RUN: softmax-run auto --rows 4 --cols 1048576 --chip sm_90 --emit-ptx %t.resident.ptx | FileCheck %s --check-prefix=RESIDENT
// RUN: softmax-run auto --rows 4 --cols 1048576 --chip sm_90 --num-ctas 2 --emit-ptx %t.clusters.ptx | FileCheck %s --check-prefix=CLUSTERS
// RESIDENT: softmax_split_resident.mlir: 4 x 1048576 f32 (auto)
// CLUSTERS: softmax_split.mlir: 4 x 1048576 f32 (auto)
// CLUSTERS: SPLITS=128 ctas=2
// RUN: not softmax-run softmax_nothing --target cpu --rows 3 --cols 10 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// SHORT: softmax_multirow.mlir: 9 x 300 f32 (auto)
// SHORT: OK
// MEDIUM: softmax_fused.mlir: 5 x 5000 bf16 (auto)
// MEDIUM: OK
// LONG: softmax_split.mlir: 2 x 40000 f32 (auto)
// LONG: OK
// NAMED: softmax_online.mlir: 3 x 1000 f32
// NAMED-NOT: (auto)
// NAMED: OK
// UNKNOWN: softmax-run: cannot read the program 'softmax_nothing': {{.*}} (neither a file nor a built-in program; `auto` picks one)
