// A yardstick, not a kernel of the family: each program reads one row and
// writes its sum, the least a read-only row kernel does (cross_entropy reads
// its row the same way, then makes two reductions and a label gather).
// bench/rowwise.py --kernels row_sum times it beside torch's x.sum(-1), so
// that a read-only kernel's % of a same-size copy (a copy reads half the
// bytes and writes the other half) has something to be compared with.
func.func @row_sum(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                   %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                   %stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                   %n_rows: i32 {blk.arg = #blk.arg<rows>},
                   %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %start = arith.muli %row, %stride : i32
  %row_ptr = blk.addptr %x, %start : !blk.ptr<f32>, i32
  %v = blk.load %row_ptr[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sum = blk.reduce sum %v axis 0 : tensor<?xf32> -> f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %sum_block = blk.splat %sum [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %sum_block : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
