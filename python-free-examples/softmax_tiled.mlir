// Tiled softmax, three passes over column tiles: seed 001's
// `kernel_softmax_tile`, written in the blk dialect.
//
// One program per row walks the row in tiles of BLOCK columns, three times:
// (1) a running elementwise max, reduced to the row max; (2) a running sum of
// exp(x - max), reduced to the row sum; (3) exp(x - max) / sum, stored.
// Any row length works with a fixed BLOCK, and only one tile lives in
// registers. The price is traffic: the row is read three times and written
// once, 4 * n_cols * sizeof(f32) per row (passes 2 and 3 hit L2 when the
// rows in flight fit there). The fallback for rows too long to keep on chip.
//
//   softmax-opt softmax_tiled.mlir --blk-specialize="BLOCK=4096"
// Launch: one program per row (grid = n_rows).

func.func @softmax_tiled(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
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

  // Pass 1: the row maximum.
  %maxes = scf.for %start = %c0 to %n_cols step %block
      iter_args(%acc = %ninf_block) -> (tensor<?xf32>) : i32 {
    %start_block = blk.splat %start [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %start_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %next = arith.maximumf %acc, %x : tensor<?xf32>
    scf.yield %next : tensor<?xf32>
  }
  %max = blk.reduce max %maxes axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>

  // Pass 2: the sum of exp(x - max).
  %sums = scf.for %start = %c0 to %n_cols step %block
      iter_args(%acc = %zero_block) -> (tensor<?xf32>) : i32 {
    %start_block = blk.splat %start [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %start_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %shifted = arith.subf %x, %max_block : tensor<?xf32>
    %e = math.exp %shifted : tensor<?xf32>
    %next = arith.addf %acc, %e : tensor<?xf32>
    scf.yield %next : tensor<?xf32>
  }
  %sum = blk.reduce sum %sums axis 0 : tensor<?xf32> -> f32
  %sum_block = blk.splat %sum [BLOCK] : f32 -> tensor<?xf32>

  // Pass 3: normalize and store.
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
