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

// tanh, erf and powf on the CPU against the program in float64, and their
// GPU lowering: arithmetic and ex2.approx, no libdevice (GELU's tanh form
// too). test/GPU/math-functions.mlir runs them on the GPU.
// RUN: softmax-run %S/../GPU/Inputs/math-functions.mlir --target cpu --check --rows 64 --cols 1000 --special | FileCheck %s --check-prefix=HOST
// RUN: softmax-run %S/../GPU/Inputs/math-functions.mlir --target cpu --check --rows 64 --cols 300 --dtype bf16 --special | FileCheck %s --check-prefix=HOST
// HOST-COUNT-4: check {{[teps]}}: {{.*}} OK (relative L2 tolerance {{.*}}, against the program in float64)
// RUN: softmax-run %S/../GPU/Inputs/math-functions.mlir --rows 64 --cols 1000 --chip sm_90 --emit-ptx - | FileCheck %s --check-prefix=PTX
// RUN: softmax-run %S/../GPU/Inputs/gelu.mlir --rows 4 --cols 100 --chip sm_90 --emit-ptx - | FileCheck %s --check-prefix=PTX
// PTX: .visible .entry
// PTX-NOT: __nv_
// PTX-NOT: tanh.approx
// PTX-NOT: call

// A math op the GPU lowering lacks runs on the CPU with a warning at its
// first use, so that a kernel checked on the CPU is not a surprise on the
// GPU (which refuses it, located).
// RUN: softmax-run %S/../GPU/Inputs/sine.mlir --target cpu --check --rows 3 --cols 100 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: sine.mlir:15:8: warning: runs on the CPU, but the GPU lowering has no 'math.sin' (its math ops are exp, exp2, log, log2, rsqrt, absf, fma, sqrt, tanh, erf and powf)
// WARN: check: {{.*}} OK
// RUN: not softmax-run %S/../GPU/Inputs/sine.mlir --rows 3 --cols 100 --chip sm_90 --emit-ptx %t.ptx 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: sine.mlir:15:8: error: 'math.sin' op has no GPU lowering without libdevice; supported math ops are exp, exp2, log, log2, rsqrt, absf, fma, sqrt, tanh, erf and powf
