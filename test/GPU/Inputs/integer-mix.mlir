// Integer arithmetic whose results wrap and whose signedness matters, on an
// int32 matrix: a multiplicative hash (wraps past 2^31), both right shifts
// of a negative value, a signed remainder of a negative value, an unsigned
// comparison and the signed maximum of a row. The float64 reference must
// agree with the compiled kernel bit for bit.
func.func @integer_mix(%y: !blk.ptr<i32> {blk.arg = #blk.arg<output "y">},
                       %row_max: !blk.ptr<i32> {blk.arg = #blk.arg<output "row_max", per_row>},
                       %x: !blk.ptr<i32> {blk.arg = #blk.arg<input "x">},
                       %x_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                       %y_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                       %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0 : i32
  %x_start = arith.muli %row, %x_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<i32>, i32
  %v = blk.load %x_row[%cols] mask %in_row other %zero
      : !blk.ptr<i32>, tensor<?xi32> -> tensor<?xi32>
  %c_golden = arith.constant -1640531535 : i32
  %c_half = arith.constant 500 : i32
  %c_three = arith.constant 3 : i32
  %c_seven = arith.constant 7 : i32
  %golden = blk.splat %c_golden [BLOCK] : i32 -> tensor<?xi32>
  %half = blk.splat %c_half [BLOCK] : i32 -> tensor<?xi32>
  %three = blk.splat %c_three [BLOCK] : i32 -> tensor<?xi32>
  %seven = blk.splat %c_seven [BLOCK] : i32 -> tensor<?xi32>
  %centered = arith.subi %v, %half : tensor<?xi32>
  %hash = arith.muli %centered, %golden : tensor<?xi32>
  %arith_shift = arith.shrsi %hash, %three : tensor<?xi32>
  %logic_shift = arith.shrui %hash, %three : tensor<?xi32>
  %mixed = arith.xori %arith_shift, %logic_shift : tensor<?xi32>
  %rem = arith.remsi %centered, %seven : tensor<?xi32>
  %above = arith.cmpi ugt, %hash, %golden : tensor<?xi32>
  %picked = arith.select %above, %mixed, %rem : tensor<?xi1>, tensor<?xi32>
  %y_start = arith.muli %row, %y_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<i32>, i32
  blk.store %y_row[%cols], %picked mask %in_row
      : !blk.ptr<i32>, tensor<?xi32>, tensor<?xi32>
  %c_min = arith.constant -2147483648 : i32
  %min = blk.splat %c_min [BLOCK] : i32 -> tensor<?xi32>
  %candidates = arith.select %in_row, %hash, %min : tensor<?xi1>, tensor<?xi32>
  %largest = blk.reduce max %candidates axis 0 : tensor<?xi32> -> i32
  %at = blk.splat %row : i32 -> tensor<1xi32>
  %largest1 = blk.splat %largest : i32 -> tensor<1xi32>
  blk.store %row_max[%at], %largest1 : !blk.ptr<i32>, tensor<1xi32>, tensor<1xi32>
  return
}
