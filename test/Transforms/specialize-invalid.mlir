// RUN: softmax-opt %s -split-input-file -verify-diagnostics --blk-specialize="BLOCK=256 N=100 NEG=-4 HUGE=4294967297" --allow-unregistered-dialect
// RUN: not softmax-opt %s --allow-unregistered-dialect --blk-specialize="BLOCK=two" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// RUN: not softmax-opt %s --allow-unregistered-dialect --blk-specialize="BLOCK=4 BLOCK=8" 2>&1 | FileCheck %s --check-prefix=TWICE

// MALFORMED: malformed binding 'BLOCK=two' for --blk-specialize: expected NAME=VALUE with an integer VALUE
// TWICE: error: --blk-specialize binds 'BLOCK' twice

func.func @unbound_shape(%x: f32) {
  // expected-error @+1 {{compile-time constant 'ROWS' is not bound; bind it with --blk-specialize="ROWS=<value>"}}
  %0 = blk.splat %x [ROWS, BLOCK] : f32 -> tensor<?x?xf32>
  return
}

// -----

func.func @unbound_constexpr() {
  // expected-error @+1 {{compile-time constant 'WARPS' is not bound}}
  %0 = blk.constexpr WARPS : i32
  return
}

// -----

// A value its type cannot hold is an error, not a truncation (it was
// silently 1 : i32).
func.func @constexpr_too_wide() {
  // expected-error @+1 {{constant HUGE = 4294967297 does not fit its type 'i32'}}
  %0 = blk.constexpr HUGE : i32
  return
}

// -----

func.func @stays_dynamic() {
  %0 = blk.arange 0 to BLOCK : tensor<?xi32>
  // expected-error @+1 {{result type 'tensor<?xi32>' is still dynamic after specialization; its shape must follow from bound constants}}
  %1 = "test.opaque"(%0) : (tensor<?xi32>) -> tensor<?xi32>
  return
}

// -----

func.func @negative_size(%x: f32) {
  // expected-error @+1 {{compile-time constant 'NEG' = -4 is used as a block size, which must be positive}}
  %0 = blk.splat %x [NEG] : f32 -> tensor<?xf32>
  return
}

// -----

// Block arguments count as blocks too: a function over dynamic blocks is
// not specialized by binding names.
// expected-error @+1 {{'func.func' op argument type 'tensor<?xf32>' is still dynamic after specialization; its shape must follow from bound constants}}
func.func @dynamic_argument(%x: tensor<?xf32>) {
  return
}
