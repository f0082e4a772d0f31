// Probe: layer_norm.mlir without its bias (what the second row read
// after the reductions costs; checks against layer_norm's reference, whose
// bias is then 0).
//
// LayerNorm forward, fused: one program per row, the row held in registers
// and read from memory once. mean = sum(x) / N, then var = sum((x - mean)^2)
// / N from the same registers (the two-pass formula on chip: no
// cancellation of E[x^2] - E[x]^2), y = (x - mean) * rsqrt(var + eps) *
// weight + bias: torch's layer_norm with the biased variance. weight and
// bias are one element per column. Masked lanes are 0 after centering, so
// they add nothing to the variance. A NaN or an infinity in a row makes the
// row NaN, as in torch.
//
//   softmax-run layer_norm.mlir --rows 4096 --cols 4096 --param eps=1e-5 --reference layer_norm --check

func.func @layer_norm(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                      %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                      %weight: !blk.ptr<f32> {blk.arg = #blk.arg<input "weight", per_col>, blk.divisibility = 16 : i64},
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

  %sum = blk.reduce sum %x_block axis 0 : tensor<?xf32> -> f32
  %mean = arith.divf %sum, %n_float : f32
  %mean_block = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>
  %difference = arith.subf %x_block, %mean_block : tensor<?xf32>
  %centered = arith.select %in_bounds, %difference, %zeros
      : tensor<?xi1>, tensor<?xf32>
  %squares = arith.mulf %centered, %centered : tensor<?xf32>
  %square_sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %variance = arith.divf %square_sum, %n_float : f32
  %shifted = arith.addf %variance, %eps : f32
  %rstd = math.rsqrt %shifted : f32
  %rstd_block = blk.splat %rstd [BLOCK] : f32 -> tensor<?xf32>
  // Read after the reductions: not live in registers across them.
  %w_block = blk.load %weight[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %normed = arith.mulf %centered, %rstd_block : tensor<?xf32>
  %scaled = arith.mulf %normed, %w_block : tensor<?xf32>
  %y_block = arith.addf %scaled, %zeros : tensor<?xf32>

  %y_start = arith.muli %row, %y_row_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %y_block mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
