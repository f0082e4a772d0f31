// Log-softmax, fused: one program per row, the row held in registers, as
// softmax_fused.mlir; y = x - max - log(sum(exp(x - max))), torch.log_softmax's
// formula, so special rows come out as torch gives them (a NaN, a +inf or only
// -inf: NaN everywhere; a -inf element: -inf). math.log on the GPU is range
// reduction and a polynomial (lib/Conversion/BlkToGPU/MathOps.cpp), no
// libdevice; one log per row.
//
//   softmax-run log_softmax.mlir --rows 4096 --cols 1024 --reference log_softmax --check

func.func @log_softmax(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
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
  %e = math.exp %shifted : tensor<?xf32>
  %sum = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %log_sum = math.log %sum : f32
  %log_sum_block = blk.splat %log_sum [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.subf %shifted, %log_sum_block : tensor<?xf32>

  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
