// A square tiled matmul (C = A B, M = N = K: its K loop runs up to cols; a
// ROWS x BLOCK tile of C a program) with a reduction across the program's
// warps after the K loop: the sum of its
// tile, added to C times zero. The reduction's buffer is static shared
// memory, so the dot's dynamic shared memory starts after it, where its
// declared alignment need not hold; the wgmma path's 1024-byte-aligned
// regions are rounded up at run time (createDynamicSharedStart), which
// test/GPU/dot.mlir checks with this program on sm_90a. Not for
// --special: zero times an infinite sum is NaN.
func.func @matmul_tiled(%c: !blk.ptr<f32> {blk.arg = #blk.arg<output "c">, blk.divisibility = 16 : i64},
                        %a: !blk.ptr<f32> {blk.arg = #blk.arg<input "a">, blk.divisibility = 16 : i64},
                        %b: !blk.ptr<f32> {blk.arg = #blk.arg<input "b">, blk.divisibility = 16 : i64},
                        %n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK, rows_per_program = ROWS, row_splits = SPLITS>} {
  %pid = blk.program_id x
  %splits = blk.constexpr SPLITS : i32
  %rows_per_program = blk.constexpr ROWS : i32
  %block = blk.constexpr BLOCK : i32
  %tile_m = arith.divui %pid, %splits : i32
  %tile_n = arith.remui %pid, %splits : i32
  %first_row = arith.muli %tile_m, %rows_per_program : i32
  %first_col = arith.muli %tile_n, %block : i32
  // Rows of the tile (ROWS x 1) and columns (1 x BLOCK), with their masks.
  %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
  %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
  %rows = arith.addi %local_rows, %first : tensor<?xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %n_rows_col = blk.splat %n_rows [ROWS, 1] : i32 -> tensor<?x1xi32>
  %row_ok = arith.cmpi slt, %rows_col, %n_rows_col : tensor<?x1xi32>
  %n_col = blk.splat %n [ROWS, 1] : i32 -> tensor<?x1xi32>
  %row_starts = arith.muli %rows_col, %n_col : tensor<?x1xi32>
  %local_cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %first_cols = blk.splat %first_col [BLOCK] : i32 -> tensor<?xi32>
  %cols = arith.addi %local_cols, %first_cols : tensor<?xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %n_row = blk.splat %n [1, BLOCK] : i32 -> tensor<1x?xi32>
  %col_ok = arith.cmpi slt, %cols_row, %n_row : tensor<1x?xi32>
  // The K indices twice: along A's columns and along B's rows (one block
  // has one layout on the GPU).
  %ks_a = blk.arange 0 to KT : tensor<?xi32>
  %ks_row = blk.expand_dims %ks_a axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %ks_b = blk.arange 0 to KT : tensor<?xi32>
  %ks_col = blk.expand_dims %ks_b axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %zero = arith.constant 0.0 : f32
  %acc0 = blk.splat %zero [ROWS, BLOCK] : f32 -> tensor<?x?xf32>
  %c0 = arith.constant 0 : i32
  %k_step = blk.constexpr KT : i32
  %acc = scf.for %k0 = %c0 to %n step %k_step iter_args(%acc_in = %acc0) -> (tensor<?x?xf32>) : i32 {
    // A[r][k0 + kk], ROWS x KT.
    %k0_row = blk.splat %k0 [1, KT] : i32 -> tensor<1x?xi32>
    %a_cols = arith.addi %ks_row, %k0_row : tensor<1x?xi32>
    %n_kt = blk.splat %n [1, KT] : i32 -> tensor<1x?xi32>
    %a_col_ok = arith.cmpi slt, %a_cols, %n_kt : tensor<1x?xi32>
    %a_col_ok_2d = blk.broadcast %a_col_ok [ROWS, KT] : tensor<1x?xi1> -> tensor<?x?xi1>
    %a_row_ok_2d = blk.broadcast %row_ok [ROWS, KT] : tensor<?x1xi1> -> tensor<?x?xi1>
    %a_mask = arith.andi %a_row_ok_2d, %a_col_ok_2d : tensor<?x?xi1>
    %a_starts = blk.broadcast %row_starts [ROWS, KT] : tensor<?x1xi32> -> tensor<?x?xi32>
    %a_cols_2d = blk.broadcast %a_cols [ROWS, KT] : tensor<1x?xi32> -> tensor<?x?xi32>
    %a_offsets = arith.addi %a_starts, %a_cols_2d : tensor<?x?xi32>
    %a_tile = blk.load %a[%a_offsets] mask %a_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    // B[k0 + kk][c], KT x BLOCK.
    %k0_col = blk.splat %k0 [KT, 1] : i32 -> tensor<?x1xi32>
    %b_rows = arith.addi %ks_col, %k0_col : tensor<?x1xi32>
    %n_kt_col = blk.splat %n [KT, 1] : i32 -> tensor<?x1xi32>
    %b_row_ok = arith.cmpi slt, %b_rows, %n_kt_col : tensor<?x1xi32>
    %b_row_ok_2d = blk.broadcast %b_row_ok [KT, BLOCK] : tensor<?x1xi1> -> tensor<?x?xi1>
    %b_col_ok_2d = blk.broadcast %col_ok [KT, BLOCK] : tensor<1x?xi1> -> tensor<?x?xi1>
    %b_mask = arith.andi %b_row_ok_2d, %b_col_ok_2d : tensor<?x?xi1>
    %b_starts = arith.muli %b_rows, %n_kt_col : tensor<?x1xi32>
    %b_starts_2d = blk.broadcast %b_starts [KT, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
    %b_cols_2d = blk.broadcast %cols_row [KT, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
    %b_offsets = arith.addi %b_starts_2d, %b_cols_2d : tensor<?x?xi32>
    %b_tile = blk.load %b[%b_offsets] mask %b_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %next = blk.dot %a_tile, %b_tile, %acc_in : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
    scf.yield %next : tensor<?x?xf32>
  }
  %rowsum = blk.reduce sum %acc axis 1 : tensor<?x?xf32> -> tensor<?xf32>
  %total = blk.reduce sum %rowsum axis 0 : tensor<?xf32> -> f32
  %tz = arith.mulf %total, %zero : f32
  %tzb = blk.splat %tz [ROWS, BLOCK] : f32 -> tensor<?x?xf32>
  %acc_out = arith.addf %acc, %tzb : tensor<?x?xf32>
  %c_starts = blk.broadcast %row_starts [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  %c_cols = blk.broadcast %cols_row [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<?x?xi32>
  %c_row_ok = blk.broadcast %row_ok [ROWS, BLOCK] : tensor<?x1xi1> -> tensor<?x?xi1>
  %c_col_ok = blk.broadcast %col_ok [ROWS, BLOCK] : tensor<1x?xi1> -> tensor<?x?xi1>
  %c_mask = arith.andi %c_row_ok, %c_col_ok : tensor<?x?xi1>
  blk.store %c[%c_offsets], %acc_out mask %c_mask : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
  return
}
