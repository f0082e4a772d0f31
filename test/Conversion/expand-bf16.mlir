// RUN: softmax-opt %s --blk-expand-bf16 --split-input-file | FileCheck %s

// bf16 -> f32 puts the 16 bits at the top of an f32.
// CHECK-LABEL: func.func @extend(
// CHECK-SAME: %[[X:.*]]: bf16
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK: %[[TOP:.*]] = arith.shli %[[WIDE]], %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.bitcast %[[TOP]] : i32 to f32
// CHECK: return %[[F]]
func.func @extend(%x: bf16) -> f32 {
  %f = arith.extf %x : bf16 to f32
  return %f : f32
}

// -----

// f32 -> bf16 rounds to nearest even in 32-bit lanes and tests for NaN
// with an integer compare; only the result narrows.
// CHECK-LABEL: func.func @truncate(
// CHECK-SAME: %[[X:.*]]: vector<8xf32>
// CHECK-DAG: %[[C16:.*]] = arith.constant dense<16> : vector<8xi32>
// CHECK-DAG: %[[BIAS:.*]] = arith.constant dense<32767> : vector<8xi32>
// CHECK-DAG: %[[INF:.*]] = arith.constant dense<2139095040> : vector<8xi32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : vector<8xf32> to vector<8xi32>
// CHECK: %[[TOP:.*]] = arith.shrui %[[BITS]], %[[C16]]
// CHECK: %[[ODD:.*]] = arith.andi %[[TOP]]
// CHECK: %[[ADD:.*]] = arith.addi %[[ODD]], %[[BIAS]]
// CHECK: %[[SUM:.*]] = arith.addi %[[BITS]], %[[ADD]]
// CHECK: %[[ROUNDED:.*]] = arith.shrui %[[SUM]], %[[C16]]
// CHECK: %[[MAG:.*]] = arith.andi %[[BITS]]
// CHECK: %[[NAN:.*]] = arith.cmpi ugt, %[[MAG]], %[[INF]] : vector<8xi32>
// CHECK: %[[QUIET:.*]] = arith.ori %[[TOP]]
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[QUIET]], %[[ROUNDED]] : vector<8xi1>, vector<8xi32>
// CHECK: %[[N:.*]] = arith.trunci %[[R]] : vector<8xi32> to vector<8xi16>
// CHECK: arith.bitcast %[[N]] : vector<8xi16> to vector<8xbf16>
func.func @truncate(%x: vector<8xf32>) -> vector<8xbf16> {
  %b = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %b : vector<8xbf16>
}

// -----

// Other conversions are left alone.
// CHECK-LABEL: func.func @others(
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : bf16 to f64
func.func @others(%x: f32, %y: bf16) -> (f16, f64) {
  %h = arith.truncf %x : f32 to f16
  %d = arith.extf %y : bf16 to f64
  return %h, %d : f16, f64
}
