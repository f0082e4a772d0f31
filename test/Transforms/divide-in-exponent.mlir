// RUN: softmax-opt %s --blk-divide-in-exponent --split-input-file | FileCheck %s

#l = #blk.blocked<elems = [8], lanes = [32], warps = [8]>

// A row kept in shared memory: exp is computed again for the write, and
// divided by the row's sum in its exponent.
// CHECK-LABEL: func.func @recomputed
// CHECK: %[[S:.*]] = blk.reduce sum
// CHECK: %[[A:.*]] = arith.subf
// CHECK-NOT: math.exp %[[A]]
// CHECK: %[[L:.*]] = math.log2 %[[S]] fastmath<afn> : f32
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[L]] : f32
// CHECK-NEXT: %[[NB:.*]] = blk.splat %[[N]] : f32 -> tensor<2048xf32, #{{.*}}>
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT: %[[CB:.*]] = blk.splat %[[C]] : f32 -> tensor<2048xf32, #{{.*}}>
// CHECK-NEXT: %[[T:.*]] = math.fma %[[A]], %[[CB]], %[[NB]] : tensor<2048xf32, #{{.*}}>
// CHECK-NEXT: %[[Y:.*]] = math.exp2 %[[T]] : tensor<2048xf32, #{{.*}}>
// CHECK-NOT: arith.divf
// CHECK: arith.truncf %[[Y]]
func.func @recomputed(%x: tensor<2048xbf16, #l>, %y: tensor<2048xbf16, #l>, %m: f32) -> tensor<2048xbf16, #l> {
  %mb = blk.splat %m : f32 -> tensor<2048xf32, #l>
  %w = arith.extf %x : tensor<2048xbf16, #l> to tensor<2048xf32, #l>
  %d = arith.subf %w, %mb : tensor<2048xf32, #l>
  %e = math.exp %d : tensor<2048xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<2048xf32, #l> -> f32
  %w2 = arith.extf %y : tensor<2048xbf16, #l> to tensor<2048xf32, #l>
  %d2 = arith.subf %w2, %mb : tensor<2048xf32, #l>
  %e2 = math.exp %d2 : tensor<2048xf32, #l>
  %sb = blk.splat %s : f32 -> tensor<2048xf32, #l>
  %q = arith.divf %e2, %sb : tensor<2048xf32, #l>
  %q16 = arith.truncf %q : tensor<2048xf32, #l> to tensor<2048xbf16, #l>
  return %q16 : tensor<2048xbf16, #l>
}

// -----

// A row held in registers keeps exp for its sum: dividing costs one
// multiplication there, and stays.
// CHECK-LABEL: func.func @held
// CHECK: %[[E:.*]] = math.exp
// CHECK: arith.divf %[[E]]
// CHECK-NOT: math.exp2
func.func @held(%d: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = math.exp %d : tensor<1024xf32>
  %s = blk.reduce sum %e axis 0 : tensor<1024xf32> -> f32
  %sb = blk.splat %s : f32 -> tensor<1024xf32>
  %q = arith.divf %e, %sb : tensor<1024xf32>
  return %q : tensor<1024xf32>
}

// -----

// Left alone where log2 of the divisor could differ from it: a sum of
// anything but exponentials (it may be negative), a maximum, a scalar
// that is not a reduction; and a block of dynamic shape.
// CHECK-LABEL: func.func @other_divisors
// CHECK-COUNT-3: arith.divf
// CHECK-NOT: math.exp2
func.func @other_divisors(%d: tensor<1024xf32>, %x: tensor<1024xf32>, %k: f32) -> (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) {
  %s = blk.reduce sum %x axis 0 : tensor<1024xf32> -> f32
  %sb = blk.splat %s : f32 -> tensor<1024xf32>
  %e1 = math.exp %d : tensor<1024xf32>
  %q1 = arith.divf %e1, %sb : tensor<1024xf32>
  %ee = math.exp %x : tensor<1024xf32>
  %m = blk.reduce max %ee axis 0 : tensor<1024xf32> -> f32
  %mb = blk.splat %m : f32 -> tensor<1024xf32>
  %e2 = math.exp %d : tensor<1024xf32>
  %q2 = arith.divf %e2, %mb : tensor<1024xf32>
  %kb = blk.splat %k : f32 -> tensor<1024xf32>
  %e3 = math.exp %d : tensor<1024xf32>
  %q3 = arith.divf %e3, %kb : tensor<1024xf32>
  return %q1, %q2, %q3 : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic
// CHECK: arith.divf
func.func @dynamic(%d: tensor<?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %ex = math.exp %x : tensor<?xf32>
  %s = blk.reduce sum %ex axis 0 : tensor<?xf32> -> f32
  %sb = blk.splat %s [BLOCK] : f32 -> tensor<?xf32>
  %e = math.exp %d : tensor<?xf32>
  %q = arith.divf %e, %sb : tensor<?xf32>
  return %q : tensor<?xf32>
}

// -----

#l = #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>
#r = #blk.slice<dim = 1, parent = #l>

// Rows of a 2-D block: each row's -log2(sum) is spread as its sum was.
// CHECK-LABEL: func.func @rows
// CHECK: %[[S:.*]] = blk.reduce sum %{{.*}} axis 1
// CHECK: %[[L:.*]] = math.log2 %[[S]] fastmath<afn> : tensor<4xf32, #[[R:.*]]>
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[L]]
// CHECK-NEXT: %[[NC:.*]] = blk.expand_dims %[[N]] axis 1
// CHECK-NEXT: %[[NB:.*]] = blk.broadcast %[[NC]] : tensor<4x1xf32, #{{.*}}> -> tensor<4x128xf32, #{{.*}}>
// CHECK: %[[T:.*]] = math.fma %{{.*}}, %{{.*}}, %[[NB]]
// CHECK-NEXT: math.exp2 %[[T]]
func.func @rows(%d: tensor<4x128xf32, #l>, %d2: tensor<4x128xf32, #l>) -> tensor<4x128xf32, #l> {
  %e = math.exp %d : tensor<4x128xf32, #l>
  %s = blk.reduce sum %e axis 1 : tensor<4x128xf32, #l> -> tensor<4xf32, #r>
  %sc = blk.expand_dims %s axis 1 : tensor<4xf32, #r> -> tensor<4x1xf32, #l>
  %sb = blk.broadcast %sc : tensor<4x1xf32, #l> -> tensor<4x128xf32, #l>
  %e2 = math.exp %d2 : tensor<4x128xf32, #l>
  %q = arith.divf %e2, %sb : tensor<4x128xf32, #l>
  return %q : tensor<4x128xf32, #l>
}
