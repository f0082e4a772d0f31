// RUN: softmax-opt %s --convert-blk-to-cpu --blk-fold-element-extracts --canonicalize | FileCheck %s

// Reversing a row in place: every element is read before any is written.
// The gathered load stays a loop of its own; neither folding the store's
// values (x * 2, read only by the store) nor canonicalization may move a
// read into the store loop, past the stores (it would read elements
// already overwritten).
// CHECK-LABEL: func.func @reverse_in_place(
// CHECK: %[[X:.*]] = scf.for
// CHECK:   llvm.load
// CHECK:   tensor.insert
// CHECK: scf.for
// CHECK-NOT: llvm.load
// CHECK:   tensor.extract %[[X]]
// CHECK-NOT: llvm.load
// CHECK:   llvm.store
// CHECK-NOT: llvm.load
// CHECK: return
func.func @reverse_in_place(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %cols = blk.arange 0 to 16 : tensor<16xi32>
  %c15 = arith.constant 15 : i32
  %last = blk.splat %c15 : i32 -> tensor<16xi32>
  %reversed = arith.subi %last, %cols : tensor<16xi32>
  %x = blk.load %p[%reversed] : !blk.ptr<f32>, tensor<16xi32> -> tensor<16xf32>
  %two = arith.constant 2.0 : f32
  %twos = blk.splat %two : f32 -> tensor<16xf32>
  %y = arith.mulf %x, %twos : tensor<16xf32>
  blk.store %p[%cols], %y : !blk.ptr<f32>, tensor<16xi32>, tensor<16xf32>
  return
}
