// y = sin(x): the CPU runs math.sin (MLIR's polynomial) and the float64
// reference checks it; the GPU lowering has no sin yet and refuses it,
// located, naming the math ops it has.
func.func @sine(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %start = arith.muli %row, %n_cols : i32
  %x_row = blk.addptr %x, %start : !blk.ptr<f32>, i32
  %v = blk.load %x_row[%cols] mask %in_row : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %s = math.sin %v : tensor<?xf32>
  %y_row = blk.addptr %y, %start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %s mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
