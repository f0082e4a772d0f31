// softmax_fused with the max, exp(x - max) and its sum written as one
// blk.max_exp_sum (what blk-combine-reductions makes of the two reductions
// where they cross warps): the op as a user writes it, on any binding.
// Input of test/Runtime/max-exp-sum.mlir (CPU) and test/GPU/max-exp-sum.mlir.

func.func @softmax_max_exp_sum(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                         %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                         %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                         %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %in_start = arith.muli %row, %in_row_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32

  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>

  %max, %den, %num = blk.max_exp_sum %x axis 0
      : tensor<?xf32> -> f32, f32, tensor<?xf32>
  %den_block = blk.splat %den [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.divf %num, %den_block : tensor<?xf32>

  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
