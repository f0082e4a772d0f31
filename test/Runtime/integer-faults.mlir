// Integer ops that would trap the host or leave the result undefined, on a
// checked CPU run: a division by zero (SIGFPE killed softmax-run with no
// location), of the smallest value by -1 (the same trap), and a shift by
// the width or more (poison: a shifted i1 made the process jump to address
// 0). Each is reported as an out-of-bounds access is: the op, its place and
// the program, then a clean exit 1.
// RUN: split-file %s %t
// RUN: not softmax-run %t/divide.mlir --target cpu --rows 4 --cols 8 2>&1 | FileCheck %s --check-prefix=DIVIDE
// RUN: not softmax-run %t/divide-block.mlir --target cpu --rows 4 --cols 8 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not softmax-run %t/shift.mlir --target cpu --rows 4 --cols 8 2>&1 | FileCheck %s --check-prefix=SHIFT
// DIVIDE: softmax-run: arith.divsi at {{.*}}divide.mlir:{{[0-9]+}}:{{[0-9]+}} divides by zero, or the smallest value by -1 (the host would trap), in program 0 of @divide
// BLOCK: softmax-run: arith.remui at {{.*}}divide-block.mlir:{{[0-9]+}}:{{[0-9]+}} divides by zero, or the smallest value by -1 (the host would trap), in program 0 of @divide_block
// SHIFT: softmax-run: arith.shli at {{.*}}shift.mlir:{{[0-9]+}}:{{[0-9]+}} shifts by its width or more (the result is undefined), in program 0 of @shift

//--- divide.mlir
// cols / (cols - cols): a scalar division by zero.
func.func @divide(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                  %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                  %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                  %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                  %n_rows: i32 {blk.arg = #blk.arg<rows>},
                  %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %zero = arith.subi %n_cols, %n_cols : i32
  %q = arith.divsi %n_cols, %zero : i32
  %start = arith.muli %row, %out_stride : i32
  %at = arith.addi %start, %q : i32
  %out_row = blk.addptr %out, %at : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1 : tensor<1xi32>
  %one = arith.constant dense<1.0> : tensor<1xf32>
  blk.store %out_row[%cols], %one : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

//--- divide-block.mlir
// Columns modulo themselves: column 0 divides by zero.
func.func @divide_block(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                        %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                        %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                        %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                        %n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to 8 : tensor<8xi32>
  %r = arith.remui %cols, %cols : tensor<8xi32>
  %start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %v = arith.sitofp %r : tensor<8xi32> to tensor<8xf32>
  blk.store %out_row[%cols], %v : !blk.ptr<f32>, tensor<8xi32>, tensor<8xf32>
  return
}

//--- shift.mlir
// An i1 shifted left by 1: poison.
func.func @shift(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                 %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                 %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                 %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                 %n_rows: i32 {blk.arg = #blk.arg<rows>},
                 %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %true = arith.cmpi sge, %row, %row : i32
  %shifted = arith.shli %true, %true : i1
  %start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 8 : tensor<8xi32>
  %flag = blk.splat %shifted : i1 -> tensor<8xi1>
  %ones = arith.constant dense<1.0> : tensor<8xf32>
  %zeros = arith.constant dense<0.0> : tensor<8xf32>
  %v = arith.select %flag, %ones, %zeros : tensor<8xi1>, tensor<8xf32>
  blk.store %out_row[%cols], %v : !blk.ptr<f32>, tensor<8xi32>, tensor<8xf32>
  return
}
