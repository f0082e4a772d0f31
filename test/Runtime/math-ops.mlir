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

// A math op the GPU lowering lacks runs on the CPU with a warning at its
// first use, so that a kernel checked on the CPU is not a surprise on the
// GPU (which refuses it, located).
// RUN: softmax-run %S/../GPU/Inputs/gelu.mlir --target cpu --check --rows 3 --cols 100 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: gelu.mlir:29:8: warning: runs on the CPU, but the GPU lowering has no 'math.tanh' (its math ops are exp, exp2, log, log2, rsqrt, absf, fma and sqrt)
// WARN: check: {{.*}} OK
// RUN: not softmax-run %S/../GPU/Inputs/gelu.mlir --rows 3 --cols 100 --chip sm_90 --emit-ptx %t.ptx 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: gelu.mlir:29:8: error: 'math.tanh' op has no GPU lowering without libdevice; supported math ops are exp, exp2, log, log2, rsqrt, absf, fma and sqrt
