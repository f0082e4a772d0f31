// RUN: softmax-opt %s --blk-hoist-combines --split-input-file | FileCheck %s

// A tree of sums over four leaves computed first: each sum moves up to
// just after its second leaf, and the root after the second sum.
// CHECK-LABEL: func.func @tree
// CHECK: %[[E0:.*]] = math.exp %arg0
// CHECK-NEXT: %[[E1:.*]] = math.exp %arg1
// CHECK-NEXT: %[[S01:.*]] = arith.addf %[[E0]], %[[E1]]
// CHECK-NEXT: %[[E2:.*]] = math.exp %arg2
// CHECK-NEXT: %[[E3:.*]] = math.exp %arg3
// CHECK-NEXT: %[[S23:.*]] = arith.addf %[[E2]], %[[E3]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[S01]], %[[S23]]
// CHECK-NEXT: return %[[S]]
func.func @tree(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: f32) -> f32 {
  %e0 = math.exp %arg0 : f32
  %e1 = math.exp %arg1 : f32
  %e2 = math.exp %arg2 : f32
  %e3 = math.exp %arg3 : f32
  %s01 = arith.addf %e0, %e1 : f32
  %s23 = arith.addf %e2, %e3 : f32
  %s = arith.addf %s01, %s23 : f32
  return %s : f32
}

// -----

// Stays: an op that kills only one of its operands (%e0 is used again),
// one whose operands come from outside the block, and one that is not
// pure.
// CHECK-LABEL: func.func @stays
// CHECK: %[[E0:.*]] = math.exp %arg0
// CHECK-NEXT: %[[E1:.*]] = math.exp %arg1
// CHECK-NEXT: %[[E2:.*]] = math.exp %arg2
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[E0]], %[[E1]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[E0]], %[[E2]]
// CHECK-NEXT: scf.execute_region
// CHECK: arith.addf %arg0, %arg1
// CHECK: %[[C:.*]] = call @opaque(%[[A]], %[[M]])
func.func private @opaque(f32, f32) -> f32
func.func @stays(%arg0: f32, %arg1: f32, %arg2: f32) -> (f32, f32) {
  %e0 = math.exp %arg0 : f32
  %e1 = math.exp %arg1 : f32
  %e2 = math.exp %arg2 : f32
  %a = arith.addf %e0, %e1 : f32
  %m = arith.mulf %e0, %e2 : f32
  %r = scf.execute_region -> f32 {
    %inner = arith.addf %arg0, %arg1 : f32
    scf.yield %inner : f32
  }
  %c = func.call @opaque(%a, %m) : (f32, f32) -> f32
  %d = arith.addf %c, %r : f32
  return %d, %m : f32, f32
}
