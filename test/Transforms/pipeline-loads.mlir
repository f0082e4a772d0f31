// RUN: softmax-opt %s --blk-pipeline-loads --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-set-launch-shape=num-stages=1 --blk-pipeline-loads --split-input-file | FileCheck %s --check-prefix=OFF

// The persistent loop over rows: the first row's load moves before the
// loop, masked by `lb < ub`; each iteration loads row `i + step`, masked by
// `i < ub - step`, and works on the carried block. The load had no mask:
// the bound is its mask.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[IN:.*]]: !blk.ptr<f32>, %[[OUT:.*]]: !blk.ptr<f32>, %[[STRIDE:.*]]: i32, %[[ROWS:.*]]: i32)
// CHECK: %[[FIRST:.*]] = blk.program_id x
// CHECK: %[[STEP:.*]] = blk.num_programs x
// CHECK: %[[COLS:.*]] = blk.arange 0 to 1024
// CHECK: %[[RUNS0:.*]] = arith.cmpi slt, %[[FIRST]], %[[ROWS]] : i32
// CHECK: %[[START0:.*]] = arith.muli %[[FIRST]], %[[STRIDE]] : i32
// CHECK: %[[ROW0:.*]] = blk.addptr %[[IN]], %[[START0]]
// CHECK: %[[MASK0:.*]] = blk.splat %[[RUNS0]] : i1 -> tensor<1024xi1>
// CHECK: %[[X0:.*]] = blk.load %[[ROW0]][%[[COLS]]] mask %[[MASK0]] :
// CHECK: %[[AHEAD:.*]] = arith.muli %[[STEP]], %{{.*}} : i32
// CHECK: %[[LAST:.*]] = arith.subi %[[ROWS]], %[[AHEAD]] : i32
// CHECK: scf.for %[[ROW:.*]] = %[[FIRST]] to %[[ROWS]] step %[[STEP]] iter_args(%[[X:.*]] = %[[X0]]) -> (tensor<1024xf32>) : i32 {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[ROW]], %[[AHEAD]] : i32
// CHECK-NEXT: %[[RUNS:.*]] = arith.cmpi slt, %[[ROW]], %[[LAST]] : i32
// CHECK-NEXT: %[[START:.*]] = arith.muli %[[NEXT]], %[[STRIDE]] : i32
// CHECK-NEXT: %[[NEXT_ROW:.*]] = blk.addptr %[[IN]], %[[START]]
// CHECK-NEXT: %[[MASK:.*]] = blk.splat %[[RUNS]] : i1 -> tensor<1024xi1>
// CHECK-NEXT: %[[PREFETCH:.*]] = blk.load %[[NEXT_ROW]][%[[COLS]]] mask %[[MASK]] :
// CHECK: blk.reduce max %[[X]] axis 0
// CHECK: blk.store
// CHECK: scf.yield %[[PREFETCH]] : tensor<1024xf32>
// OFF-LABEL: func.func @rows
// OFF: scf.for
// OFF-NOT: iter_args
// OFF: blk.load
func.func @rows(%in: !blk.ptr<f32>, %out: !blk.ptr<f32>, %stride: i32, %rows: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent, num_stages = 2>} {
  %first = blk.program_id x
  %step = blk.num_programs x
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  scf.for %row = %first to %rows step %step : i32 {
    %start = arith.muli %row, %stride : i32
    %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
    %x = blk.load %in_row[%cols] : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
    %max = blk.reduce max %x axis 0 : tensor<1024xf32> -> f32
    %max_block = blk.splat %max : f32 -> tensor<1024xf32>
    %y = arith.subf %x, %max_block : tensor<1024xf32>
    %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
    blk.store %out_row[%cols], %y : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
  }
  return
}

// -----

// Three stages over a row's tiles, after a loop-carried value: two tiles
// are loaded before the loop, the carried blocks shift by one each
// iteration, and the load's own mask is kept (and-ed with the bound).
// CHECK-LABEL: func.func @tiles
// CHECK: %[[T0:.*]] = blk.load %{{.*}} mask %{{.*}} other
// CHECK: %[[T1:.*]] = blk.load %{{.*}} mask %{{.*}} other
// CHECK: scf.for %[[AT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[CUR:.*]] = %[[T0]], %[[NEXT:.*]] = %[[T1]]) -> (tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) : i32 {
// CHECK: %[[IN_ROW:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK: %[[BOUND:.*]] = blk.splat %{{.*}} : i1 -> tensor<256xi1>
// CHECK: %[[MASK:.*]] = arith.andi %[[IN_ROW]], %[[BOUND]] : tensor<256xi1>
// CHECK: %[[AHEAD:.*]] = blk.load %{{.*}} mask %[[MASK]] other
// CHECK: arith.maximumf %[[ACC]], %[[CUR]]
// CHECK: scf.yield %{{.*}}, %[[NEXT]], %[[AHEAD]] : tensor<256xf32>, tensor<256xf32>, tensor<256xf32>
func.func @tiles(%in: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 2, num_stages = 3>} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %tile = blk.arange 0 to 256 : tensor<256xi32>
  %n_block = blk.splat %n : i32 -> tensor<256xi32>
  %init = blk.splat %ninf : f32 -> tensor<256xf32>
  %m = scf.for %at = %c0 to %n step %c256 iter_args(%acc = %init) -> (tensor<256xf32>) : i32 {
    %at_block = blk.splat %at : i32 -> tensor<256xi32>
    %cols = arith.addi %tile, %at_block : tensor<256xi32>
    %in_row = arith.cmpi slt, %cols, %n_block : tensor<256xi32>
    %x = blk.load %in[%cols] mask %in_row other %ninf : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
    %acc_new = arith.maximumf %acc, %x : tensor<256xf32>
    scf.yield %acc_new : tensor<256xf32>
  }
  %max = blk.reduce max %m axis 0 : tensor<256xf32> -> f32
  return
}

