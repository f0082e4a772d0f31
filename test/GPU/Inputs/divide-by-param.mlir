// Each row divided by an integer parameter: with divisor=0 the float64
// reference reports the fault at the op, before any code runs.
func.func @divide(%y: !blk.ptr<i32> {blk.arg = #blk.arg<output "y">},
                  %x: !blk.ptr<i32> {blk.arg = #blk.arg<input "x">},
                  %divisor: i32 {blk.arg = #blk.arg<param "divisor">},
                  %x_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                  %y_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                  %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %x_start = arith.muli %row, %x_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<i32>, i32
  %v = blk.load %x_row[%cols] mask %in_row : !blk.ptr<i32>, tensor<?xi32> -> tensor<?xi32>
  %d = blk.splat %divisor [BLOCK] : i32 -> tensor<?xi32>
  %q = arith.divsi %v, %d : tensor<?xi32>
  %y_start = arith.muli %row, %y_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<i32>, i32
  blk.store %y_row[%cols], %q mask %in_row : !blk.ptr<i32>, tensor<?xi32>, tensor<?xi32>
  return
}
