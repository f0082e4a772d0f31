// Fused attention forward: O = softmax(scale Q K^T) V for every (batch,
// head), and each query row's logsumexp (what the backward pass needs),
// without the scores ever reaching memory (FlashAttention's way, and the
// seeds' last chapter: the online max and sum of softmax_online.mlir, tile
// by tile).
//
// Q and O are [rows, cols] = [queries, head_dim] per (batch, head), K and V
// [inner, cols] = [keys, head_dim]; instance (b, h) of each tensor starts at
// b * batch_stride + h * head_stride (dense [B, H, S, D] by default; --layout
// bshd gives [B, S, H, D]). Program (x, y) computes ROWS query rows of
// instance y: its Q tile stays in registers while a loop walks the keys KV
// at a time: S = Q K^T (K^T by the offsets of the load, no copy), the tile's
// row max, P = exp2(S scale log2 e - m), the running sum and O rescaled by
// exp2(m_old - m_new), O += P V. With CAUSAL = 1 key j > query i is masked
// (torch's is_causal) and the loop stops at the program's last query row:
// tiles past the diagonal are skipped, not masked.
//
//   softmax-run attention_fwd.mlir --batch 4 --heads 16 --rows 4096 --inner 4096 --cols 128 --dtype bf16 --const CAUSAL=1 --param scale=0.08838834764831845 --bench

