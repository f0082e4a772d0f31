// RUN: softmax-opt %s -split-input-file --blk-stream-rows | FileCheck %s

// A row's max and its sum of exp(x - max) (cross_entropy's logsumexp):
// a loop over the row's columns, BLOCK a step, before the first reduction;
// each tile loads the row's block at its columns, and each lane keeps a
// running (max, sum) pair, its sum rescaled by exp(m - m') where the max
// grows to m' (against 0 while m' is -inf); the row's max and sum then come
// from the lanes' pairs (NaN where no lane has a finite max). A block of
// one (the label) stays where it was.
// CHECK-LABEL: func.func @logsumexp
// CHECK-SAME: %[[COLS_ARG:[a-z0-9]+]]: i32 {blk.arg = #blk.arg<cols>}
// CHECK: blk.reduce sum %{{.*}} : tensor<1xi64> -> i64
// CHECK: %[[NINF:.*]] = blk.splat %{{.*}} [BLOCK] : f32 -> tensor<?xf32>
// CHECK: %[[ZERO:.*]] = blk.splat %{{.*}} [BLOCK] : f32 -> tensor<?xf32>
// CHECK: %[[STEP:.*]] = blk.constexpr BLOCK : i32
// CHECK: %[[LANES:.*]]:2 = scf.for %[[FIRST:.*]] = %{{.*}} to %[[COLS_ARG]] step %[[STEP]] iter_args(%[[M:.*]] = %[[NINF]], %[[S:.*]] = %[[ZERO]])
// CHECK: %[[ARANGE:.*]] = blk.arange 0 to BLOCK
// CHECK: %[[FIRSTS:.*]] = blk.splat %[[FIRST]] [BLOCK]
// CHECK: %[[COLS:.*]] = arith.addi %[[ARANGE]], %[[FIRSTS]]
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[COLS]]
// CHECK: %[[X:.*]] = blk.load %{{.*}}[%[[COLS]]] mask %[[IN]]
// CHECK: %[[GROWN:.*]] = arith.maximumf %[[M]], %[[X]]
// CHECK: %[[NONE:.*]] = arith.cmpf oeq, %[[GROWN]]
// CHECK: %[[SHIFT:.*]] = arith.select %[[NONE]], %{{.*}}, %[[GROWN]]
// CHECK: %[[OLD:.*]] = arith.subf %[[M]], %[[SHIFT]]
// CHECK: %[[RESCALE:.*]] = math.exp %[[OLD]]
// CHECK: %[[CUR:.*]] = arith.subf %[[X]], %[[SHIFT]]
// CHECK: %[[TERM:.*]] = math.exp %[[CUR]]
// CHECK: %[[KEPT:.*]] = arith.mulf %[[S]], %[[RESCALE]]
// CHECK: %[[SUM:.*]] = arith.addf %[[KEPT]], %[[TERM]]
// CHECK: scf.yield %[[GROWN]], %[[SUM]]
// CHECK: %[[ROW_MAX:.*]] = blk.reduce max %[[LANES]]#0 axis 0
// CHECK: %[[REPEATED:.*]] = blk.splat %[[ROW_MAX]] [BLOCK]
// CHECK: %[[SCALES:.*]] = math.exp %{{.*}}
// CHECK: %[[SCALED:.*]] = arith.mulf %[[LANES]]#1, %[[SCALES]]
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[LANES]]#0
// CHECK: %[[COUNTED:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[SCALED]]
// CHECK: %[[ROW_SUM:.*]] = blk.reduce sum %[[COUNTED]] axis 0
// CHECK: %[[NOTHING:.*]] = arith.cmpf oeq, %[[ROW_MAX]]
// CHECK: %[[S_ROW:.*]] = arith.select %[[NOTHING]], %{{.*}}, %[[ROW_SUM]]
// CHECK: %[[LOG:.*]] = math.log %[[S_ROW]]
// CHECK: arith.addf %[[ROW_MAX]], %[[LOG]]
// CHECK-NOT: blk.load
// CHECK: blk.store
// CHECK: return
func.func @logsumexp(%lse: !blk.ptr<f32> {blk.arg = #blk.arg<output "lse", per_row>},
                     %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                     %labels: !blk.ptr<i64> {blk.arg = #blk.arg<input "labels", per_row>},
                     %n_rows: i32 {blk.arg = #blk.arg<rows>},
                     %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %label_block = blk.load %labels[%here] : !blk.ptr<i64>, tensor<1xi32> -> tensor<1xi64>
  %label = blk.reduce sum %label_block axis 0 : tensor<1xi64> -> i64
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %v = blk.load %x[%cols] mask %in other %ninf : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %ms = blk.splat %m [BLOCK] : f32 -> tensor<?xf32>
  %d = arith.subf %v, %ms : tensor<?xf32>
  %e = math.exp %d : tensor<?xf32>
  %s = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %log = math.log %s : f32
  %l = arith.addf %m, %log : f32
  %lb = blk.splat %l [1] : f32 -> tensor<1xf32>
  blk.store %lse[%here], %lb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// Reductions of values computed from the row alone: each lane keeps its
// own running sum, max and min (from the identity of each), which the
// reductions combine after the loop; an i32 sum keeps integer adds.
// CHECK-LABEL: func.func @sum_max_min
// CHECK: %[[SUMS0:.*]] = blk.splat %{{.*}} [BLOCK] : f32 -> tensor<?xf32>
// CHECK: %[[MAXES0:.*]] = blk.splat %{{.*}} [BLOCK] : f32 -> tensor<?xf32>
// CHECK: %[[MINS0:.*]] = blk.splat %{{.*}} [BLOCK] : f32 -> tensor<?xf32>
// CHECK: %[[COUNTS0:.*]] = blk.splat %{{.*}} [BLOCK] : i32 -> tensor<?xi32>
// CHECK: %[[LANES:.*]]:4 = scf.for {{.*}} iter_args(%[[SUMS:.*]] = %[[SUMS0]], %[[MAXES:.*]] = %[[MAXES0]], %[[MINS:.*]] = %[[MINS0]], %[[COUNTS:.*]] = %[[COUNTS0]])
// CHECK: %[[V:.*]] = blk.load
// CHECK: %[[SQ:.*]] = arith.mulf %[[V]], %[[V]]
// CHECK: %[[ONES:.*]] = arith.extui
// CHECK: %[[SUMS1:.*]] = arith.addf %[[SUMS]], %[[SQ]]
// CHECK: %[[MAXES1:.*]] = arith.maximumf %[[MAXES]], %[[V]]
// CHECK: %[[MINS1:.*]] = arith.minimumf %[[MINS]], %[[V]]
// CHECK: %[[COUNTS1:.*]] = arith.addi %[[COUNTS]], %[[ONES]]
// CHECK: scf.yield %[[SUMS1]], %[[MAXES1]], %[[MINS1]], %[[COUNTS1]]
// CHECK: blk.reduce sum %[[LANES]]#0 axis 0 : tensor<?xf32> -> f32
// CHECK: blk.reduce max %[[LANES]]#1 axis 0 : tensor<?xf32> -> f32
// CHECK: blk.reduce min %[[LANES]]#2 axis 0 : tensor<?xf32> -> f32
// CHECK: blk.reduce sum %[[LANES]]#3 axis 0 : tensor<?xi32> -> i32
func.func @sum_max_min(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                       %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                       %n_rows: i32 {blk.arg = #blk.arg<rows>},
                       %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %v = blk.load %x[%cols] mask %in other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sq = arith.mulf %v, %v : tensor<?xf32>
  %ones = arith.extui %in : tensor<?xi1> to tensor<?xi32>
  %s = blk.reduce sum %sq axis 0 : tensor<?xf32> -> f32
  %hi = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %lo = blk.reduce min %v axis 0 : tensor<?xf32> -> f32
  %count = blk.reduce sum %ones axis 0 : tensor<?xi32> -> i32
  %c = arith.sitofp %count : i32 to f32
  %a = arith.addf %s, %hi : f32
  %b = arith.addf %a, %lo : f32
  %r = arith.addf %b, %c : f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %rb = blk.splat %r [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %rb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// A max without a sum of exps is a plain running max (no exp in the loop);
// a constant a row op uses after the first reduction moves before the loop.
// CHECK-LABEL: func.func @late_constant
// CHECK: %[[LATE:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[LANES:.*]]:2 = scf.for
// CHECK: blk.load %{{.*}} mask %{{.*}} other %[[LATE]]
// CHECK-NOT: math.exp
// CHECK: scf.yield
// CHECK: blk.reduce sum %[[LANES]]#0 axis 0
// CHECK: blk.reduce max %[[LANES]]#1 axis 0
func.func @late_constant(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                         %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %v0 = blk.load %x[%cols] mask %in other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m0 = blk.reduce sum %v0 axis 0 : tensor<?xf32> -> f32
  %ninf = arith.constant 0xFF800000 : f32
  %v = blk.load %x[%cols] mask %in other %ninf : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m1 = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %m = arith.addf %m0, %m1 : f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %mb = blk.splat %m [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %mb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
