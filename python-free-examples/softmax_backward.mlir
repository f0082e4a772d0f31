// Softmax backward, fused: one program per row. From the forward output y
// and its gradient dy, dx = y * (dy - sum(y * dy)), the formula of torch's
// _softmax_backward_data; two rows read and one written, each once, with
// one row-wide sum in between (registers hold both rows).
// Masked lanes read 0 for both y and dy: they add nothing to the sum and
// are not stored. A NaN or infinity in dy makes the row's sum, and so the
// row, NaN (where y is not 0 only: 0 * inf is NaN in the sum too), as in
// torch.
//
//   softmax-run softmax_backward.mlir --rows 4096 --cols 1024 --reference softmax_backward --check

func.func @softmax_backward(%dx: !blk.ptr<f32> {blk.arg = #blk.arg<output "dx">, blk.divisibility = 16 : i64},
                            %y: !blk.ptr<f32> {blk.arg = #blk.arg<input "y">, blk.divisibility = 16 : i64},
                            %dy: !blk.ptr<f32> {blk.arg = #blk.arg<input "dy">, blk.divisibility = 16 : i64},
                            %dx_row_stride: i32 {blk.arg = #blk.arg<row_stride "dx">, blk.divisibility = 16 : i64},
                            %y_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                            %dy_row_stride: i32 {blk.arg = #blk.arg<row_stride "dy">, blk.divisibility = 16 : i64},
                            %n_rows: i32 {blk.arg = #blk.arg<rows>},
                            %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32

  %y_start = arith.muli %row, %y_row_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  %y_block = blk.load %y_row[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %dy_start = arith.muli %row, %dy_row_stride : i32
  %dy_row = blk.addptr %dy, %dy_start : !blk.ptr<f32>, i32
  %dy_block = blk.load %dy_row[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>

  %products = arith.mulf %y_block, %dy_block : tensor<?xf32>
  %dot = blk.reduce sum %products axis 0 : tensor<?xf32> -> f32
  %dot_block = blk.splat %dot [BLOCK] : f32 -> tensor<?xf32>
  %centered = arith.subf %dy_block, %dot_block : tensor<?xf32>
  %dx_block = arith.mulf %y_block, %centered : tensor<?xf32>

  %dx_start = arith.muli %row, %dx_row_stride : i32
  %dx_row = blk.addptr %dx, %dx_start : !blk.ptr<f32>, i32
  blk.store %dx_row[%cols], %dx_block mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
