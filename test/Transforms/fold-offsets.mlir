// RUN: softmax-opt %s --blk-fold-offsets | FileCheck %s

// A program's first row goes into the 2-D offsets block of each access;
// the addptrs are gone and the accesses address the argument pointers.
// CHECK-LABEL: func.func @first_row
// CHECK-SAME: (%[[OUT:.*]]: !blk.ptr<f32>, %[[IN:.*]]: !blk.ptr<f32>, %[[STRIDE:.*]]: i32)
// CHECK-NOT: blk.addptr
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %[[STRIDE]] : i32
// CHECK: %[[OFFSETS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<4x64xi32>
// CHECK: %[[IN_START:.*]] = blk.splat %[[START]] : i32 -> tensor<4x64xi32>
// CHECK: %[[IN_OFFSETS:.*]] = arith.addi %[[OFFSETS]], %[[IN_START]] : tensor<4x64xi32>
// CHECK: blk.load %[[IN]][%[[IN_OFFSETS]]] : !blk.ptr<f32>, tensor<4x64xi32> -> tensor<4x64xf32>
// CHECK: %[[OUT_START:.*]] = blk.splat %[[START]] : i32 -> tensor<4x64xi32>
// CHECK: %[[OUT_OFFSETS:.*]] = arith.addi %[[OFFSETS]], %[[OUT_START]] : tensor<4x64xi32>
// CHECK: blk.store %[[OUT]][%[[OUT_OFFSETS]]], %{{.*}} : !blk.ptr<f32>, tensor<4x64xi32>, tensor<4x64xf32>
// CHECK-NOT: blk.addptr
func.func @first_row(%out: !blk.ptr<f32>, %in: !blk.ptr<f32>, %stride: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %pid = blk.program_id x
  %c4 = arith.constant 4 : i32
  %first = arith.muli %pid, %c4 : i32
  %start = arith.muli %first, %stride : i32
  %in_rows = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_rows = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %rows = blk.arange 0 to 4 : tensor<4xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<4xi32> -> tensor<4x1xi32>
  %stride_b = blk.splat %stride : i32 -> tensor<4x1xi32>
  %row_starts = arith.muli %rows_col, %stride_b : tensor<4x1xi32>
  %row_starts_2d = blk.broadcast %row_starts : tensor<4x1xi32> -> tensor<4x64xi32>
  %cols = blk.arange 0 to 64 : tensor<64xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cols_2d = blk.broadcast %cols_row : tensor<1x64xi32> -> tensor<4x64xi32>
  %offsets = arith.addi %row_starts_2d, %cols_2d : tensor<4x64xi32>
  %x = blk.load %in_rows[%offsets] : !blk.ptr<f32>, tensor<4x64xi32> -> tensor<4x64xf32>
  blk.store %out_rows[%offsets], %x : !blk.ptr<f32>, tensor<4x64xi32>, tensor<4x64xf32>
  return
}

// A chain of addptrs folds from the last one back: both offsets are added.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[IN:.*]]: !blk.ptr<f32>, %[[ROW:.*]]: i32, %[[PART:.*]]: i32)
// CHECK-NOT: blk.addptr
// CHECK: %[[OFFSETS:.*]] = blk.broadcast
// CHECK: %[[PART_B:.*]] = blk.splat %[[PART]] : i32 -> tensor<2x64xi32>
// CHECK: %[[SUM1:.*]] = arith.addi %[[OFFSETS]], %[[PART_B]] : tensor<2x64xi32>
// CHECK: %[[ROW_B:.*]] = blk.splat %[[ROW]] : i32 -> tensor<2x64xi32>
// CHECK: %[[SUM2:.*]] = arith.addi %[[SUM1]], %[[ROW_B]] : tensor<2x64xi32>
// CHECK: blk.load %[[IN]][%[[SUM2]]]
func.func @chain(%in: !blk.ptr<f32>, %row: i32, %part: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %in_row = blk.addptr %in, %row : !blk.ptr<f32>, i32
  %in_part = blk.addptr %in_row, %part : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 64 : tensor<64xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %offsets = blk.broadcast %cols_row : tensor<1x64xi32> -> tensor<2x64xi32>
  %x = blk.load %in_part[%offsets] : !blk.ptr<f32>, tensor<2x64xi32> -> tensor<2x64xf32>
  return
}

// Kept: an i64 offset (widened by blk-widen-offsets: the problem does not
// fit 32 bits), a 1-D access (one row's columns), a pointer that a loop
// carries, and offsets blocks whose shape names constants (not specialized
// yet).
// CHECK-LABEL: func.func @kept
// CHECK: blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<f32>, i64
// CHECK: %[[ROW:.*]] = blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<f32>, i32
// CHECK: blk.load %[[ROW]]
// CHECK: blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<f32>, i32
// CHECK: scf.for
// CHECK: blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<f32>, i32
// CHECK: scf.yield
// CHECK: %[[NAMED:.*]] = blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<f32>, i32
// CHECK: blk.load %[[NAMED]]
func.func @kept(%in: !blk.ptr<f32>, %wide: i64, %step: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %cols = blk.arange 0 to 64 : tensor<64xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cols_2d = blk.broadcast %cols_row : tensor<1x64xi32> -> tensor<2x64xi32>
  %far = blk.addptr %in, %wide : !blk.ptr<f32>, i64
  %x = blk.load %far[%cols_2d] : !blk.ptr<f32>, tensor<2x64xi32> -> tensor<2x64xf32>
  %row = blk.addptr %in, %step : !blk.ptr<f32>, i32
  %r = blk.load %row[%cols] : !blk.ptr<f32>, tensor<64xi32> -> tensor<64xf32>
  %first = blk.addptr %in, %step : !blk.ptr<f32>, i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %first) -> (!blk.ptr<f32>) {
    blk.store %p[%cols_2d], %x : !blk.ptr<f32>, tensor<2x64xi32>, tensor<2x64xf32>
    %next = blk.addptr %p, %step : !blk.ptr<f32>, i32
    scf.yield %next : !blk.ptr<f32>
  }
  %dyn = blk.arange 0 to BLOCK : tensor<?xi32>
  %dyn_row = blk.expand_dims %dyn axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %named = blk.addptr %in, %step : !blk.ptr<f32>, i32
  %y = blk.load %named[%dyn_row] : !blk.ptr<f32>, tensor<1x?xi32> -> tensor<1x?xf32>
  return
}
