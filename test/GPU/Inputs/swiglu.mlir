// SwiGLU's gate: y = silu(gate) * up, silu(g) = g / (1 + exp(-g)); two
// matrix inputs, computed in f32 from 16-bit data.
func.func @swiglu(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                  %gate: !blk.ptr<f32> {blk.arg = #blk.arg<input "gate">},
                  %up: !blk.ptr<f32> {blk.arg = #blk.arg<input "up">},
                  %gate_stride: i32 {blk.arg = #blk.arg<row_stride "gate">},
                  %up_stride: i32 {blk.arg = #blk.arg<row_stride "up">},
                  %y_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                  %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %g_start = arith.muli %row, %gate_stride : i32
  %g_row = blk.addptr %gate, %g_start : !blk.ptr<f32>, i32
  %g = blk.load %g_row[%cols] mask %in_row : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %u_start = arith.muli %row, %up_stride : i32
  %u_row = blk.addptr %up, %u_start : !blk.ptr<f32>, i32
  %u = blk.load %u_row[%cols] mask %in_row : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %c_one = arith.constant 1.0 : f32
  %one = blk.splat %c_one [BLOCK] : f32 -> tensor<?xf32>
  %neg = arith.negf %g : tensor<?xf32>
  %e = math.exp %neg : tensor<?xf32>
  %den = arith.addf %one, %e : tensor<?xf32>
  %silu = arith.divf %g, %den : tensor<?xf32>
  %out = arith.mulf %silu, %u : tensor<?xf32>
  %y_start = arith.muli %row, %y_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %out mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
