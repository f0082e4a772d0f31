// RUN: softmax-opt %s --blk-approximate-math --split-input-file | FileCheck %s

// exp on f32 becomes a polynomial in FMAs scaled by 2^k built from the
// exponent bits: no call is left for the loop vectorizer to stop at.
// CHECK-LABEL: func.func @exp_f32(
// CHECK-NOT: math.exp
// CHECK: math.floor
// CHECK: math.fma
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : i32 to f32
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp_f32(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}

// -----

// log, used by log_softmax and cross-entropy, likewise.
// CHECK-LABEL: func.func @log_f32(
// CHECK-NOT: math.log
// CHECK: math.fma
// CHECK-NOT: math.log
// CHECK: return
func.func @log_f32(%x: f32) -> f32 {
  %l = math.log %x : f32
  return %l : f32
}

// -----

// bf16 (and f16) is computed in f32 and rounded back.
// CHECK-LABEL: func.func @exp_bf16(
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT: math.exp
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @exp_bf16(%x: bf16) -> bf16 {
  %e = math.exp %x : bf16
  return %e : bf16
}

// -----

// rsqrt (RMSNorm, LayerNorm) stays for LLVM, which vectorizes it on any
// host.
// CHECK-LABEL: func.func @rsqrt_f32(
// CHECK: math.rsqrt %{{.*}} : f32
func.func @rsqrt_f32(%x: f32) -> f32 {
  %r = math.rsqrt %x : f32
  return %r : f32
}
