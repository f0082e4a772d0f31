// RUN: softmax-opt %s --blk-widen-offsets | FileCheck %s

// A row's start: both factors sign-extended, the product in i64; the offsets
// block of the load and store stays i32, and the i32 product is gone.
// CHECK-LABEL: func.func @row_start
// CHECK-SAME: (%[[OUT:.*]]: !blk.ptr<f32>, %[[IN:.*]]: !blk.ptr<f32>, %[[STRIDE:.*]]: i32, %{{.*}}: i32)
// CHECK-DAG: %[[STRIDE64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
// CHECK-DAG: %[[ROW:.*]] = blk.program_id x
// CHECK: %[[ROW64:.*]] = arith.extsi %[[ROW]] : i32 to i64
// CHECK-NOT: arith.muli {{.*}} : i32
// CHECK: %[[START:.*]] = arith.muli %[[ROW64]], %[[STRIDE64]] : i64
// CHECK: %[[IN_ROW:.*]] = blk.addptr %[[IN]], %[[START]] : !blk.ptr<f32>, i64
// CHECK: %[[COLS:.*]] = blk.arange 0 to 128 : tensor<128xi32>
// CHECK: blk.load %[[IN_ROW]][%[[COLS]]] mask %{{.*}} : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
// CHECK: %[[OUT_ROW:.*]] = blk.addptr %[[OUT]], %[[START]] : !blk.ptr<f32>, i64
// CHECK: blk.store %[[OUT_ROW]][%[[COLS]]], %{{.*}} mask %{{.*}} : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
func.func @row_start(%out: !blk.ptr<f32>, %in: !blk.ptr<f32>, %stride: i32, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %nb = blk.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %x = blk.load %in_row[%cols] mask %mask : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %x mask %mask : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
  return
}

