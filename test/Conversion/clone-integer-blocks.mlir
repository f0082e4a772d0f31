// RUN: softmax-opt %s --blk-clone-integer-blocks --split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// A mask read by a reduction (the row's limit) and by a select gets a copy
// for each, the original for the first, so that elementwise fusion (which
// moves a producer into its only consumer) computes it inside both loops.
// CHECK-LABEL: func.func @mask_twice(
// CHECK: %[[M1:.*]] = linalg.generic {{.*}} ins(%{{.*}} : i32) outs(%{{.*}} : tensor<64xi1>)
// CHECK: linalg.generic {{.*}} ins(%[[M1]] : tensor<64xi1>)
// CHECK: %[[M2:.*]] = linalg.generic {{.*}} ins(%{{.*}} : i32) outs(%{{.*}} : tensor<64xi1>)
// CHECK: linalg.generic {{.*}} ins(%[[M2]], %{{.*}} : tensor<64xi1>, tensor<64xf32>)
func.func @mask_twice(%n: i32, %x: tensor<64xf32>) -> (tensor<i32>, tensor<64xf32>) {
  %empty = tensor.empty() : tensor<64xi1>
  %mask = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel"]}
      ins(%n : i32) outs(%empty : tensor<64xi1>) {
  ^bb0(%limit: i32, %out: i1):
    %j = linalg.index 0 : index
    %c = arith.index_cast %j : index to i32
    %in = arith.cmpi slt, %c, %limit : i32
    linalg.yield %in : i1
  } -> tensor<64xi1>
  %zero = arith.constant 0 : i32
  %init = tensor.from_elements %zero : tensor<i32>
  %count = linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
      ins(%mask : tensor<64xi1>) outs(%init : tensor<i32>) {
  ^bb0(%in: i1, %acc: i32):
    %one = arith.extui %in : i1 to i32
    %s = arith.addi %acc, %one : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  %fzero = arith.constant 0.0 : f32
  %fempty = tensor.empty() : tensor<64xf32>
  %kept = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%mask, %x : tensor<64xi1>, tensor<64xf32>) outs(%fempty : tensor<64xf32>) {
  ^bb0(%in: i1, %v: f32, %out: f32):
    %s = arith.select %in, %v, %fzero : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %count, %kept : tensor<i32>, tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Floats are not recomputed (an exp read by a sum and a division stays one
// block), and neither is a block read in a loop's body, where a copy would
// compute the whole block every iteration.
// CHECK-LABEL: func.func @not_cloned(
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: scf.for
// CHECK: tensor.extract
// CHECK-NOT: linalg.generic
func.func @not_cloned(%x: tensor<64xf32>, %n: index) -> (tensor<64xf32>, tensor<64xf32>, i32) {
  %fempty = tensor.empty() : tensor<64xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%fempty : tensor<64xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %twice = arith.addf %e, %e : tensor<64xf32>
  %empty = tensor.empty() : tensor<64xi32>
  %offsets = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%empty : tensor<64xi32>) {
  ^bb0(%out: i32):
    %j = linalg.index 0 : index
    %c = arith.index_cast %j : index to i32
    linalg.yield %c : i32
  } -> tensor<64xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
    %o = tensor.extract %offsets[%i] : tensor<64xi32>
    %s = arith.addi %acc, %o : i32
    scf.yield %s : i32
  }
  %last = tensor.extract %offsets[%c1] : tensor<64xi32>
  %total = arith.addi %sum, %last : i32
  return %e, %twice, %total : tensor<64xf32>, tensor<64xf32>, i32
}
