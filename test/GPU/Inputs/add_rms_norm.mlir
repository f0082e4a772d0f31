// A residual add fused with RMSNorm, as a transformer block ends:
// h = x + residual (written: the next block's residual), y = h *
// rsqrt(mean(h^2) + eps) * weight. Two matrix inputs, a per-column weight,
// two outputs.
func.func @add_rms_norm(%h: !blk.ptr<f32> {blk.arg = #blk.arg<output "h">},
                        %y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                        %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                        %residual: !blk.ptr<f32> {blk.arg = #blk.arg<input "residual">},
                        %weight: !blk.ptr<f32> {blk.arg = #blk.arg<input "weight", per_col>},
                        %eps: f32 {blk.arg = #blk.arg<param "eps">},
                        %x_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                        %residual_stride: i32 {blk.arg = #blk.arg<row_stride "residual">},
                        %h_stride: i32 {blk.arg = #blk.arg<row_stride "h">},
                        %y_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32

  %x_start = arith.muli %row, %x_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<f32>, i32
  %x_block = blk.load %x_row[%cols] mask %in_row other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %r_start = arith.muli %row, %residual_stride : i32
  %r_row = blk.addptr %residual, %r_start : !blk.ptr<f32>, i32
  %r_block = blk.load %r_row[%cols] mask %in_row other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sum_block = arith.addf %x_block, %r_block : tensor<?xf32>
  %h_start = arith.muli %row, %h_stride : i32
  %h_row = blk.addptr %h, %h_start : !blk.ptr<f32>, i32
  blk.store %h_row[%cols], %sum_block mask %in_row
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>

  %squares = arith.mulf %sum_block, %sum_block : tensor<?xf32>
  %total = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %n_float = arith.sitofp %n_cols : i32 to f32
  %mean = arith.divf %total, %n_float : f32
  %shifted = arith.addf %mean, %eps : f32
  %rstd = math.rsqrt %shifted : f32
  %rstd_block = blk.splat %rstd [BLOCK] : f32 -> tensor<?xf32>
  %w_block = blk.load %weight[%cols] mask %in_row other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %normed = arith.mulf %sum_block, %rstd_block : tensor<?xf32>
  %y_block = arith.mulf %normed, %w_block : tensor<?xf32>
  %y_start = arith.muli %row, %y_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %y_block mask %in_row
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
