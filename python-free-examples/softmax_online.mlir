// Online softmax, two passes over column tiles: seed 001's
// `kernel_softmax_online` (Milakov & Gimelshein 2018), in the blk dialect.
//
// Pass 1 keeps, per lane of the tile, a running max m and a running sum s of
// exp(x - m); when the max grows, the sum is rescaled by exp(m_old - m_new).
// The lanes are then combined into the row's max M and sum S. Pass 2 writes
// exp(x - M) / S. Traffic: two reads and one write, 3 * n_cols *
// sizeof(f32) per row, against four for the tiled kernel: the better choice
// for rows too long to keep on chip.
//
// A lane whose running max is still -inf (masked tail lanes, or a row of
// -inf so far) uses 0 as its shift, so exp(-inf - -inf) = NaN never enters a
// sum; a row that is -inf everywhere still gives NaN, as torch.softmax does.
//
//   softmax-opt softmax_online.mlir --blk-specialize="BLOCK=4096"
// Launch: one program per row (grid = n_rows).

func.func @softmax_online(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                          %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                          %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                          %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                          %n_rows: i32 {blk.arg = #blk.arg<rows>},
                          %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, row_block = BLOCK>} {
  %row = blk.program_id x
  %in_start = arith.muli %row, %in_row_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32

  %block = blk.constexpr BLOCK : i32
  %c0 = arith.constant 0 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %tile = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %ninf_block = blk.splat %ninf [BLOCK] : f32 -> tensor<?xf32>
  %zero_block = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>

  // Pass 1: running (max, sum) per lane.
  %m, %s = scf.for %start = %c0 to %n_cols step %block
      iter_args(%m_acc = %ninf_block, %s_acc = %zero_block)
      -> (tensor<?xf32>, tensor<?xf32>) : i32 {
    %start_block = blk.splat %start [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %start_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %m_new = arith.maximumf %m_acc, %x : tensor<?xf32>
    %none_yet = arith.cmpf oeq, %m_new, %ninf_block : tensor<?xf32>
    %shift = arith.select %none_yet, %zero_block, %m_new
        : tensor<?xi1>, tensor<?xf32>
    %old = arith.subf %m_acc, %shift : tensor<?xf32>
    %rescale = math.exp %old : tensor<?xf32>
    %scaled = arith.mulf %s_acc, %rescale : tensor<?xf32>
    %cur = arith.subf %x, %shift : tensor<?xf32>
    %e = math.exp %cur : tensor<?xf32>
    %s_new = arith.addf %scaled, %e : tensor<?xf32>
    scf.yield %m_new, %s_new : tensor<?xf32>, tensor<?xf32>
  }

  // Combine the lanes: M = max m, S = sum s * exp(m - M).
  %max = blk.reduce max %m axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %lane_shift = arith.subf %m, %max_block : tensor<?xf32>
  %lane_scale = math.exp %lane_shift : tensor<?xf32>
  %lane_sums = arith.mulf %s, %lane_scale : tensor<?xf32>
  %sum = blk.reduce sum %lane_sums axis 0 : tensor<?xf32> -> f32
  %sum_block = blk.splat %sum [BLOCK] : f32 -> tensor<?xf32>

  // Pass 2: normalize and store.
  scf.for %start = %c0 to %n_cols step %block : i32 {
    %start_block = blk.splat %start [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %start_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %shifted = arith.subf %x, %max_block : tensor<?xf32>
    %e = math.exp %shifted : tensor<?xf32>
    %y = arith.divf %e, %sum_block : tensor<?xf32>
    blk.store %out_row[%cols], %y mask %in_bounds
        : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  }
  return
}
