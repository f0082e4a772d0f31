// RUN: softmax-opt %s --blk-fold-element-extracts --split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// An element of an arange plus a scalar is computed where it is read: the
// index stands for linalg.index, the scalar input is used as it is.
// CHECK-LABEL: func.func @offset(
// CHECK-SAME: %[[BASE:[^:]*]]: i32, %[[I:[^:]*]]: index
// CHECK: %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[S:.*]] = arith.addi %[[C]], %[[BASE]] : i32
// CHECK: return %[[S]]
func.func @offset(%base: i32, %i: index) -> i32 {
  %empty = tensor.empty() : tensor<16xi32>
  %offsets = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel"]}
      ins(%base : i32) outs(%empty : tensor<16xi32>) {
  ^bb0(%b: i32, %out: i32):
    %j = linalg.index 0 : index
    %c = arith.index_cast %j : index to i32
    %s = arith.addi %c, %b : i32
    linalg.yield %s : i32
  } -> tensor<16xi32>
  %e = tensor.extract %offsets[%i] : tensor<16xi32>
  return %e : i32
}

// -----

#id = affine_map<(d0) -> (d0)>

// Tensor inputs are read at the element's indices.
// CHECK-LABEL: func.func @mask(
// CHECK-SAME: %[[X:[^:]*]]: tensor<16xi32>, %[[N:[^:]*]]: i32, %[[I:[^:]*]]: index
// CHECK: %[[XI:.*]] = tensor.extract %[[X]][%[[I]]] : tensor<16xi32>
// CHECK: %[[M:.*]] = arith.cmpi slt, %[[XI]], %[[N]] : i32
// CHECK: return %[[M]]
func.func @mask(%x: tensor<16xi32>, %n: i32, %i: index) -> i1 {
  %empty = tensor.empty() : tensor<16xi1>
  %mask = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xi32>) outs(%empty : tensor<16xi1>) {
  ^bb0(%v: i32, %out: i1):
    %m = arith.cmpi slt, %v, %n : i32
    linalg.yield %m : i1
  } -> tensor<16xi1>
  %e = tensor.extract %mask[%i] : tensor<16xi1>
  return %e : i1
}

// -----

#id = affine_map<(d0) -> (d0)>

// Float math that something else reads whole (here the caller) is not
// computed again for the element read.
// CHECK-LABEL: func.func @exponentials(
// CHECK: %[[E:.*]] = linalg.generic
// CHECK:   math.exp
// CHECK: tensor.extract %[[E]]
func.func @exponentials(%x: tensor<16xf32>, %i: index) -> (f32, tensor<16xf32>) {
  %empty = tensor.empty() : tensor<16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%empty : tensor<16xf32>) {
  ^bb0(%v: f32, %out: f32):
    %y = math.exp %v : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %r = tensor.extract %e[%i] : tensor<16xf32>
  return %r, %e : f32, tensor<16xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// A float block read only element by element (a store's values) is
// computed where it is read, and no block is left.
// CHECK-LABEL: func.func @product(
// CHECK-SAME: %[[X:[^:]*]]: tensor<16xf32>, %[[S:[^:]*]]: f32, %[[I:[^:]*]]: index
// CHECK-NOT: linalg.generic
// CHECK: %[[XI:.*]] = tensor.extract %[[X]][%[[I]]] : tensor<16xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[XI]], %[[S]] : f32
// CHECK: return %[[P]]
func.func @product(%x: tensor<16xf32>, %s: f32, %i: index) -> f32 {
  %empty = tensor.empty() : tensor<16xf32>
  %p = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<16xf32>, f32) outs(%empty : tensor<16xf32>) {
  ^bb0(%v: f32, %w: f32, %out: f32):
    %y = arith.mulf %v, %w : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %r = tensor.extract %p[%i] : tensor<16xf32>
  return %r : f32
}
