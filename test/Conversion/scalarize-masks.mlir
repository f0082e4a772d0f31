// RUN: softmax-opt %s --blk-scalarize-masks --split-input-file | FileCheck %s

// A mask read only element by element is computed per element read: the
// comparison and the andi on scalars, the vectors left unused.
// CHECK-LABEL: func.func @read_by_element
// CHECK-SAME: (%[[A:.*]]: vector<4xi32>, %[[B:.*]]: vector<4xi32>, %[[K:.*]]: vector<4xi1>)
// CHECK-NOT: vector<4xi1> = arith
// CHECK: %[[A1:.*]] = vector.extract %[[A]][1] : i32 from vector<4xi32>
// CHECK: %[[B1:.*]] = vector.extract %[[B]][1] : i32 from vector<4xi32>
// CHECK: %[[LT1:.*]] = arith.cmpi slt, %[[A1]], %[[B1]] : i32
// CHECK: %[[K1:.*]] = vector.extract %[[K]][1] : i1 from vector<4xi1>
// CHECK: %[[M1:.*]] = arith.andi %[[LT1]], %[[K1]] : i1
// CHECK: %[[A3:.*]] = vector.extract %[[A]][3] : i32 from vector<4xi32>
// CHECK: %[[B3:.*]] = vector.extract %[[B]][3] : i32 from vector<4xi32>
// CHECK: %[[LT3:.*]] = arith.cmpi slt, %[[A3]], %[[B3]] : i32
// CHECK: %[[K3:.*]] = vector.extract %[[K]][3] : i1 from vector<4xi1>
// CHECK: %[[M3:.*]] = arith.andi %[[LT3]], %[[K3]] : i1
// CHECK: return %[[M1]], %[[M3]]
func.func @read_by_element(%a: vector<4xi32>, %b: vector<4xi32>, %k: vector<4xi1>) -> (i1, i1) {
  %lt = arith.cmpi slt, %a, %b : vector<4xi32>
  %m = arith.andi %lt, %k : vector<4xi1>
  %m1 = vector.extract %m[1] : i1 from vector<4xi1>
  %m3 = vector.extract %m[3] : i1 from vector<4xi1>
  return %m1, %m3 : i1, i1
}

// -----

// A mask also read as a vector (a select of loaded values) stays a vector;
// so does the comparison it is computed from.
// CHECK-LABEL: func.func @read_as_vector
// CHECK: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: %[[M:.*]] = arith.andi %[[LT]], %{{.*}} : vector<4xi1>
// CHECK: arith.select %[[M]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK: vector.extract %[[M]][0] : i1 from vector<4xi1>
func.func @read_as_vector(%a: vector<4xi32>, %b: vector<4xi32>, %k: vector<4xi1>, %x: vector<4xf32>, %y: vector<4xf32>) -> (vector<4xf32>, i1) {
  %lt = arith.cmpi slt, %a, %b : vector<4xi32>
  %m = arith.andi %lt, %k : vector<4xi1>
  %s = arith.select %m, %x, %y : vector<4xi1>, vector<4xf32>
  %m0 = vector.extract %m[0] : i1 from vector<4xi1>
  return %s, %m0 : vector<4xf32>, i1
}
