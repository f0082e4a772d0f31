// RUN: softmax-opt %s --blk-storage-type=type=bf16 -verify-diagnostics

// A blk.keep_f32 pointer carried by a loop would meet narrowed pointers
// there: refused, at the loop.
func.func @kept_carried(%p: !blk.ptr<f32> {blk.keep_f32}, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{a blk.keep_f32 pointer may only be offset (blk.addptr) and accessed, not carried by 'scf.for'}}
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (!blk.ptr<f32>) : i32 {
    scf.yield %q : !blk.ptr<f32>
  }
  return
}
