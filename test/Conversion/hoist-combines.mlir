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

// -----

// Terminators stay last, though func.return, scf.yield and cf.br are pure
// and here kill two operands each; so does an op of two results.
// CHECK-LABEL: func.func @terminators
// CHECK: %[[E0:.*]] = math.exp %arg0
// CHECK-NEXT: %[[E1:.*]] = math.exp %arg1
// CHECK-NEXT: %[[N:.*]] = arith.negf %arg0
// CHECK-NEXT: return %[[E0]], %[[E1]]
func.func @terminators(%arg0: f32, %arg1: f32) -> (f32, f32) {
  %e0 = math.exp %arg0 : f32
  %e1 = math.exp %arg1 : f32
  %n = arith.negf %arg0 : f32
  return %e0, %e1 : f32, f32
}

// CHECK-LABEL: func.func @yield
// CHECK: scf.execute_region
// CHECK: math.exp
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.negf
// CHECK-NEXT: scf.yield
func.func @yield(%arg0: f32, %arg1: f32) -> (f32, f32) {
  %r:2 = scf.execute_region -> (f32, f32) {
    %e0 = math.exp %arg0 : f32
    %e1 = math.exp %arg1 : f32
    %n = arith.negf %arg0 : f32
    scf.yield %e0, %e1 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// CHECK-LABEL: func.func @branch
// CHECK: math.exp
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.negf
// CHECK-NEXT: cf.br ^bb1
func.func @branch(%arg0: f32, %arg1: f32) -> f32 {
  %e0 = math.exp %arg0 : f32
  %e1 = math.exp %arg1 : f32
  %n = arith.negf %arg0 : f32
  cf.br ^bb1(%e0, %e1 : f32, f32)
^bb1(%a: f32, %b: f32):
  %s = arith.addf %a, %b : f32
  %t = arith.addf %s, %n : f32
  return %t : f32
}

// CHECK-LABEL: func.func @two_results
// CHECK: math.exp
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.negf
// CHECK-NEXT: arith.addui_extended
func.func @two_results(%arg0: i32, %arg1: i32, %arg2: f32) -> (i32, i1, f32) {
  %a = arith.muli %arg0, %arg0 : i32
  %b = arith.muli %arg1, %arg1 : i32
  %e0 = math.exp %arg2 : f32
  %e1 = math.exp %e0 : f32
  %n = arith.negf %e1 : f32
  %sum, %overflow = arith.addui_extended %a, %b : i32, i1
  return %sum, %overflow, %n : i32, i1, f32
}
