// GELU, tanh form: y = x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))).
// No kernel kind has it: --check runs the program in float64.
func.func @gelu(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                %x_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                %y_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %x_start = arith.muli %row, %x_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<f32>, i32
  %v = blk.load %x_row[%cols] mask %in_row : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %c_half = arith.constant 0.5 : f32
  %c_one = arith.constant 1.0 : f32
  %c_k = arith.constant 0.7978845608 : f32
  %c_cubic = arith.constant 0.044715 : f32
  %half = blk.splat %c_half [BLOCK] : f32 -> tensor<?xf32>
  %one = blk.splat %c_one [BLOCK] : f32 -> tensor<?xf32>
  %k = blk.splat %c_k [BLOCK] : f32 -> tensor<?xf32>
  %cubic = blk.splat %c_cubic [BLOCK] : f32 -> tensor<?xf32>
  %x2 = arith.mulf %v, %v : tensor<?xf32>
  %x3 = arith.mulf %x2, %v : tensor<?xf32>
  %ax3 = arith.mulf %cubic, %x3 : tensor<?xf32>
  %inner = arith.addf %v, %ax3 : tensor<?xf32>
  %scaled = arith.mulf %k, %inner : tensor<?xf32>
  %t = math.tanh %scaled : tensor<?xf32>
  %onet = arith.addf %one, %t : tensor<?xf32>
  %hx = arith.mulf %half, %v : tensor<?xf32>
  %out = arith.mulf %hx, %onet : tensor<?xf32>
  %y_start = arith.muli %row, %y_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %out mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
