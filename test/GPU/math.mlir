// REQUIRES: cuda-gpu
// The f32 math the row-wise kernels need (math.log, math.log2, math.rsqrt,
// blk.reduce min; lib/Conversion/BlkToGPU/MathOps.cpp) checked on the GPU
// through a softmax computed with them, so that softmax-run's reference
// checks it:
//   m = -min(-x), e = exp(x - m), s = sum(e),
//   y = exp(log(e) - log(s)) * (s rsqrt(s)^2) * exp2(log2(s) - log(s) log2(e))
// Both factors after the first are 1 up to the ops' errors; log(e) runs
// over the whole range of e: 1, subnormals (rows spanning 100 and more) and
// 0 (-inf inputs, masked lanes). --special adds +-inf, NaN and huge values.
// test/Runtime/math-ops.mlir runs this file on the CPU.
// RUN: softmax-run %s --target gpu --check --reference softmax --rows 256 --cols 1000
// RUN: softmax-run %s --target gpu --check --reference softmax --rows 77 --cols 4097 --special
// RUN: softmax-run %s --target gpu --check --reference softmax --rows 64 --cols 300 --dtype bf16 --special
// RUN: softmax-run %s --target gpu --check --reference softmax --rows 1 --cols 1

func.func @softmax_via_log(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                           %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                           %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                           %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
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

  %neg_x = arith.negf %x : tensor<?xf32>
  %neg_max = blk.reduce min %neg_x axis 0 : tensor<?xf32> -> f32
  %max = arith.negf %neg_max : f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %x, %max_block : tensor<?xf32>
  %e = math.exp %shifted : tensor<?xf32>
  %s = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32

  %log_e = math.log %e : tensor<?xf32>
  %log_s = math.log %s : f32
  %r = math.rsqrt %s : f32
  %r2 = arith.mulf %r, %r : f32
  %one_by_rsqrt = arith.mulf %s, %r2 : f32
  %log2_s = math.log2 %s : f32
  %log2e = arith.constant 1.44269504 : f32
  %log2_s_by_log = arith.mulf %log_s, %log2e : f32
  %log2_difference = arith.subf %log2_s, %log2_s_by_log : f32
  %one_by_log2 = math.exp2 %log2_difference : f32
  %factor = arith.mulf %one_by_rsqrt, %one_by_log2 : f32

  %log_s_block = blk.splat %log_s [BLOCK] : f32 -> tensor<?xf32>
  %log_y = arith.subf %log_e, %log_s_block : tensor<?xf32>
  %y_log = math.exp %log_y : tensor<?xf32>
  %factor_block = blk.splat %factor [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.mulf %y_log, %factor_block : tensor<?xf32>

  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