// The split program's chain: a quotient and a remainder are zero-extended
// (the division stays 32-bit), the constexpr sign-extended. The i32 part
// start also feeds an offsets block, so it stays next to its i64 copy.
// CHECK-LABEL: func.func @part_start
// CHECK-SAME: (%[[IN:.*]]: !blk.ptr<f32>, %[[STRIDE:.*]]: i32)
// CHECK-DAG: %[[STRIDE64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
// CHECK-DAG: %[[SPLITS:.*]] = blk.constexpr SPLITS : i32
// CHECK-DAG: %[[BLOCK:.*]] = blk.constexpr BLOCK : i32
// CHECK-DAG: %[[BLOCK64:.*]] = arith.extsi %[[BLOCK]] : i32 to i64
// CHECK-DAG: %[[ROW:.*]] = arith.divui %{{.*}}, %[[SPLITS]] : i32
// CHECK-DAG: %[[ROW64:.*]] = arith.extui %[[ROW]] : i32 to i64
// CHECK-DAG: %[[PART:.*]] = arith.remui %{{.*}}, %[[SPLITS]] : i32
// CHECK-DAG: %[[PART64:.*]] = arith.extui %[[PART]] : i32 to i64
// CHECK-DAG: %[[ROW_START:.*]] = arith.muli %[[ROW64]], %[[STRIDE64]] : i64
// CHECK-DAG: %[[PART_START32:.*]] = arith.muli %[[PART]], %[[BLOCK]] : i32
// CHECK-DAG: %[[PART_START:.*]] = arith.muli %[[PART64]], %[[BLOCK64]] : i64
// CHECK: %[[START:.*]] = arith.addi %[[ROW_START]], %[[PART_START]] : i64
// CHECK: blk.addptr %[[IN]], %[[START]] : !blk.ptr<f32>, i64
// CHECK: blk.splat %[[PART_START32]] [BLOCK] : i32 -> tensor<?xi32>
func.func @part_start(%in: !blk.ptr<f32>, %stride: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %pid = blk.program_id x
  %splits = blk.constexpr SPLITS : i32
  %block = blk.constexpr BLOCK : i32
  %row = arith.divui %pid, %splits : i32
  %part = arith.remui %pid, %splits : i32
  %row_start = arith.muli %row, %stride : i32
  %part_start = arith.muli %part, %block : i32
  %start = arith.addi %row_start, %part_start : i32
  %in_part = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %firsts = blk.splat %part_start [BLOCK] : i32 -> tensor<?xi32>
  %abs_cols = arith.addi %cols, %firsts : tensor<?xi32>
  %x = blk.load %in_part[%abs_cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  return
}

// Constants become i64 constants with the same (signed) value; a difference
// of grid values is computed in i64.
// CHECK-LABEL: func.func @reversed
// CHECK-SAME: (%[[IN:.*]]: !blk.ptr<f32>, %[[STRIDE:.*]]: i32)
// CHECK-DAG: %[[STRIDE64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
// CHECK-DAG: %[[PROGRAMS:.*]] = blk.num_programs x
// CHECK-DAG: %[[PROGRAMS64:.*]] = arith.extsi %[[PROGRAMS]] : i32 to i64
// CHECK-DAG: %[[PID:.*]] = blk.program_id x
// CHECK-DAG: %[[PID64:.*]] = arith.extsi %[[PID]] : i32 to i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MINUS_ONE:.*]] = arith.constant -1 : i64
// CHECK: %[[LAST:.*]] = arith.subi %[[PROGRAMS64]], %[[ONE]] : i64
// CHECK: %[[ROW:.*]] = arith.subi %[[LAST]], %[[PID64]] : i64
// CHECK: %[[START:.*]] = arith.muli %[[ROW]], %[[STRIDE64]] : i64
// CHECK: %[[BEFORE:.*]] = arith.addi %[[START]], %[[MINUS_ONE]] : i64
// CHECK: blk.addptr %[[IN]], %[[BEFORE]] : !blk.ptr<f32>, i64
// CHECK-NOT: : i32
// CHECK: return
func.func @reversed(%in: !blk.ptr<f32>, %stride: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %programs = blk.num_programs x
  %pid = blk.program_id x
  %c1 = arith.constant 1 : i32
  %c-1 = arith.constant -1 : i32
  %last = arith.subi %programs, %c1 : i32
  %row = arith.subi %last, %pid : i32
  %start = arith.muli %row, %stride : i32
  %before = arith.addi %start, %c-1 : i32
  %p = blk.addptr %in, %before : !blk.ptr<f32>, i32
  return
}

// A loop counter is extended inside the loop, where it is defined.
// CHECK-LABEL: func.func @persistent
// CHECK-SAME: (%[[IN:.*]]: !blk.ptr<f32>, %[[STRIDE:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[STRIDE64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %[[N]] step %{{.*}} : i32 {
// CHECK-NEXT: %[[ROW64:.*]] = arith.extsi %[[ROW]] : i32 to i64
// CHECK-NEXT: %[[START:.*]] = arith.muli %[[ROW64]], %[[STRIDE64]] : i64
// CHECK-NEXT: blk.addptr %[[IN]], %[[START]] : !blk.ptr<f32>, i64
func.func @persistent(%in: !blk.ptr<f32>, %stride: i32, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent>} {
  %first = blk.program_id x
  %step = blk.num_programs x
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  scf.for %row = %first to %n step %step : i32 {
    %start = arith.muli %row, %stride : i32
    %p = blk.addptr %in, %start : !blk.ptr<f32>, i32
    %x = blk.load %p[%cols] : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  }
  return
}

// An i64 offset is left alone.
// CHECK-LABEL: func.func @already_wide
// CHECK-SAME: (%[[IN:.*]]: !blk.ptr<f32>, %[[OFFSET:.*]]: i64)
// CHECK-NEXT: blk.addptr %[[IN]], %[[OFFSET]] : !blk.ptr<f32>, i64
// CHECK-NEXT: return
func.func @already_wide(%in: !blk.ptr<f32>, %offset: i64) {
  %p = blk.addptr %in, %offset : !blk.ptr<f32>, i64
  return
}
