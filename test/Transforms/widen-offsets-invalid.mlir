// RUN: softmax-opt %s -split-input-file -verify-diagnostics --blk-widen-offsets

// An offset carried from one iteration to the next may have wrapped there:
// widening it would need the loop itself in 64 bits.
func.func @carried_offset(%in: !blk.ptr<f32>, %stride: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-note @+1 {{this value}}
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%start = %c0) -> (i32) : i32 {
    // expected-error @+1 {{'blk.addptr' op offset cannot be computed in 64 bits: it depends on a 32-bit value that blk-widen-offsets cannot recompute}}
    %p = blk.addptr %in, %start : !blk.ptr<f32>, i32
    %next = arith.addi %start, %stride : i32
    scf.yield %next : i32
  }
  return
}

// -----

// A value the pass does not know how to recompute, deep in the chain.
func.func @shifted_row(%in: !blk.ptr<f32>, %stride: i32) {
  %row = blk.program_id x
  %c1 = arith.constant 1 : i32
  // expected-note @+1 {{this value}}
  %pair = arith.shli %row, %c1 : i32
  %start = arith.muli %pair, %stride : i32
  // expected-error @+1 {{offset cannot be computed in 64 bits}}
  %p = blk.addptr %in, %start : !blk.ptr<f32>, i32
  return
}

// -----

// A 32-bit offset truncated from a wide one already lost its high bits.
func.func @truncated(%in: !blk.ptr<f32>, %offset: i64) {
  // expected-note @+1 {{this value}}
  %narrow = arith.trunci %offset : i64 to i32
  // expected-error @+1 {{offset cannot be computed in 64 bits}}
  %p = blk.addptr %in, %narrow : !blk.ptr<f32>, i32
  return
}
