// A probe, not a kernel of the family: LayerNorm walked in tiles of BLOCK
// columns, as torch.compile's Inductor walks rows too long to hold (its
// looped reduction): the row is read three times (its sum; the squares
// about the mean; the normalization, with the weight and bias read tile
// by tile as y is written), the second and third reads mostly from L2,
// and a thread holds one tile's elements, not the row's. Against
// python-free-examples/layer_norm.mlir (the row held in registers, read
// once) it says whether holding or walking wide rows is the lever
// (bench/queues/rowwise-next.sh).
//
//   softmax-run bench/layer_norm_tiled.mlir --rows 4096 --cols 50257 --const BLOCK=4096 --param eps=1e-5 --reference layer_norm --check

func.func @layer_norm(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                      %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                      %weight: !blk.ptr<f32> {blk.arg = #blk.arg<input "weight", per_col>, blk.divisibility = 16 : i64},
                      %bias: !blk.ptr<f32> {blk.arg = #blk.arg<input "bias", per_col>, blk.divisibility = 16 : i64},
                      %eps: f32 {blk.arg = #blk.arg<param "eps">},
                      %x_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                      %y_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                      %n_rows: i32 {blk.arg = #blk.arg<rows>},
                      %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, row_block = BLOCK>} {
  %row = blk.program_id x
  %x_start = arith.muli %row, %x_row_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<f32>, i32
  %y_start = arith.muli %row, %y_row_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32

  %block = blk.constexpr BLOCK : i32
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %tile = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %n_float = arith.sitofp %n_cols : i32 to f32

  // Pass 1: the mean.
  %sums = scf.for %start = %c0 to %n_cols step %block
      iter_args(%acc = %zeros) -> (tensor<?xf32>) : i32 {
    %start_block = blk.splat %start [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %start_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x_tile = blk.load %x_row[%cols] mask %in_bounds other %zero
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %next = arith.addf %acc, %x_tile : tensor<?xf32>
    scf.yield %next : tensor<?xf32>
  }
  %sum = blk.reduce sum %sums axis 0 : tensor<?xf32> -> f32
  %mean = arith.divf %sum, %n_float : f32
  %mean_block = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>

  // Pass 2: the squares about the mean (no cancellation of E[x^2] -
  // mean^2).
  %square_sums = scf.for %start = %c0 to %n_cols step %block
      iter_args(%acc = %zeros) -> (tensor<?xf32>) : i32 {
    %start_block = blk.splat %start [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %start_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x_tile = blk.load %x_row[%cols] mask %in_bounds other %zero
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %difference = arith.subf %x_tile, %mean_block : tensor<?xf32>
    %centered = arith.select %in_bounds, %difference, %zeros
        : tensor<?xi1>, tensor<?xf32>
    %squares = arith.mulf %centered, %centered : tensor<?xf32>
    %next = arith.addf %acc, %squares : tensor<?xf32>
    scf.yield %next : tensor<?xf32>
  }
  %square_sum = blk.reduce sum %square_sums axis 0 : tensor<?xf32> -> f32
  %variance = arith.divf %square_sum, %n_float : f32
  %shifted = arith.addf %variance, %eps : f32
  %rstd = math.rsqrt %shifted : f32
  %rstd_block = blk.splat %rstd [BLOCK] : f32 -> tensor<?xf32>

  // Pass 3: normalize, scale, shift and store, tile by tile.
  scf.for %start = %c0 to %n_cols step %block : i32 {
    %start_block = blk.splat %start [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %start_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x_tile = blk.load %x_row[%cols] mask %in_bounds other %zero
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %w_tile = blk.load %weight[%cols] mask %in_bounds other %zero
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %b_tile = blk.load %bias[%cols] mask %in_bounds other %zero
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %difference = arith.subf %x_tile, %mean_block : tensor<?xf32>
    %normed = arith.mulf %difference, %rstd_block : tensor<?xf32>
    %scaled = arith.mulf %normed, %w_tile : tensor<?xf32>
    %y_tile = arith.addf %scaled, %b_tile : tensor<?xf32>
    blk.store %y_row[%cols], %y_tile mask %in_bounds
        : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  }
  return
}
