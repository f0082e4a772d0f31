// Scaled, optionally causal softmax, fused: one program per row, the
// attention-score softmax of Apex's scaled_masked_softmax. y =
// softmax(scale * x) along the row, where with CAUSAL=1 the columns
// c > row + offset are -inf first (offset 0: the lower triangle; a decoder
// step with a KV cache passes kv_len - q_len). CAUSAL is a compile-time
// constant: with CAUSAL=0 the mask folds away and the kernel is a scaled
// softmax. Masked columns are not read (a causal row reads only its
// unmasked part) and are written as 0; a row with every column masked is
// NaN, as torch.softmax gives for a row of -inf (Apex writes 0 there).
//
//   softmax-run softmax_scaled_masked.mlir --rows 4096 --cols 4096 --const CAUSAL=1 --param scale=0.125,offset=0 --reference scaled_softmax --check

func.func @softmax_scaled_masked(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                                 %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                                 %scale: f32 {blk.arg = #blk.arg<param "scale">},
                                 %offset: i32 {blk.arg = #blk.arg<param "offset">},
                                 %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                                 %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                                 %n_rows: i32 {blk.arg = #blk.arg<rows>},
                                 %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>

  // The causal mask: c > row + offset, where CAUSAL is not 0. The sum
  // saturates at 2^31 - 1 (row >= 0, so only a large offset can pass it):
  // wrapped, it masked every column of the rows past the wrap (all NaN).
  %causal = blk.constexpr CAUSAL : i32
  %c0 = arith.constant 0 : i32
  %is_causal = arith.cmpi ne, %causal, %c0 : i32
  %is_causal_block = blk.splat %is_causal [BLOCK] : i1 -> tensor<?xi1>
  %i32_max = arith.constant 2147483647 : i32
  %room = arith.subi %i32_max, %row : i32
  %saturates = arith.cmpi sgt, %offset, %room : i32
  %row_plus_offset = arith.addi %row, %offset : i32
  %last = arith.select %saturates, %i32_max, %row_plus_offset : i32
  %lasts = blk.splat %last [BLOCK] : i32 -> tensor<?xi32>
  %beyond = arith.cmpi sgt, %cols, %lasts : tensor<?xi32>
  %masked = arith.andi %beyond, %is_causal_block : tensor<?xi1>
  %true = arith.constant true
  %trues = blk.splat %true [BLOCK] : i1 -> tensor<?xi1>
  %unmasked = arith.xori %masked, %trues : tensor<?xi1>
  %keep = arith.andi %in_bounds, %unmasked : tensor<?xi1>

  %in_start = arith.muli %row, %in_row_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
  %ninf = arith.constant 0xFF800000 : f32
  %ninfs = blk.splat %ninf [BLOCK] : f32 -> tensor<?xf32>
  %x = blk.load %in_row[%cols] mask %keep other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %scales = blk.splat %scale [BLOCK] : f32 -> tensor<?xf32>
  %product = arith.mulf %x, %scales : tensor<?xf32>
  // -inf * scale is not -inf for scale <= 0: masked lanes are set after.
  %scaled = arith.select %keep, %product, %ninfs : tensor<?xi1>, tensor<?xf32>

  %max = blk.reduce max %scaled axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %scaled, %max_block : tensor<?xf32>
  %e = math.exp %shifted : tensor<?xf32>
  %sum = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %sum_block = blk.splat %sum [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.divf %e, %sum_block : tensor<?xf32>

  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
