// C = A B, A of M x K, B of K x N, C of M x N (rows, cols and inner), each
// with its own row stride: the tiled matmul as Triton's tutorial writes it.
// Program p computes a ROWS x BLOCK tile of C; its K loop brings a ROWS x KT
// tile of A and a KT x BLOCK tile of B to blk.dot at a time, accumulating in
// f32. Tiles go in groups of GROUP_ROWS tile rows, column by column inside a
// group, so that programs running together share their A and B tiles in L2.
// Edges are masked in M, N and K (zeros in A and B): any sizes. The binding
// rules choose the tile (Binding.h, "product rules"); --const overrides them.
//
//   softmax-run matmul.mlir --rows 4096 --cols 4096 --inner 4096 --dtype bf16 --check --bench

func.func @matmul(%c: !blk.ptr<f32> {blk.arg = #blk.arg<output "c">, blk.divisibility = 16 : i64},
                  %a: !blk.ptr<f32> {blk.arg = #blk.arg<input "a", rows_by_inner>, blk.divisibility = 16 : i64},
                  %b: !blk.ptr<f32> {blk.arg = #blk.arg<input "b", inner_by_cols>, blk.divisibility = 16 : i64},
                  %a_stride: i32 {blk.arg = #blk.arg<row_stride "a">},
                  %b_stride: i32 {blk.arg = #blk.arg<row_stride "b">},
                  %c_stride: i32 {blk.arg = #blk.arg<row_stride "c">},
                  %m: i32 {blk.arg = #blk.arg<rows>},
                  %n: i32 {blk.arg = #blk.arg<cols>},
                  %k: i32 {blk.arg = #blk.arg<inner>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK, rows_per_program = ROWS, row_splits = SPLITS, inner_block = KT>} {
  // Which tile: programs p of a group of GROUP_ROWS tile rows x SPLITS tile
  // columns walk down the group's rows first.
  %pid = blk.program_id x
  %splits = blk.constexpr SPLITS : i32
  %tile_rows = blk.constexpr ROWS : i32
  %block = blk.constexpr BLOCK : i32
  %one = arith.constant 1 : i32
  %group_rows = arith.constant 8 : i32
  %m_last = arith.subi %m, %one : i32
  %m_up = arith.addi %m_last, %tile_rows : i32
  %row_tiles = arith.divui %m_up, %tile_rows : i32
  %group_tiles = arith.muli %group_rows, %splits : i32
  %group = arith.divui %pid, %group_tiles : i32
  %group_first = arith.muli %group, %group_rows : i32
  %rows_left = arith.subi %row_tiles, %group_first : i32
  %group_size = arith.minsi %rows_left, %group_rows : i32
  %in_group = arith.remui %pid, %group_tiles : i32
  %row_in_group = arith.remui %in_group, %group_size : i32
  %tile_m = arith.addi %group_first, %row_in_group : i32
  %tile_n = arith.divui %in_group, %group_size : i32
  %first_row = arith.muli %tile_m, %tile_rows : i32
  %first_col = arith.muli %tile_n, %block : i32

  // Rows of the tile (ROWS x 1) and columns (1 x BLOCK), with their masks.
  %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
  %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
  %rows = arith.addi %local_rows, %first : tensor<?xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %m_col = blk.splat %m [ROWS, 1] : i32 -> tensor<?x1xi32>
  %row_ok = arith.cmpi slt, %rows_col, %m_col : tensor<?x1xi32>
  %local_cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %first_cols = blk.splat %first_col [BLOCK] : i32 -> tensor<?xi32>
  %cols = arith.addi %local_cols, %first_cols : tensor<?xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %n_row = blk.splat %n [1, BLOCK] : i32 -> tensor<1x?xi32>
  %col_ok = arith.cmpi slt, %cols_row, %n_row : tensor<1x?xi32>
  %a_stride_col = blk.splat %a_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %a_row_starts = arith.muli %rows_col, %a_stride_col : tensor<?x1xi32>
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
  %acc = scf.for %k0 = %c0 to %k step %k_step iter_args(%acc_in = %acc0) -> (tensor<?x?xf32>) : i32 {
    // A[r][k0 + kk], ROWS x KT.
    %k0_row = blk.splat %k0 [1, KT] : i32 -> tensor<1x?xi32>
    %a_cols = arith.addi %ks_row, %k0_row : tensor<1x?xi32>
    %k_row = blk.splat %k [1, KT] : i32 -> tensor<1x?xi32>
    %a_col_ok = arith.cmpi slt, %a_cols, %k_row : tensor<1x?xi32>
    %a_col_ok_2d = blk.broadcast %a_col_ok [ROWS, KT] : tensor<1x?xi1> -> tensor<?x?xi1>
    %a_row_ok_2d = blk.broadcast %row_ok [ROWS, KT] : tensor<?x1xi1> -> tensor<?x?xi1>
    %a_mask = arith.andi %a_row_ok_2d, %a_col_ok_2d : tensor<?x?xi1>
    %a_starts = blk.broadcast %a_row_starts [ROWS, KT] : tensor<?x1xi32> -> tensor<?x?xi32>
    %a_cols_2d = blk.broadcast %a_cols [ROWS, KT] : tensor<1x?xi32> -> tensor<?x?xi32>
    %a_offsets = arith.addi %a_starts, %a_cols_2d : tensor<?x?xi32>
    %a_tile = blk.load %a[%a_offsets] mask %a_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    // B[k0 + kk][c], KT x BLOCK.
    %k0_col = blk.splat %k0 [KT, 1] : i32 -> tensor<?x1xi32>
    %b_rows = arith.addi %ks_col, %k0_col : tensor<?x1xi32>
    %k_col = blk.splat %k [KT, 1] : i32 -> tensor<?x1xi32>
    %b_row_ok = arith.cmpi slt, %b_rows, %k_col : tensor<?x1xi32>
    %b_row_ok_2d = blk.broadcast %b_row_ok [KT, BLOCK] : tensor<?x1xi1> -> tensor<?x?xi1>
    %b_col_ok_2d = blk.broadcast %col_ok [KT, BLOCK] : tensor<1x?xi1> -> tensor<?x?xi1>
    %b_mask = arith.andi %b_row_ok_2d, %b_col_ok_2d : tensor<?x?xi1>
    %b_stride_col = blk.splat %b_stride [KT, 1] : i32 -> tensor<?x1xi32>
    %b_starts = arith.muli %b_rows, %b_stride_col : tensor<?x1xi32>
    %b_starts_2d = blk.broadcast %b_starts [KT, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
    %b_cols_2d = blk.broadcast %cols_row [KT, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
    %b_offsets = arith.addi %b_starts_2d, %b_cols_2d : tensor<?x?xi32>
    %b_tile = blk.load %b[%b_offsets] mask %b_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %next = blk.dot %a_tile, %b_tile, %acc_in : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
    scf.yield %next : tensor<?x?xf32>
  }
  %c_stride_col = blk.splat %c_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %c_row_starts = arith.muli %rows_col, %c_stride_col : tensor<?x1xi32>
  %c_starts = blk.broadcast %c_row_starts [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  %c_cols = blk.broadcast %cols_row [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<?x?xi32>
  %c_row_ok = blk.broadcast %row_ok [ROWS, BLOCK] : tensor<?x1xi1> -> tensor<?x?xi1>
  %c_col_ok = blk.broadcast %col_ok [ROWS, BLOCK] : tensor<1x?xi1> -> tensor<?x?xi1>
  %c_mask = arith.andi %c_row_ok, %c_col_ok : tensor<?x?xi1>
  blk.store %c[%c_offsets], %acc mask %c_mask : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
  return
}