func.func @attention(%o: !blk.ptr<f32> {blk.arg = #blk.arg<output "o">, blk.divisibility = 16 : i64},
                         %lse: !blk.ptr<f32> {blk.arg = #blk.arg<output "lse", per_row>, blk.divisibility = 16 : i64, blk.keep_f32},
                         %q: !blk.ptr<f32> {blk.arg = #blk.arg<input "q">, blk.divisibility = 16 : i64},
                         %k: !blk.ptr<f32> {blk.arg = #blk.arg<input "k", inner_by_cols>, blk.divisibility = 16 : i64},
                         %v: !blk.ptr<f32> {blk.arg = #blk.arg<input "v", inner_by_cols>, blk.divisibility = 16 : i64},
                         %q_stride: i32 {blk.arg = #blk.arg<row_stride "q">},
                         %k_stride: i32 {blk.arg = #blk.arg<row_stride "k">},
                         %v_stride: i32 {blk.arg = #blk.arg<row_stride "v">},
                         %o_stride: i32 {blk.arg = #blk.arg<row_stride "o">},
                         %q_batch: i64 {blk.arg = #blk.arg<batch_stride "q">, blk.divisibility = 16 : i64},
                         %k_batch: i64 {blk.arg = #blk.arg<batch_stride "k">, blk.divisibility = 16 : i64},
                         %v_batch: i64 {blk.arg = #blk.arg<batch_stride "v">, blk.divisibility = 16 : i64},
                         %o_batch: i64 {blk.arg = #blk.arg<batch_stride "o">, blk.divisibility = 16 : i64},
                         %lse_batch: i64 {blk.arg = #blk.arg<batch_stride "lse">},
                         %q_head: i64 {blk.arg = #blk.arg<head_stride "q">, blk.divisibility = 16 : i64},
                         %k_head: i64 {blk.arg = #blk.arg<head_stride "k">, blk.divisibility = 16 : i64},
                         %v_head: i64 {blk.arg = #blk.arg<head_stride "v">, blk.divisibility = 16 : i64},
                         %o_head: i64 {blk.arg = #blk.arg<head_stride "o">, blk.divisibility = 16 : i64},
                         %lse_head: i64 {blk.arg = #blk.arg<head_stride "lse">},
                         %scale: f32 {blk.arg = #blk.arg<param "scale">},
                         %n_q: i32 {blk.arg = #blk.arg<rows>},
                         %n_kv: i32 {blk.arg = #blk.arg<inner>},
                         %batch: i32 {blk.arg = #blk.arg<batch>},
                         %heads: i32 {blk.arg = #blk.arg<heads>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = HEAD_DIM, rows_per_program = ROWS, inner_block = KV>} {
  // Which instance (b, h), and where each tensor's starts.
  %tile = blk.program_id x
  %instance = blk.program_id y
  %b = arith.divui %instance, %heads : i32
  %h = arith.remui %instance, %heads : i32
  %b64 = arith.extui %b : i32 to i64
  %h64 = arith.extui %h : i32 to i64
  %q_b = arith.muli %b64, %q_batch : i64
  %q_h = arith.muli %h64, %q_head : i64
  %q_start = arith.addi %q_b, %q_h : i64
  %q_base = blk.addptr %q, %q_start : !blk.ptr<f32>, i64
  %k_b = arith.muli %b64, %k_batch : i64
  %k_h = arith.muli %h64, %k_head : i64
  %k_start = arith.addi %k_b, %k_h : i64
  %k_base = blk.addptr %k, %k_start : !blk.ptr<f32>, i64
  %v_b = arith.muli %b64, %v_batch : i64
  %v_h = arith.muli %h64, %v_head : i64
  %v_start = arith.addi %v_b, %v_h : i64
  %v_base = blk.addptr %v, %v_start : !blk.ptr<f32>, i64
  %o_b = arith.muli %b64, %o_batch : i64
  %o_h = arith.muli %h64, %o_head : i64
  %o_start = arith.addi %o_b, %o_h : i64
  %o_base = blk.addptr %o, %o_start : !blk.ptr<f32>, i64
  %lse_b = arith.muli %b64, %lse_batch : i64
  %lse_h = arith.muli %h64, %lse_head : i64
  %lse_start = arith.addi %lse_b, %lse_h : i64
  %lse_base = blk.addptr %lse, %lse_start : !blk.ptr<f32>, i64

  %tile_rows = blk.constexpr ROWS : i32
  %first_row = arith.muli %tile, %tile_rows : i32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.44269504 : f32
  %abs_scale = math.absf %scale : f32
  %qk_scale = arith.mulf %abs_scale, %log2e : f32
  %one = arith.constant 1.0 : f32
  %minus_one = arith.constant -1.0 : f32
  %scale_negative = arith.cmpf olt, %scale, %zero : f32
  %scale_sign = arith.select %scale_negative, %minus_one, %one : f32

  // The program's query rows (ROWS x 1) and the head dimension (1 x HEAD_DIM).
  %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
  %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
  %rows = arith.addi %local_rows, %first : tensor<?xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %nq_col = blk.splat %n_q [ROWS, 1] : i32 -> tensor<?x1xi32>
  %row_ok = arith.cmpi slt, %rows_col, %nq_col : tensor<?x1xi32>
  %ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
  %ds_row = blk.expand_dims %ds axis 0 : tensor<?xi32> -> tensor<1x?xi32>

  // Q, ROWS x HEAD_DIM, loaded once.
  %q_stride_col = blk.splat %q_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %q_starts = arith.muli %rows_col, %q_stride_col : tensor<?x1xi32>
  %q_starts_2d = blk.broadcast %q_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
  %q_ds = blk.broadcast %ds_row [ROWS, HEAD_DIM] : tensor<1x?xi32> -> tensor<?x?xi32>
  %q_offsets = arith.addi %q_starts_2d, %q_ds : tensor<?x?xi32>
  %row_ok_2d = blk.broadcast %row_ok [ROWS, HEAD_DIM] : tensor<?x1xi1> -> tensor<?x?xi1>
  %q_loaded = blk.load %q_base[%q_offsets] mask %row_ok_2d other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
  // The scale's sign goes into Q (exact: a negation), so the loop scales
  // by |scale| > 0, where the row max of the scaled scores is the scaled
  // row max: one fused multiply-add an element, no separate multiply.
  %sign_2d = blk.splat %scale_sign [ROWS, HEAD_DIM] : f32 -> tensor<?x?xf32>
  %q_tile = arith.mulf %q_loaded, %sign_2d : tensor<?x?xf32>

  // Index blocks of the loop: K^T's (HEAD_DIM x KV), the scores' columns
  // (1 x KV) and V's rows (KV x 1). One block has one layout on the GPU,
  // so each use has its own arange.
  %kt_ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
  %kt_ds_col = blk.expand_dims %kt_ds axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %kt_js = blk.arange 0 to KV : tensor<?xi32>
  %kt_js_row = blk.expand_dims %kt_js axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %s_js = blk.arange 0 to KV : tensor<?xi32>
  %s_js_row = blk.expand_dims %s_js axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %v_js = blk.arange 0 to KV : tensor<?xi32>
  %v_js_col = blk.expand_dims %v_js axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %v_ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
  %v_ds_row = blk.expand_dims %v_ds axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %s_rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  %s_rows = blk.broadcast %s_rows_col [ROWS, KV] : tensor<?x1xi32> -> tensor<?x?xi32>

  // Causal: the keys up to the program's last query row (the loop's end,
  // at most n_kv).
  %causal = blk.constexpr CAUSAL : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %is_causal = arith.cmpi ne, %causal, %c0 : i32
  %past_last = arith.addi %first_row, %tile_rows : i32
  %diagonal_end = arith.minsi %past_last, %n_kv : i32
  %kv_end = arith.select %is_causal, %diagonal_end, %n_kv : i32
  %causal_2d = blk.splat %is_causal [ROWS, KV] : i1 -> tensor<?x?xi1>
  %true = arith.constant true
  %all_2d = blk.splat %true [ROWS, KV] : i1 -> tensor<?x?xi1>

  %m0 = blk.splat %ninf [ROWS] : f32 -> tensor<?xf32>
  %l0 = blk.splat %zero [ROWS] : f32 -> tensor<?xf32>
  %acc0 = blk.splat %zero [ROWS, HEAD_DIM] : f32 -> tensor<?x?xf32>
  %kv_step = blk.constexpr KV : i32
  %m, %l, %acc = scf.for %j0 = %c0 to %kv_end step %kv_step
      iter_args(%m_in = %m0, %l_in = %l0, %acc_in = %acc0)
      -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) : i32 {
    // K^T[d][j0 + jj] = K[j0 + jj][d]: the transpose is in the offsets.
    %j0_row = blk.splat %j0 [1, KV] : i32 -> tensor<1x?xi32>
    %kt_js_abs = arith.addi %kt_js_row, %j0_row : tensor<1x?xi32>
    %nkv_row = blk.splat %n_kv [1, KV] : i32 -> tensor<1x?xi32>
    %kt_j_ok = arith.cmpi slt, %kt_js_abs, %nkv_row : tensor<1x?xi32>
    %k_stride_row = blk.splat %k_stride [1, KV] : i32 -> tensor<1x?xi32>
    %kt_starts = arith.muli %kt_js_abs, %k_stride_row : tensor<1x?xi32>
    %kt_starts_2d = blk.broadcast %kt_starts [HEAD_DIM, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
    %kt_ds_2d = blk.broadcast %kt_ds_col [HEAD_DIM, KV] : tensor<?x1xi32> -> tensor<?x?xi32>
    %kt_offsets = arith.addi %kt_starts_2d, %kt_ds_2d : tensor<?x?xi32>
    %kt_mask = blk.broadcast %kt_j_ok [HEAD_DIM, KV] : tensor<1x?xi1> -> tensor<?x?xi1>
    %kt = blk.load %k_base[%kt_offsets] mask %kt_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %s0 = blk.splat %zero [ROWS, KV] : f32 -> tensor<?x?xf32>
    %s = blk.dot %q_tile, %kt, %s0 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>

    // The online softmax in log2 units (c = |scale| log2 e): the new
    // running max m and P = exp2(s c - m). Keys past n_kv, and past the
    // row if causal, are -inf: only the tiles that hold such keys (the
    // last, and the diagonal ones) compute masks, in a branch the whole
    // program takes. There the scores are scaled first, as -inf c is NaN
    // at c = 0; elsewhere the row max of the raw scores scales (c > 0, or
    // 0) and P is one fused multiply-add an element.
    %qk_scale_v = blk.splat %qk_scale [ROWS] : f32 -> tensor<?xf32>
    %qk_scale_2d = blk.splat %qk_scale [ROWS, KV] : f32 -> tensor<?x?xf32>
    %tile_end = arith.addi %j0, %kv_step : i32
    %past_n_kv = arith.cmpi sgt, %tile_end, %n_kv : i32
    %first_row_end = arith.addi %first_row, %c1 : i32
    %past_first_row = arith.cmpi sgt, %tile_end, %first_row_end : i32
    %on_diagonal = arith.andi %past_first_row, %is_causal : i1
    %needs_mask = arith.ori %past_n_kv, %on_diagonal : i1
    %m_new, %p = scf.if %needs_mask -> (tensor<?xf32>, tensor<?x?xf32>) {
      %s_js_abs = arith.addi %s_js_row, %j0_row : tensor<1x?xi32>
      %s_j_ok = arith.cmpi slt, %s_js_abs, %nkv_row : tensor<1x?xi32>
      %s_in = blk.broadcast %s_j_ok [ROWS, KV] : tensor<1x?xi1> -> tensor<?x?xi1>
      %s_cols = blk.broadcast %s_js_abs [ROWS, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
      %future = arith.cmpi sgt, %s_cols, %s_rows : tensor<?x?xi32>
      %masked = arith.andi %future, %causal_2d : tensor<?x?xi1>
      %unmasked = arith.xori %masked, %all_2d : tensor<?x?xi1>
      %ok = arith.andi %s_in, %unmasked : tensor<?x?xi1>
      %ninf_2d = blk.splat %ninf [ROWS, KV] : f32 -> tensor<?x?xf32>
      %s_scaled = arith.mulf %s, %qk_scale_2d : tensor<?x?xf32>
      %s_masked = arith.select %ok, %s_scaled, %ninf_2d : tensor<?x?xi1>, tensor<?x?xf32>
      %tile_max = blk.reduce max %s_masked axis 1 : tensor<?x?xf32> -> tensor<?xf32>
      %m_masked = arith.maximumf %m_in, %tile_max : tensor<?xf32>
      %m_masked_col = blk.expand_dims %m_masked axis 1 : tensor<?xf32> -> tensor<?x1xf32>
      %m_masked_2d = blk.broadcast %m_masked_col [ROWS, KV] : tensor<?x1xf32> -> tensor<?x?xf32>
      %shifted = arith.subf %s_masked, %m_masked_2d : tensor<?x?xf32>
      %p_masked = math.exp2 %shifted : tensor<?x?xf32>
      scf.yield %m_masked, %p_masked : tensor<?xf32>, tensor<?x?xf32>
    } else {
      %tile_max = blk.reduce max %s axis 1 : tensor<?x?xf32> -> tensor<?xf32>
      %tile_max_scaled = arith.mulf %tile_max, %qk_scale_v : tensor<?xf32>
      %m_all = arith.maximumf %m_in, %tile_max_scaled : tensor<?xf32>
      %m_all_col = blk.expand_dims %m_all axis 1 : tensor<?xf32> -> tensor<?x1xf32>
      %m_all_2d = blk.broadcast %m_all_col [ROWS, KV] : tensor<?x1xf32> -> tensor<?x?xf32>
      %s_scaled = arith.mulf %s, %qk_scale_2d fastmath<contract> : tensor<?x?xf32>
      %shifted = arith.subf %s_scaled, %m_all_2d fastmath<contract> : tensor<?x?xf32>
      %p_all = math.exp2 %shifted : tensor<?x?xf32>
      scf.yield %m_all, %p_all : tensor<?xf32>, tensor<?x?xf32>
    }
    %m_diff = arith.subf %m_in, %m_new : tensor<?xf32>
    %alpha = math.exp2 %m_diff : tensor<?xf32>
    %p_sum = blk.reduce sum %p axis 1 : tensor<?x?xf32> -> tensor<?xf32>
    %l_scaled = arith.mulf %l_in, %alpha : tensor<?xf32>
    %l_new = arith.addf %l_scaled, %p_sum : tensor<?xf32>
    %alpha_col = blk.expand_dims %alpha axis 1 : tensor<?xf32> -> tensor<?x1xf32>
    %alpha_2d = blk.broadcast %alpha_col [ROWS, HEAD_DIM] : tensor<?x1xf32> -> tensor<?x?xf32>
    %acc_scaled = arith.mulf %acc_in, %alpha_2d : tensor<?x?xf32>

    // V[j0 + jj][d], KV x HEAD_DIM, and O += P V.
    %j0_col = blk.splat %j0 [KV, 1] : i32 -> tensor<?x1xi32>
    %v_js_abs = arith.addi %v_js_col, %j0_col : tensor<?x1xi32>
    %nkv_col = blk.splat %n_kv [KV, 1] : i32 -> tensor<?x1xi32>
    %v_j_ok = arith.cmpi slt, %v_js_abs, %nkv_col : tensor<?x1xi32>
    %v_stride_col = blk.splat %v_stride [KV, 1] : i32 -> tensor<?x1xi32>
    %v_starts = arith.muli %v_js_abs, %v_stride_col : tensor<?x1xi32>
    %v_starts_2d = blk.broadcast %v_starts [KV, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
    %v_ds_2d = blk.broadcast %v_ds_row [KV, HEAD_DIM] : tensor<1x?xi32> -> tensor<?x?xi32>
    %v_offsets = arith.addi %v_starts_2d, %v_ds_2d : tensor<?x?xi32>
    %v_mask = blk.broadcast %v_j_ok [KV, HEAD_DIM] : tensor<?x1xi1> -> tensor<?x?xi1>
    %v_tile = blk.load %v_base[%v_offsets] mask %v_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %acc_new = blk.dot %p, %v_tile, %acc_scaled : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
    scf.yield %m_new, %l_new, %acc_new : tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>
  }

  // O = acc / l; lse = (m + log2 l) ln 2 (natural log, as torch's).
  %l_col = blk.expand_dims %l axis 1 : tensor<?xf32> -> tensor<?x1xf32>
  %l_2d = blk.broadcast %l_col [ROWS, HEAD_DIM] : tensor<?x1xf32> -> tensor<?x?xf32>
  %out = arith.divf %acc, %l_2d : tensor<?x?xf32>
  %o_stride_col = blk.splat %o_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
  %o_starts = arith.muli %rows_col, %o_stride_col : tensor<?x1xi32>
  %o_starts_2d = blk.broadcast %o_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
  %o_offsets = arith.addi %o_starts_2d, %q_ds : tensor<?x?xi32>
  blk.store %o_base[%o_offsets], %out mask %row_ok_2d : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
  %log2_l = math.log2 %l : tensor<?xf32>
  %lse2 = arith.addf %m, %log2_l : tensor<?xf32>
  %ln2 = arith.constant 0.693147181 : f32
  %ln2_v = blk.splat %ln2 [ROWS] : f32 -> tensor<?xf32>
  %lse_v = arith.mulf %lse2, %ln2_v : tensor<?xf32>
  %nq_v = blk.splat %n_q [ROWS] : i32 -> tensor<?xi32>
  %lse_ok = arith.cmpi slt, %rows, %nq_v : tensor<?xi32>
  blk.store %lse_base[%rows], %lse_v mask %lse_ok : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
