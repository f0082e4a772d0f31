// C = A B for square matrices, the simplest product: M = N = K, every
// tensor a rows x cols matrix and the K loop running up to cols
// (python-free-examples/matmul.mlir names M, N and K). A
// program computes ROWS rows of C across the whole row (BLOCK >= N); its K
// loop brings 16 columns of A and 16 rows of B at a time into blk.dot.
// Masked edges: any N.
func.func @matmul_square(%c: !blk.ptr<f32> {blk.arg = #blk.arg<output "c">, blk.divisibility = 16 : i64},
                         %a: !blk.ptr<f32> {blk.arg = #blk.arg<input "a">, blk.divisibility = 16 : i64},
                         %b: !blk.ptr<f32> {blk.arg = #blk.arg<input "b">, blk.divisibility = 16 : i64},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK, rows_per_program = ROWS>} {
  %pid = blk.program_id x
  %rows_per_program = blk.constexpr ROWS : i32
  %first_row = arith.muli %pid, %rows_per_program : i32
  %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
  %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
  %rows = arith.addi %local_rows, %first : tensor<?xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %n_rows_col = blk.splat %n_rows [ROWS, 1] : i32 -> tensor<?x1xi32>
  %row_ok = arith.cmpi slt, %rows_col, %n_rows_col : tensor<?x1xi32>
  %n_col = blk.splat %n [ROWS, 1] : i32 -> tensor<?x1xi32>
  %row_starts = arith.muli %rows_col, %n_col : tensor<?x1xi32>
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %n_row = blk.splat %n [1, BLOCK] : i32 -> tensor<1x?xi32>
  %col_ok = arith.cmpi slt, %cols_row, %n_row : tensor<1x?xi32>
  // The K indices twice: along A's columns and along B's rows (one block
  // has one layout on the GPU).
  %ks_a = blk.arange 0 to 16 : tensor<16xi32>
  %ks_row = blk.expand_dims %ks_a axis 0 : tensor<16xi32> -> tensor<1x16xi32>
  %ks_b = blk.arange 0 to 16 : tensor<16xi32>
  %ks_col = blk.expand_dims %ks_b axis 1 : tensor<16xi32> -> tensor<16x1xi32>
  %zero = arith.constant 0.0 : f32
  %acc0 = blk.splat %zero [ROWS, BLOCK] : f32 -> tensor<?x?xf32>
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %acc = scf.for %k0 = %c0 to %n step %c16 iter_args(%acc_in = %acc0) -> (tensor<?x?xf32>) : i32 {
    // A[r][k0 + kk], ROWS x 16.
    %k0_row = blk.splat %k0 [1, 16] : i32 -> tensor<1x16xi32>
    %a_cols = arith.addi %ks_row, %k0_row : tensor<1x16xi32>
    %n_16 = blk.splat %n [1, 16] : i32 -> tensor<1x16xi32>
    %a_col_ok = arith.cmpi slt, %a_cols, %n_16 : tensor<1x16xi32>
    %a_col_ok_2d = blk.broadcast %a_col_ok [ROWS, 16] : tensor<1x16xi1> -> tensor<?x16xi1>
    %a_row_ok_2d = blk.broadcast %row_ok [ROWS, 16] : tensor<?x1xi1> -> tensor<?x16xi1>
    %a_mask = arith.andi %a_row_ok_2d, %a_col_ok_2d : tensor<?x16xi1>
    %a_starts = blk.broadcast %row_starts [ROWS, 16] : tensor<?x1xi32> -> tensor<?x16xi32>
    %a_cols_2d = blk.broadcast %a_cols [ROWS, 16] : tensor<1x16xi32> -> tensor<?x16xi32>
    %a_offsets = arith.addi %a_starts, %a_cols_2d : tensor<?x16xi32>
    %a_tile = blk.load %a[%a_offsets] mask %a_mask other %zero : !blk.ptr<f32>, tensor<?x16xi32> -> tensor<?x16xf32>
    // B[k0 + kk][c], 16 x BLOCK.
    %k0_col = blk.splat %k0 [16, 1] : i32 -> tensor<16x1xi32>
    %b_rows = arith.addi %ks_col, %k0_col : tensor<16x1xi32>
    %n_16_col = blk.splat %n [16, 1] : i32 -> tensor<16x1xi32>
    %b_row_ok = arith.cmpi slt, %b_rows, %n_16_col : tensor<16x1xi32>
    %b_row_ok_2d = blk.broadcast %b_row_ok [16, BLOCK] : tensor<16x1xi1> -> tensor<16x?xi1>
    %b_col_ok_2d = blk.broadcast %col_ok [16, BLOCK] : tensor<1x?xi1> -> tensor<16x?xi1>
    %b_mask = arith.andi %b_row_ok_2d, %b_col_ok_2d : tensor<16x?xi1>
    %b_starts = arith.muli %b_rows, %n_16_col : tensor<16x1xi32>
    %b_starts_2d = blk.broadcast %b_starts [16, BLOCK] : tensor<16x1xi32> -> tensor<16x?xi32>
    %b_cols_2d = blk.broadcast %cols_row [16, BLOCK] : tensor<1x?xi32> -> tensor<16x?xi32>
    %b_offsets = arith.addi %b_starts_2d, %b_cols_2d : tensor<16x?xi32>
    %b_tile = blk.load %b[%b_offsets] mask %b_mask other %zero : !blk.ptr<f32>, tensor<16x?xi32> -> tensor<16x?xf32>
    %next = blk.dot %a_tile, %b_tile, %acc_in : tensor<?x16xf32>, tensor<16x?xf32>, tensor<?x?xf32>
    scf.yield %next : tensor<?x?xf32>
  }
  %c_starts = blk.broadcast %row_starts [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  %c_cols = blk.broadcast %cols_row [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<?x?xi32>
  %c_row_ok = blk.broadcast %row_ok [ROWS, BLOCK] : tensor<?x1xi1> -> tensor<?x?xi1>
  %c_col_ok = blk.broadcast %col_ok [ROWS, BLOCK] : tensor<1x?xi1> -> tensor<?x?xi1>
  %c_mask = arith.andi %c_row_ok, %c_col_ok : tensor<?x?xi1>
  blk.store %c[%c_offsets], %acc mask %c_mask : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
  return
}
