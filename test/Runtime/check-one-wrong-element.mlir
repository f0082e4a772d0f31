// --check fails a softmax that zeroes one element (row 5, column 7) of a
// 4096 x 1024 output. That element's share of the relative L2 error is
// 3.6e-6, under the f32 tolerance of 1e-5: only its own error against the
// output's root mean square (max_elem, 7.4e-3 against 1e-3) finds it.
// RUN: not softmax-run %s --target cpu --check --reference softmax --rows 4096 --cols 1024 | FileCheck %s
// CHECK: check: {{.*}} rel_l2=3.61e-06 max_elem=0.00738 (row 5, col 7) {{.*}} FAILED (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 softmax reference)

func.func @softmax_with_one_wrong_element(
    %out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
    %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
    %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
    %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
    %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %in_start = arith.muli %row, %in_row_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %max = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %x, %max_block : tensor<?xf32>
  %num = math.exp %shifted : tensor<?xf32>
  %den = blk.reduce sum %num axis 0 : tensor<?xf32> -> f32
  %den_block = blk.splat %den [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.divf %num, %den_block : tensor<?xf32>

  // The fault: 0 at row 5, column 7.
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %in_row_5 = arith.cmpi eq, %row, %c5 : i32
  %row_5 = blk.splat %in_row_5 [BLOCK] : i1 -> tensor<?xi1>
  %col_7_block = blk.splat %c7 [BLOCK] : i32 -> tensor<?xi32>
  %col_7 = arith.cmpi eq, %cols, %col_7_block : tensor<?xi32>
  %wrong = arith.andi %row_5, %col_7 : tensor<?xi1>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %faulty = arith.select %wrong, %zeros, %y : tensor<?xi1>, tensor<?xf32>

  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %faulty mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