// -----

// Left alone: a load whose address depends on a loop-carried value (a
// pointer walk), and a kernel of one stage.
// CHECK-LABEL: func.func @carried_address
// CHECK: scf.for
// CHECK-NEXT: blk.load %{{.*}}[%{{.*}}] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
// CHECK-LABEL: func.func @one_stage
// CHECK: scf.for
// CHECK-NEXT: arith.muli
// CHECK-NEXT: blk.addptr
// CHECK-NEXT: blk.load
func.func @carried_address(%in: !blk.ptr<f32>, %n: i32, %stride: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1, num_stages = 2>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%p = %in) -> (!blk.ptr<f32>) : i32 {
    %x = blk.load %p[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
    %q = blk.addptr %p, %stride : !blk.ptr<f32>, i32
    scf.yield %q : !blk.ptr<f32>
  }
  return
}
func.func @one_stage(%in: !blk.ptr<f32>, %n: i32, %stride: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %start = arith.muli %i, %stride : i32
    %row = blk.addptr %in, %start : !blk.ptr<f32>, i32
    %x = blk.load %row[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  }
  return
}

// -----

// An index-typed loop is pipelined the same way; an unsigned one is left
// alone (`ub - step` may wrap below zero).
// CHECK-LABEL: func.func @index_loop
// CHECK: %[[RUNS0:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<128xf32>) {
// CHECK-LABEL: func.func @unsigned
// CHECK: scf.for unsigned
// CHECK-NEXT: blk.addptr
// CHECK-NEXT: blk.load %{{.*}}[%{{.*}}] : !blk.ptr<f32>
func.func @index_loop(%in: !blk.ptr<f32>, %n: index)
    attributes {blk.kernel = #blk.kernel<num_warps = 1, num_stages = 2>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %row = blk.addptr %in, %ii : !blk.ptr<f32>, i32
    %x = blk.load %row[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  }
  return
}
func.func @unsigned(%in: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1, num_stages = 2>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  scf.for unsigned %i = %c0 to %n step %c1 : i32 {
    %row = blk.addptr %in, %i : !blk.ptr<f32>, i32
    %x = blk.load %row[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  }
  return
}

// -----

// Loads after a write stay where they are: the first load is prefetched,
// but the one after blk.program_barrier reads what the other programs
// wrote in this iteration, the one after a store may read its own write,
// and so may one after a store inside a branch. Each iteration touches its
// own row of 128 (the stride).
// CHECK-LABEL: func.func @after_writes
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<128xf32>) : i32 {
// CHECK: blk.program_barrier
// CHECK-NEXT: blk.load %{{.*}}[%{{.*}}] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
// CHECK: blk.store
// CHECK-NEXT: blk.load %{{.*}}[%{{.*}}] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
// CHECK: scf.yield
// CHECK-LABEL: func.func @after_a_branch
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: scf.if
// CHECK: blk.store
// CHECK: blk.load
func.func @after_writes(%in: !blk.ptr<f32>, %out: !blk.ptr<f32>, %partials: !blk.ptr<f32>, %arrivals: !blk.ptr<i64>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent, num_stages = 2>} {
  %first = blk.program_id x
  %step = blk.num_programs x
  %four = arith.constant 4 : i32
  %stride = arith.constant 128 : i32
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  scf.for %i = %first to %n step %step : i32 {
    %start = arith.muli %i, %stride : i32
    %row = blk.addptr %in, %start : !blk.ptr<f32>, i32
    %x = blk.load %row[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
    %part = blk.addptr %partials, %start : !blk.ptr<f32>, i32
    blk.store %part[%cols], %x : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
    blk.program_barrier %arrivals, %four : !blk.ptr<i64>, i32
    %others = blk.load %part[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
    %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
    blk.store %out_row[%cols], %others : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
    %again = blk.load %out_row[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  }
  return
}
func.func @after_a_branch(%in: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32, %write: i1)
    attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent, num_stages = 2>} {
  %first = blk.program_id x
  %step = blk.num_programs x
  %stride = arith.constant 128 : i32
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %ones = arith.constant dense<1.0> : tensor<128xf32>
  scf.for %i = %first to %n step %step : i32 {
    %start = arith.muli %i, %stride : i32
    %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
    scf.if %write {
      blk.store %out_row[%cols], %ones : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
    }
    %back = blk.load %out_row[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  }
  return
}
