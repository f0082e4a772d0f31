// The first column of each row's largest value, an int32 per row: the max,
// then the least column that holds it (a row whose max is NaN matches no
// column and gets n_cols, as the program says).
func.func @argmax(%index: !blk.ptr<i32> {blk.arg = #blk.arg<output "index", per_row>},
                  %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                  %x_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                  %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %x_start = arith.muli %row, %x_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<f32>, i32
  %v = blk.load %x_row[%cols] mask %in_row other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %max = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %holds = arith.cmpf oeq, %v, %max_block : tensor<?xf32>
  %holds_in_row = arith.andi %holds, %in_row : tensor<?xi1>
  %candidates = arith.select %holds_in_row, %cols, %n : tensor<?xi1>, tensor<?xi32>
  %first = blk.reduce min %candidates axis 0 : tensor<?xi32> -> i32
  %at = blk.splat %row : i32 -> tensor<1xi32>
  %value = blk.splat %first : i32 -> tensor<1xi32>
  blk.store %index[%at], %value : !blk.ptr<i32>, tensor<1xi32>, tensor<1xi32>
  return
}
