// The program of test/GPU/math.mlir (a softmax through log, log2, rsqrt and
// blk.reduce min) on the CPU, checked against the float64 softmax, and its
// PTX compiled: the GPU lowering of the ops (MathOps.cpp) needs no libdevice.
// RUN: softmax-run %S/../GPU/math.mlir --target cpu --check --reference softmax --rows 32 --cols 1000
// RUN: softmax-run %S/../GPU/math.mlir --target cpu --check --reference softmax --rows 17 --cols 257 --special
// RUN: softmax-run %S/../GPU/math.mlir --target cpu --check --reference softmax --rows 8 --cols 300 --dtype bf16 --special
// RUN: softmax-run %S/../GPU/math.mlir --rows 64 --cols 1000 --chip sm_90 --emit-ptx - | FileCheck %s
// CHECK: .visible .entry softmax_via_log(
// CHECK-DAG: rsqrt.approx.f32
// CHECK-DAG: ex2.approx.ftz.f32
// CHECK-DAG: min.NaN.f32
// CHECK-DAG: div.rn.f32
// CHECK-NOT: lg2.approx
// CHECK-NOT: __nv_
