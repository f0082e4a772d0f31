// Fused softmax, one row per program: the kernel of Triton's fused-softmax
// tutorial (seed 000), written in the blk dialect.
//
// Program `row` loads its whole row into registers (a block of BLOCK >=
// n_cols elements: README, "softmax-run"; the lanes past the end of the row
// read -inf), subtracts the row maximum, exponentiates, divides by
// the sum and stores the row back. Each element is read once and written
// once: the traffic is 2 * n_cols * sizeof(f32) per row, the least possible.
// The right choice while a row fits in registers (up to some 16K f32).
//
// Bind the block size and look at the result:
//   softmax-opt softmax_fused.mlir --blk-specialize="BLOCK=1024"
// Launch: one program per row (grid = n_rows).

func.func @softmax_fused(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
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

  %max = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %x, %max_block : tensor<?xf32>
  %num = math.exp %shifted : tensor<?xf32>
  %den = blk.reduce sum %num axis 0 : tensor<?xf32> -> f32
  %den_block = blk.splat %den [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.divf %num, %den_block : tensor<?xf32>

  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
