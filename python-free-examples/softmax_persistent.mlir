// Persistent fused softmax: the kernel of Triton's tutorial as it launches
// it (seeds 000 and 002): a grid of as many programs as the GPU keeps
// resident (SMs x occupancy), each walking the rows with a stride of
// num_programs.
//
// The row work is the fused kernel's: the row in registers, one read and
// one write per element (2 * n_cols * sizeof(f32) per row). What changes is
// the launch: no tail of half-empty waves, and programs reuse their setup
// (the column indices and mask are computed once, outside the row loop).
// The right choice for many rows of a length that fits in registers.
//
//   softmax-opt softmax_persistent.mlir --blk-specialize="BLOCK=1024"
// Launch: grid = min(n_rows, SMs x programs per SM) (grid = persistent).

func.func @softmax_persistent(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                              %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                              %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                              %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                              %n_rows: i32 {blk.arg = #blk.arg<rows>},
                              %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent, row_block = BLOCK>} {
  %first_row = blk.program_id x
  %row_step = blk.num_programs x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32

  scf.for %row = %first_row to %n_rows step %row_step : i32 {
    %in_start = arith.muli %row, %in_row_stride : i32
    %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
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
  }
  return
}
