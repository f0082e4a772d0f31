// python-free-examples/layer_norm.mlir with its sum and its squares about
// the mean written as one blk.sum_centered_squares (what
// blk-combine-centered-squares makes of the two reductions where they
// cross warps): the op as a user writes it, on any binding. Input of
// test/Runtime/sum-centered-squares.mlir (CPU, and the program in float64)
// and test/GPU/sum-centered-squares.mlir.

func.func @layer_norm_sum_centered_squares(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                      %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                      %weight: !blk.ptr<f32> {blk.arg = #blk.arg<input "weight", per_col>, blk.divisibility = 16 : i64},
                      %bias: !blk.ptr<f32> {blk.arg = #blk.arg<input "bias", per_col>, blk.divisibility = 16 : i64},
                      %eps: f32 {blk.arg = #blk.arg<param "eps">},
                      %x_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                      %y_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                      %n_rows: i32 {blk.arg = #blk.arg<rows>},
                      %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %n_float = arith.sitofp %n_cols : i32 to f32

  %x_start = arith.muli %row, %x_row_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<f32>, i32
  %x_block = blk.load %x_row[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>

  %sum, %square_sum = blk.sum_centered_squares %x_block mask %in_bounds
      divisor %n_float axis 0 : tensor<?xf32>, tensor<?xi1>
  %mean = arith.divf %sum, %n_float : f32
  %mean_block = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>
  %difference = arith.subf %x_block, %mean_block : tensor<?xf32>
  %centered = arith.select %in_bounds, %difference, %zeros
      : tensor<?xi1>, tensor<?xf32>
  %variance = arith.divf %square_sum, %n_float : f32
  %shifted = arith.addf %variance, %eps : f32
  %rstd = math.rsqrt %shifted : f32
  %rstd_block = blk.splat %rstd [BLOCK] : f32 -> tensor<?xf32>
  // Read after the reductions: not live in registers across them.
  %w_block = blk.load %weight[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %b_block = blk.load %bias[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %normed = arith.mulf %centered, %rstd_block : tensor<?xf32>
  %scaled = arith.mulf %normed, %w_block : tensor<?xf32>
  %y_block = arith.addf %scaled, %b_block : tensor<?xf32>

  %y_start = arith.muli %row, %y_row_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %y_block mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
