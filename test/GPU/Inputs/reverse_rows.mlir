// y[r][c] = x[r][n - 1 - c]: every row reversed, ROWS rows a program. The
// load reads runs of consecutive columns; the store's columns run
// backwards, which no vector store moves. The blk.convert_layout between
// them lays the two out apart: the load keeps its 16-byte runs, the store
// gets a layout of its own, and on the GPU the block passes through shared
// memory between them. No kernel kind has it: --check runs the program in
// float64.
func.func @reverse_rows(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                        %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                        %x_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                        %y_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                        %m: i32 {blk.arg = #blk.arg<rows>},
                        %n: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK, rows_per_program = ROWS>} {
  %pid = blk.program_id x
  %tile_rows = blk.constexpr ROWS : i32
  %first_row = arith.muli %pid, %tile_rows : i32
  %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
  %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
  %rows = arith.addi %local_rows, %first : tensor<?xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %m_col = blk.splat %m [ROWS, 1] : i32 -> tensor<?x1xi32>
  %row_ok = arith.cmpi slt, %rows_col, %m_col : tensor<?x1xi32>
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %n_row = blk.splat %n [1, BLOCK] : i32 -> tensor<1x?xi32>
  %col_ok = arith.cmpi slt, %cols_row, %n_row : tensor<1x?xi32>
  %row_ok_2d = blk.broadcast %row_ok [ROWS, BLOCK] : tensor<?x1xi1> -> tensor<?x?xi1>
  %col_ok_2d = blk.broadcast %col_ok [ROWS, BLOCK] : tensor<1x?xi1> -> tensor<?x?xi1>
  %mask = arith.andi %row_ok_2d, %col_ok_2d : tensor<?x?xi1>
  %x_stride_col = blk.splat %x_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %x_starts = arith.muli %rows_col, %x_stride_col : tensor<?x1xi32>
  %x_starts_2d = blk.broadcast %x_starts [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  %cols_2d = blk.broadcast %cols_row [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
  %x_offsets = arith.addi %x_starts_2d, %cols_2d : tensor<?x?xi32>
  %zero = arith.constant 0.0 : f32
  %v = blk.load %x[%x_offsets] mask %mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
  %w = blk.convert_layout %v : tensor<?x?xf32> -> tensor<?x?xf32>
  // Column n - 1 - c of y.
  %one = arith.constant 1 : i32
  %last = arith.subi %n, %one : i32
  %last_row = blk.splat %last [1, BLOCK] : i32 -> tensor<1x?xi32>
  %reversed = arith.subi %last_row, %cols_row : tensor<1x?xi32>
  %reversed_2d = blk.broadcast %reversed [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
  %y_stride_col = blk.splat %y_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %y_starts = arith.muli %rows_col, %y_stride_col : tensor<?x1xi32>
  %y_starts_2d = blk.broadcast %y_starts [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  %y_offsets = arith.addi %y_starts_2d, %reversed_2d : tensor<?x?xi32>
  blk.store %y[%y_offsets], %w mask %mask : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
  return
}
