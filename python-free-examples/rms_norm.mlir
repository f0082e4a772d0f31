// RMSNorm forward, fused: one program per row, the row held in registers.
// y = x * rsqrt(mean(x^2) + eps) * weight, torch's rms_norm (and Liger's,
// QuACK's): the mean of squares is one row-wide sum, computed in f32 from
// f32, f16 or bf16 data; weight is one element per column, read by every
// row (it stays in L2). math.rsqrt is rsqrt.approx on the GPU (relative
// error below 2^-22). A NaN in a row makes the row NaN; an infinity makes
// the mean infinite, so the row is 0 and NaN where the infinity was, as in
// torch.
//
//   softmax-run rms_norm.mlir --rows 4096 --cols 4096 --param eps=1e-6 --reference rms_norm --check

func.func @rms_norm(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
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

  %x_start = arith.muli %row, %x_row_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<f32>, i32
  %x_block = blk.load %x_row[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>

  %squares = arith.mulf %x_block, %x_block : tensor<?xf32>
  %sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %n_float = arith.sitofp %n_cols : i32 to f32
  %mean_square = arith.divf %sum, %n_float : f32
  %shifted = arith.addf %mean_square, %eps : f32
  %rstd = math.rsqrt %shifted : f32
  %rstd_block = blk.splat %rstd [BLOCK] : f32 -> tensor<?xf32>
  // Read after the reductions: not live in registers across them.
  %w_block = blk.load %weight[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %normed = arith.mulf %x_block, %rstd_block : tensor<?xf32>
  %y_block = arith.mulf %normed, %w_block : tensor<?xf32>

  %y_start = arith.muli %row, %y_row_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %y_block mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
