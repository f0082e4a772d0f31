// softmax_multirow with each row's max, exps and their sum written as one
// blk.max_exp_sum along axis 1 (2-D: a row's partials cross lanes, and
// warps where a row spans several). Input of test/Runtime/max-exp-sum.mlir
// (CPU) and test/GPU/max-exp-sum.mlir.

func.func @softmax_rows_max_exp_sum(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                            %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                            %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                            %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                            %n_rows: i32 {blk.arg = #blk.arg<rows>},
                            %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK, rows_per_program = ROWS>} {
  %pid = blk.program_id x
  %rows_per_program = blk.constexpr ROWS : i32
  %first_row = arith.muli %pid, %rows_per_program : i32
  // The program's first row is reached with blk.addptr: first_row * stride
  // grows with the tensor, and a scalar offset can be made 64-bit
  // (blk-widen-offsets) where an element of an offsets block stays 32-bit.
  // The offsets blocks then only span the program's ROWS rows.
  %in_first = arith.muli %first_row, %in_row_stride : i32
  %in_rows = blk.addptr %in, %in_first : !blk.ptr<f32>, i32
  %out_first = arith.muli %first_row, %out_row_stride : i32
  %out_rows = blk.addptr %out, %out_first : !blk.ptr<f32>, i32

  // Row indices (ROWS) and column indices (BLOCK), then their 2-D grids.
  %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
  %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
  %rows = arith.addi %local_rows, %first : tensor<?xi32>
  %n_rows_b = blk.splat %n_rows [ROWS] : i32 -> tensor<?xi32>
  %row_ok = arith.cmpi slt, %rows, %n_rows_b : tensor<?xi32>
  %local_rows_col = blk.expand_dims %local_rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %row_ok_col = blk.expand_dims %row_ok axis 1 : tensor<?xi1> -> tensor<?x1xi1>
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %cols_2d = blk.broadcast %cols_row [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>

  %n_cols_b = blk.splat %n_cols [ROWS, BLOCK] : i32 -> tensor<?x?xi32>
  %col_ok = arith.cmpi slt, %cols_2d, %n_cols_b : tensor<?x?xi32>
  %row_ok_2d = blk.broadcast %row_ok_col [ROWS, BLOCK] : tensor<?x1xi1> -> tensor<?x?xi1>
  %mask = arith.andi %row_ok_2d, %col_ok : tensor<?x?xi1>

  // x[first_row + r][c] at in_rows + r * in_row_stride + c.
  %in_stride = blk.splat %in_row_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %in_starts = arith.muli %local_rows_col, %in_stride : tensor<?x1xi32>
  %in_starts_2d = blk.broadcast %in_starts [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  %in_offsets = arith.addi %in_starts_2d, %cols_2d : tensor<?x?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %x = blk.load %in_rows[%in_offsets] mask %mask other %ninf
      : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>

  %max, %den, %num = blk.max_exp_sum %x axis 1
      : tensor<?x?xf32> -> tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>
  %den_col = blk.expand_dims %den axis 1 : tensor<?xf32> -> tensor<?x1xf32>
  %den_2d = blk.broadcast %den_col [ROWS, BLOCK] : tensor<?x1xf32> -> tensor<?x?xf32>
  %y = arith.divf %num, %den_2d : tensor<?x?xf32>

  %out_stride = blk.splat %out_row_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %out_starts = arith.muli %local_rows_col, %out_stride : tensor<?x1xi32>
  %out_starts_2d = blk.broadcast %out_starts [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  %out_offsets = arith.addi %out_starts_2d, %cols_2d : tensor<?x?xi32>
  blk.store %out_rows[%out_offsets], %y mask %mask
      : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
  return
}
