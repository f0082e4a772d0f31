// blk.dot (a x b + acc on 2-D blocks) on the CPU: a square matmul whose K
// loop feeds 16-wide tiles of A and B to blk.dot, checked against the
// program run in float64 (the interpreter's dot: sums in double); odd N
// (masked edges), one row, bf16 data. The GPU refuses it, located, until
// issue 40 lowers it to mma.sync and wgmma.
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target cpu --rows 100 --cols 100 --check | FileCheck %s
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target cpu --rows 37 --cols 37 --check --special | FileCheck %s
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target cpu --rows 1 --cols 1 --check | FileCheck %s
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target cpu --rows 64 --cols 64 --dtype bf16 --check | FileCheck %s
// CHECK: check: {{.*}} OK (relative L2 tolerance {{.*}}, against the program in float64)
// RUN: not softmax-run %S/Inputs/matmul_square.mlir --rows 64 --cols 64 --chip sm_90 --emit-ptx %t.ptx 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: matmul_square.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'blk.dot' op has no GPU lowering yet (mma.sync and wgmma are issue 40's work); it runs on the CPU and in the float64 reference
