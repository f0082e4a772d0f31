// REQUIRES: cuda-gpu
// The fused example on the GPU, checked against the double-precision
// reference by softmax-run itself (non-zero exit beyond tolerance, on a
// NaN-pattern mismatch, or if any element was left unwritten).
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 4096 --cols 1024
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 4096 --cols 16384
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 1 --cols 1
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 3 --cols 1
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 1 --cols 4097
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 1000 --cols 1000
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 77 --cols 257 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 16 --cols 8 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 65536 --cols 128
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 32768
// Rows too long for one SM run on thread-block clusters (sm_90+; from 65536
// elements the rules pick one CTA per 16384 f32 or 8192 16-bit elements, at
// most 16): partial maxima and sums meet in distributed shared memory.
// Ragged rows, special values, clusters of 2 and 16 (over the portable 8),
// and bf16.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 65536 --verbose > %t.cluster.log
// RUN: grep "ctas=4" %t.cluster.log
// RUN: grep "4 CTAs/program" %t.cluster.log
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 65536 --dtype bf16 --verbose > %t.cluster16.log
// RUN: grep "warps=8 ctas=4" %t.cluster16.log
// RUN: grep "B dynamic shared" %t.cluster16.log
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 8 --cols 262144 --verbose > %t.cluster262k.log
// RUN: grep "16 CTAs/program" %t.cluster262k.log
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 5 --cols 100003 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 33 --cols 40000 --num-ctas 2
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 4 --cols 65536 --num-ctas 16
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 16 --cols 262144 --dtype bf16
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 64 --cols 8192 --const ROWS=2 --num-ctas 2
// The program softmax-run picks for the shape and GPU (`auto`).
// RUN: softmax-run auto --target gpu --check --rows 16 --cols 200000
// RUN: softmax-run auto --target gpu --check --rows 16 --cols 100000 --dtype bf16
// Without clusters (--num-ctas 1) such f32 rows are split over programs
// that meet in one launch; odd ones go to the split program.
// RUN: softmax-run auto --target gpu --check --rows 4 --cols 200000 --num-ctas 1 > %t.auto.log
// RUN: grep "softmax_split_resident.mlir: 4 x 200000 f32 (auto)" %t.auto.log
// RUN: softmax-run auto --target gpu --check --rows 4 --cols 200001 --num-ctas 1 > %t.odd.log
// RUN: grep "softmax_split.mlir: 4 x 200001 f32 (auto)" %t.odd.log
// Padded rows; a stride that breaks the example's divisibility promise is
// compiled without it.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1000 --in-stride 1024 --out-stride 1040
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1000 --in-stride 1001 --out-stride 1003
// sm_80 code runs on newer GPUs too.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 512 --cols 2048 --chip sm_80
// 16-bit data, f32 math (tolerance 1e-2).
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 4096 --cols 1024 --dtype bf16
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 333 --cols 3000 --dtype f16 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 16384 --dtype bf16
