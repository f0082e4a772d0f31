// LayerNorm forward, fused: one program per row, the row held in registers
// and read from memory once. The row's statistics come from shifted data:
// with k = x[0], S1 = sum(x - k) and S2 = sum((x - k)^2) are two
// independent reductions, mean = k + S1 / N and var = S2 / N - (S1 / N)^2.
// The shift keeps the variance from cancelling where the mean is large
// against the spread (x - k is of the spread's size, as x - mean is in the
// two-pass formula); unlike the two-pass formula, the second sum does not
// wait for the first, so both exchanges run back to back (H100, 4096 rows
// of 12288 / 16384: bf16 59 / 67% of a copy two-pass, 66 / 75% shifted;
// f32 87 / 93%, 94 / 98%; docs/benchmarks.md). y = (x - mean) * rsqrt(var
// + eps) * weight + bias, x - mean taken as (x - k) - S1 / N: torch's
// layer_norm with the biased variance. weight and bias are one element per column. Masked lanes are 0
// after shifting, so they add nothing to either sum. A NaN or an infinity
// in a row makes the row NaN, as in torch.
//
//   softmax-run layer_norm.mlir --rows 4096 --cols 4096 --param eps=1e-5 --reference layer_norm --check

func.func @layer_norm(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
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

  // k = x[0], a block of one element that every thread reads (an L1 hit
  // after the row's own load); an empty row reads nothing.
  %c0_i32 = arith.constant 0 : i32
  %first_col = blk.splat %c0_i32 [1] : i32 -> tensor<1xi32>
  %row_not_empty = arith.cmpi sgt, %n_cols, %c0_i32 : i32
  %first_in_row = blk.splat %row_not_empty [1] : i1 -> tensor<1xi1>
  %first_block = blk.load %x_row[%first_col] mask %first_in_row other %zero
      : !blk.ptr<f32>, tensor<1xi32> -> tensor<1xf32>
  %k = blk.reduce sum %first_block axis 0 : tensor<1xf32> -> f32
  %k_block = blk.splat %k [BLOCK] : f32 -> tensor<?xf32>
  %x_minus_k = arith.subf %x_block, %k_block : tensor<?xf32>
  %shifted = arith.select %in_bounds, %x_minus_k, %zeros
      : tensor<?xi1>, tensor<?xf32>
  %shifted_squares = arith.mulf %shifted, %shifted : tensor<?xf32>
  %shifted_sum = blk.reduce sum %shifted axis 0 : tensor<?xf32> -> f32
  %square_sum = blk.reduce sum %shifted_squares axis 0 : tensor<?xf32> -> f32
  %mean_past_k = arith.divf %shifted_sum, %n_float : f32
  // x - mean = (x - k) - (mean - k): the shifted row is what stays live
  // across the exchanges, not x besides it.
  %mean_past_k_block = blk.splat %mean_past_k [BLOCK] : f32 -> tensor<?xf32>
  %difference = arith.subf %shifted, %mean_past_k_block : tensor<?xf32>
  %centered = arith.select %in_bounds, %difference, %zeros
      : tensor<?xi1>, tensor<?xf32>
  // var = E[(x - k)^2] - E[x - k]^2, at least 0 (rounding may take it
  // below where the row is constant).
  %square_mean = arith.divf %square_sum, %n_float : f32
  %mean_past_k_squared = arith.mulf %mean_past_k, %mean_past_k : f32
  %difference_of_means = arith.subf %square_mean, %mean_past_k_squared : f32
  %variance = arith.maximumf %difference_of_means, %zero : f32
  %shifted_variance = arith.addf %variance, %eps : f32
  %rstd = math.rsqrt %shifted_variance : f32
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
