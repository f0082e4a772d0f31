// RUN: softmax-opt %s --blk-divide-by-splat --split-input-file | FileCheck %s

// A block divided by a splat: one reciprocal, then a product.
// CHECK-LABEL: func.func @f32
// CHECK-SAME: (%[[X:.*]]: tensor<1024xf32>, %[[S:.*]]: f32)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK: %[[RS:.*]] = blk.splat %[[R]] : f32 -> tensor<1024xf32>
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[RS]] : tensor<1024xf32>
// CHECK: return %[[Y]]
func.func @f32(%x: tensor<1024xf32>, %s: f32) -> tensor<1024xf32> {
  %sb = blk.splat %s : f32 -> tensor<1024xf32>
  %y = arith.divf %x, %sb : tensor<1024xf32>
  return %y : tensor<1024xf32>
}

// -----

// A 16-bit block divides in f32: 1 / s in f16 overflows for |s| < 2^-16
// (1 / 2^-17 = 131072 > 65504), x * (1 / s) in f32 does not.
// CHECK-LABEL: func.func @f16
// CHECK-SAME: (%[[X:.*]]: tensor<256xf16>, %[[S:.*]]: f16)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[SW:.*]] = arith.extf %[[S]] : f16 to f32
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[SW]] : f32
// CHECK: %[[RS:.*]] = blk.splat %[[R]] : f32 -> tensor<256xf32>
// CHECK: %[[XW:.*]] = arith.extf %[[X]] : tensor<256xf16> to tensor<256xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[XW]], %[[RS]] : tensor<256xf32>
// CHECK: %[[Y:.*]] = arith.truncf %[[P]] : tensor<256xf32> to tensor<256xf16>
// CHECK: return %[[Y]]
func.func @f16(%x: tensor<256xf16>, %s: f16) -> tensor<256xf16> {
  %sb = blk.splat %s : f16 -> tensor<256xf16>
  %y = arith.divf %x, %sb : tensor<256xf16>
  return %y : tensor<256xf16>
}

// -----

// A division by a block that is not a splat, or of scalars, stays.
// CHECK-LABEL: func.func @not_splat
// CHECK: arith.divf %{{.*}}, %{{.*}} : tensor<64xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
func.func @not_splat(%x: tensor<64xf32>, %d: tensor<64xf32>, %a: f32, %b: f32) -> (tensor<64xf32>, f32) {
  %y = arith.divf %x, %d : tensor<64xf32>
  %z = arith.divf %a, %b : f32
  return %y, %z : tensor<64xf32>, f32
}

// -----

// A block divided by a broadcast: one reciprocal an element of the
// broadcast's source (a row's sum for each of its rows), then a product.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xf32>, %[[L:.*]]: tensor<64x1xf32>)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[ONES:.*]] = blk.splat %[[ONE]] : f32 -> tensor<64x1xf32>
// CHECK: %[[R:.*]] = arith.divf %[[ONES]], %[[L]] : tensor<64x1xf32>
// CHECK: %[[RB:.*]] = blk.broadcast %[[R]] : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[RB]] : tensor<64x128xf32>
// CHECK: return %[[Y]]
func.func @broadcast(%x: tensor<64x128xf32>, %l: tensor<64x1xf32>) -> tensor<64x128xf32> {
  %lb = blk.broadcast %l : tensor<64x1xf32> -> tensor<64x128xf32>
  %y = arith.divf %x, %lb : tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// A 16-bit block divided by a broadcast divides in f32 too.
// CHECK-LABEL: func.func @broadcast_f16
// CHECK: %[[LW:.*]] = arith.extf %{{.*}} : tensor<1x32xf16> to tensor<1x32xf32>
// CHECK: %[[R:.*]] = arith.divf %{{.*}}, %[[LW]] : tensor<1x32xf32>
// CHECK: %[[RB:.*]] = blk.broadcast %[[R]] : tensor<1x32xf32> -> tensor<16x32xf32>
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[RB]] : tensor<16x32xf32>
// CHECK: arith.truncf %[[P]] : tensor<16x32xf32> to tensor<16x32xf16>
func.func @broadcast_f16(%x: tensor<16x32xf16>, %l: tensor<1x32xf16>) -> tensor<16x32xf16> {
  %lb = blk.broadcast %l : tensor<1x32xf16> -> tensor<16x32xf16>
  %y = arith.divf %x, %lb : tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}
