// Fused attention backward: dQ, dK and dV of O = softmax(scale Q K^T) V
// from the forward's O and each query row's logsumexp (attention_fwd.mlir
// writes both), recomputing the probabilities tile by tile as
// FlashAttention-2 does: the score matrix never reaches memory.
//
// With P = softmax(scale S), S = Q K^T, and dO the gradient of O:
//   dV = P^T dO,  dP = dO V^T,  dS = P * (dP - delta),
//   dQ = scale dS K,  dK = scale dS^T Q,
// where delta_i = sum_d dO[i][d] O[i][d] (= sum_j P[i][j] dP[i][j]), and P
// comes back from the logsumexp: P[i][j] = exp2(S[i][j] scale log2 e -
// lse_i log2 e). Three kernels, run in order:
//   @delta: delta per query row (FlashAttention's preprocessing), also an
//           output, as flash_attn's backward returns it;
//   @dkdv:  a program per ROWS keys: their K and V stay where the products
//           read them while a loop walks the queries KV at a time, dK and dV
//           accumulated in f32 (no atomics: each key tile is one program's);
//   @dq:    a program per ROWS queries: Q, dO, lse and delta stay while a
//           loop walks the keys KV at a time, dQ accumulated in f32.
// Tensors are laid out as in attention_fwd.mlir (q, o, do, dq: [rows,
// cols] = [queries, head_dim]; k, v, dk, dv: [inner, cols] = [keys,
// head_dim], per (batch, head) instance). The launch has ceil(queries /
// ROWS) programs along x per instance: @dkdv's programs walk the key tiles
// in steps of that count, so keys may outnumber queries. With CAUSAL = 1
// (torch's is_causal, the mask's corner on the diagonal) tiles past the
// diagonal are skipped, and only the diagonal and last tiles compute masks.
//
// The module's name says what the program computes: --check compares it
// with the float64 attention_backward reference.
//
//   softmax-run attention_bwd.mlir --batch 4 --heads 16 --rows 4096 --inner 4096 --cols 128 --dtype bf16 --const CAUSAL=1 --param scale=0.08838834764831845 --check

module @attention_backward {
  // delta[i] = sum_d dO[i][d] O[i][d], ROWS query rows a program.
  func.func @delta(%delta: !blk.ptr<f32> {blk.arg = #blk.arg<output "delta", per_row>, blk.keep_f32},
                   %o: !blk.ptr<f32> {blk.arg = #blk.arg<input "o">, blk.divisibility = 16 : i64},
                   %do: !blk.ptr<f32> {blk.arg = #blk.arg<input "do">, blk.divisibility = 16 : i64},
                   %o_stride: i32 {blk.arg = #blk.arg<row_stride "o">},
                   %do_stride: i32 {blk.arg = #blk.arg<row_stride "do">},
                   %o_batch: i64 {blk.arg = #blk.arg<batch_stride "o">, blk.divisibility = 16 : i64},
                   %do_batch: i64 {blk.arg = #blk.arg<batch_stride "do">, blk.divisibility = 16 : i64},
                   %delta_batch: i64 {blk.arg = #blk.arg<batch_stride "delta">},
                   %o_head: i64 {blk.arg = #blk.arg<head_stride "o">, blk.divisibility = 16 : i64},
                   %do_head: i64 {blk.arg = #blk.arg<head_stride "do">, blk.divisibility = 16 : i64},
                   %delta_head: i64 {blk.arg = #blk.arg<head_stride "delta">},
                   %n_q: i32 {blk.arg = #blk.arg<rows>},
                   %batch: i32 {blk.arg = #blk.arg<batch>},
                   %heads: i32 {blk.arg = #blk.arg<heads>})
      attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = HEAD_DIM, rows_per_program = ROWS>} {
    %tile = blk.program_id x
    %instance = blk.program_id y
    %b = arith.divui %instance, %heads : i32
    %h = arith.remui %instance, %heads : i32
    %b64 = arith.extui %b : i32 to i64
    %h64 = arith.extui %h : i32 to i64
    %o_b = arith.muli %b64, %o_batch : i64
    %o_h = arith.muli %h64, %o_head : i64
    %o_start = arith.addi %o_b, %o_h : i64
    %o_base = blk.addptr %o, %o_start : !blk.ptr<f32>, i64
    %do_b = arith.muli %b64, %do_batch : i64
    %do_h = arith.muli %h64, %do_head : i64
    %do_start = arith.addi %do_b, %do_h : i64
    %do_base = blk.addptr %do, %do_start : !blk.ptr<f32>, i64
    %delta_b = arith.muli %b64, %delta_batch : i64
    %delta_h = arith.muli %h64, %delta_head : i64
    %delta_start = arith.addi %delta_b, %delta_h : i64
    %delta_base = blk.addptr %delta, %delta_start : !blk.ptr<f32>, i64

    %tile_rows = blk.constexpr ROWS : i32
    %first_row = arith.muli %tile, %tile_rows : i32
    %zero = arith.constant 0.0 : f32
    %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
    %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
    %rows = arith.addi %local_rows, %first : tensor<?xi32>
    %rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
    %nq_col = blk.splat %n_q [ROWS, 1] : i32 -> tensor<?x1xi32>
    %row_ok = arith.cmpi slt, %rows_col, %nq_col : tensor<?x1xi32>
    %row_ok_2d = blk.broadcast %row_ok [ROWS, HEAD_DIM] : tensor<?x1xi1> -> tensor<?x?xi1>
    %ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
    %ds_row = blk.expand_dims %ds axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %ds_2d = blk.broadcast %ds_row [ROWS, HEAD_DIM] : tensor<1x?xi32> -> tensor<?x?xi32>

    %o_stride_col = blk.splat %o_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
    %o_starts = arith.muli %rows_col, %o_stride_col : tensor<?x1xi32>
    %o_starts_2d = blk.broadcast %o_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
    %o_offsets = arith.addi %o_starts_2d, %ds_2d : tensor<?x?xi32>
    %o_tile = blk.load %o_base[%o_offsets] mask %row_ok_2d other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %do_stride_col = blk.splat %do_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
    %do_starts = arith.muli %rows_col, %do_stride_col : tensor<?x1xi32>
    %do_starts_2d = blk.broadcast %do_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
    %do_offsets = arith.addi %do_starts_2d, %ds_2d : tensor<?x?xi32>
    %do_tile = blk.load %do_base[%do_offsets] mask %row_ok_2d other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %products = arith.mulf %o_tile, %do_tile : tensor<?x?xf32>
    %sums = blk.reduce sum %products axis 1 : tensor<?x?xf32> -> tensor<?xf32>
    %nq_v = blk.splat %n_q [ROWS] : i32 -> tensor<?xi32>
    %rows_ok = arith.cmpi slt, %rows, %nq_v : tensor<?xi32>
    blk.store %delta_base[%rows], %sums mask %rows_ok : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
    return
  }

  // dK and dV of ROWS keys a program: S^T = K Q^T and dP^T = V dO^T a query
  // tile at a time (the transposes in the offsets of the loads), P^T from
  // the logsumexp, dV += P^T dO, dK += dS^T Q.
  func.func @dkdv(%dk: !blk.ptr<f32> {blk.arg = #blk.arg<output "dk", inner_by_cols>, blk.divisibility = 16 : i64},
                  %dv: !blk.ptr<f32> {blk.arg = #blk.arg<output "dv", inner_by_cols>, blk.divisibility = 16 : i64},
                  %delta: !blk.ptr<f32> {blk.arg = #blk.arg<output "delta", per_row>, blk.keep_f32},
                  %q: !blk.ptr<f32> {blk.arg = #blk.arg<input "q">, blk.divisibility = 16 : i64},
                  %k: !blk.ptr<f32> {blk.arg = #blk.arg<input "k", inner_by_cols>, blk.divisibility = 16 : i64},
                  %v: !blk.ptr<f32> {blk.arg = #blk.arg<input "v", inner_by_cols>, blk.divisibility = 16 : i64},
                  %do: !blk.ptr<f32> {blk.arg = #blk.arg<input "do">, blk.divisibility = 16 : i64},
                  %lse: !blk.ptr<f32> {blk.arg = #blk.arg<input "lse", per_row>, blk.keep_f32},
                  %q_stride: i32 {blk.arg = #blk.arg<row_stride "q">},
                  %k_stride: i32 {blk.arg = #blk.arg<row_stride "k">},
                  %v_stride: i32 {blk.arg = #blk.arg<row_stride "v">},
                  %do_stride: i32 {blk.arg = #blk.arg<row_stride "do">},
                  %dk_stride: i32 {blk.arg = #blk.arg<row_stride "dk">},
                  %dv_stride: i32 {blk.arg = #blk.arg<row_stride "dv">},
                  %q_batch: i64 {blk.arg = #blk.arg<batch_stride "q">, blk.divisibility = 16 : i64},
                  %k_batch: i64 {blk.arg = #blk.arg<batch_stride "k">, blk.divisibility = 16 : i64},
                  %v_batch: i64 {blk.arg = #blk.arg<batch_stride "v">, blk.divisibility = 16 : i64},
                  %do_batch: i64 {blk.arg = #blk.arg<batch_stride "do">, blk.divisibility = 16 : i64},
                  %dk_batch: i64 {blk.arg = #blk.arg<batch_stride "dk">, blk.divisibility = 16 : i64},
                  %dv_batch: i64 {blk.arg = #blk.arg<batch_stride "dv">, blk.divisibility = 16 : i64},
                  %lse_batch: i64 {blk.arg = #blk.arg<batch_stride "lse">},
                  %delta_batch: i64 {blk.arg = #blk.arg<batch_stride "delta">},
                  %q_head: i64 {blk.arg = #blk.arg<head_stride "q">, blk.divisibility = 16 : i64},
                  %k_head: i64 {blk.arg = #blk.arg<head_stride "k">, blk.divisibility = 16 : i64},
                  %v_head: i64 {blk.arg = #blk.arg<head_stride "v">, blk.divisibility = 16 : i64},
                  %do_head: i64 {blk.arg = #blk.arg<head_stride "do">, blk.divisibility = 16 : i64},
                  %dk_head: i64 {blk.arg = #blk.arg<head_stride "dk">, blk.divisibility = 16 : i64},
                  %dv_head: i64 {blk.arg = #blk.arg<head_stride "dv">, blk.divisibility = 16 : i64},
                  %lse_head: i64 {blk.arg = #blk.arg<head_stride "lse">},
                  %delta_head: i64 {blk.arg = #blk.arg<head_stride "delta">},
                  %scale: f32 {blk.arg = #blk.arg<param "scale">},
                  %n_q: i32 {blk.arg = #blk.arg<rows>},
                  %n_kv: i32 {blk.arg = #blk.arg<inner>},
                  %batch: i32 {blk.arg = #blk.arg<batch>},
                  %heads: i32 {blk.arg = #blk.arg<heads>})
      attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = HEAD_DIM, rows_per_program = ROWS, inner_block = KV>} {
    %tile = blk.program_id x
    %tiles = blk.num_programs x
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
    %do_b = arith.muli %b64, %do_batch : i64
    %do_h = arith.muli %h64, %do_head : i64
    %do_start = arith.addi %do_b, %do_h : i64
    %do_base = blk.addptr %do, %do_start : !blk.ptr<f32>, i64
    %dk_b = arith.muli %b64, %dk_batch : i64
    %dk_h = arith.muli %h64, %dk_head : i64
    %dk_start = arith.addi %dk_b, %dk_h : i64
    %dk_base = blk.addptr %dk, %dk_start : !blk.ptr<f32>, i64
    %dv_b = arith.muli %b64, %dv_batch : i64
    %dv_h = arith.muli %h64, %dv_head : i64
    %dv_start = arith.addi %dv_b, %dv_h : i64
    %dv_base = blk.addptr %dv, %dv_start : !blk.ptr<f32>, i64
    %lse_b = arith.muli %b64, %lse_batch : i64
    %lse_h = arith.muli %h64, %lse_head : i64
    %lse_start = arith.addi %lse_b, %lse_h : i64
    %lse_base = blk.addptr %lse, %lse_start : !blk.ptr<f32>, i64
    %delta_b = arith.muli %b64, %delta_batch : i64
    %delta_h = arith.muli %h64, %delta_head : i64
    %delta_start = arith.addi %delta_b, %delta_h : i64
    %delta_base = blk.addptr %delta, %delta_start : !blk.ptr<f32>, i64

    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %log2e = arith.constant 1.44269504 : f32
    %qk_scale = arith.mulf %scale, %log2e : f32
    %causal = blk.constexpr CAUSAL : i32
    %is_causal = arith.cmpi ne, %causal, %c0 : i32
    %tile_keys = blk.constexpr ROWS : i32
    %q_step = blk.constexpr KV : i32
    %key_last = arith.subi %n_kv, %c1 : i32
    %key_up = arith.addi %key_last, %tile_keys : i32
    %key_tiles = arith.divui %key_up, %tile_keys : i32

    // Index blocks (one layout each on the GPU, so one arange a use): the
    // key tile's rows (ROWS x 1) and head dimension (1 x HEAD_DIM); Q^T's and
    // dO^T's head dimension (HEAD_DIM x 1) and queries (1 x KV); Q's and dO's
    // queries (KV x 1) and head dimension (1 x HEAD_DIM); the scores'
    // queries (1 x KV), for lse, delta and the masks.
    %local_keys = blk.arange 0 to ROWS : tensor<?xi32>
    %ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
    %ds_row = blk.expand_dims %ds axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %t_ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
    %t_ds_col = blk.expand_dims %t_ds axis 1 : tensor<?xi32> -> tensor<?x1xi32>
    %t_is = blk.arange 0 to KV : tensor<?xi32>
    %t_is_row = blk.expand_dims %t_is axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %n_is = blk.arange 0 to KV : tensor<?xi32>
    %n_is_col = blk.expand_dims %n_is axis 1 : tensor<?xi32> -> tensor<?x1xi32>
    %n_ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
    %n_ds_row = blk.expand_dims %n_ds axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %s_is = blk.arange 0 to KV : tensor<?xi32>
    %s_keys = blk.arange 0 to ROWS : tensor<?xi32>
    %nq_row = blk.splat %n_q [1, KV] : i32 -> tensor<1x?xi32>
    %nq_col = blk.splat %n_q [KV, 1] : i32 -> tensor<?x1xi32>
    %nq_v = blk.splat %n_q [KV] : i32 -> tensor<?xi32>
    %nkv_col = blk.splat %n_kv [ROWS, 1] : i32 -> tensor<?x1xi32>
    %causal_2d = blk.splat %is_causal [ROWS, KV] : i1 -> tensor<?x?xi1>
    %zero_2d = blk.splat %zero [ROWS, KV] : f32 -> tensor<?x?xf32>
    %qk_scale_2d = blk.splat %qk_scale [ROWS, KV] : f32 -> tensor<?x?xf32>
    %log2e_v = blk.splat %log2e [KV] : f32 -> tensor<?xf32>

    scf.for %key_tile = %tile to %key_tiles step %tiles : i32 {
      // K and V of keys [first_key, first_key + ROWS), loaded once.
      %first_key = arith.muli %key_tile, %tile_keys : i32
      %first_keys = blk.splat %first_key [ROWS] : i32 -> tensor<?xi32>
      %keys = arith.addi %local_keys, %first_keys : tensor<?xi32>
      %keys_col = blk.expand_dims %keys axis 1 : tensor<?xi32> -> tensor<?x1xi32>
      %key_ok = arith.cmpi slt, %keys_col, %nkv_col : tensor<?x1xi32>
      %key_ok_2d = blk.broadcast %key_ok [ROWS, HEAD_DIM] : tensor<?x1xi1> -> tensor<?x?xi1>
      %kv_ds = blk.broadcast %ds_row [ROWS, HEAD_DIM] : tensor<1x?xi32> -> tensor<?x?xi32>
      %k_stride_col = blk.splat %k_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
      %k_starts = arith.muli %keys_col, %k_stride_col : tensor<?x1xi32>
      %k_starts_2d = blk.broadcast %k_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
      %k_offsets = arith.addi %k_starts_2d, %kv_ds : tensor<?x?xi32>
      %k_tile = blk.load %k_base[%k_offsets] mask %key_ok_2d other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
      %v_stride_col = blk.splat %v_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
      %v_starts = arith.muli %keys_col, %v_stride_col : tensor<?x1xi32>
      %v_starts_2d = blk.broadcast %v_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
      %v_offsets = arith.addi %v_starts_2d, %kv_ds : tensor<?x?xi32>
      %v_tile = blk.load %v_base[%v_offsets] mask %key_ok_2d other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
      %s_first_keys = blk.splat %first_key [ROWS] : i32 -> tensor<?xi32>
      %s_keys_abs = arith.addi %s_keys, %s_first_keys : tensor<?xi32>
      %s_keys_col = blk.expand_dims %s_keys_abs axis 1 : tensor<?xi32> -> tensor<?x1xi32>

      // Causal: the first query that sees key first_key is first_key itself
      // (the loop starts on the query tile holding it).
      %first_tile = arith.divui %first_key, %q_step : i32
      %diagonal_start = arith.muli %first_tile, %q_step : i32
      %q_begin = arith.select %is_causal, %diagonal_start, %c0 : i32
      %last_key = arith.addi %first_key, %tile_keys : i32
      %last_key_in = arith.subi %last_key, %c1 : i32
      %dk0 = blk.splat %zero [ROWS, HEAD_DIM] : f32 -> tensor<?x?xf32>
      %dv0 = blk.splat %zero [ROWS, HEAD_DIM] : f32 -> tensor<?x?xf32>
      %dk_sum, %dv_sum = scf.for %i0 = %q_begin to %n_q step %q_step
          iter_args(%dk_in = %dk0, %dv_in = %dv0)
          -> (tensor<?x?xf32>, tensor<?x?xf32>) : i32 {
        // Q^T[d][i0 + ii] and dO^T, HEAD_DIM x KV.
        %i0_row = blk.splat %i0 [1, KV] : i32 -> tensor<1x?xi32>
        %t_is_abs = arith.addi %t_is_row, %i0_row : tensor<1x?xi32>
        %t_i_ok = arith.cmpi slt, %t_is_abs, %nq_row : tensor<1x?xi32>
        %t_mask = blk.broadcast %t_i_ok [HEAD_DIM, KV] : tensor<1x?xi1> -> tensor<?x?xi1>
        %t_ds_2d = blk.broadcast %t_ds_col [HEAD_DIM, KV] : tensor<?x1xi32> -> tensor<?x?xi32>
        %q_stride_row = blk.splat %q_stride [1, KV] : i32 -> tensor<1x?xi32>
        %qt_starts = arith.muli %t_is_abs, %q_stride_row : tensor<1x?xi32>
        %qt_starts_2d = blk.broadcast %qt_starts [HEAD_DIM, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
        %qt_offsets = arith.addi %qt_starts_2d, %t_ds_2d : tensor<?x?xi32>
        %qt = blk.load %q_base[%qt_offsets] mask %t_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
        %st = blk.dot %k_tile, %qt, %zero_2d : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>

        // P^T[j][i] = exp2(S^T scale log2 e - lse_i log2 e); zero for
        // queries past n_q and, causal, for keys j > i: masks only on the
        // tiles that hold such pairs.
        %s_i0 = blk.splat %i0 [KV] : i32 -> tensor<?xi32>
        %s_is_abs = arith.addi %s_is, %s_i0 : tensor<?xi32>
        %s_i_ok = arith.cmpi slt, %s_is_abs, %nq_v : tensor<?xi32>
        %lse_tile = blk.load %lse_base[%s_is_abs] mask %s_i_ok other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
        %lse2 = arith.mulf %lse_tile, %log2e_v : tensor<?xf32>
        %lse2_row = blk.expand_dims %lse2 axis 0 : tensor<?xf32> -> tensor<1x?xf32>
        %lse2_2d = blk.broadcast %lse2_row [ROWS, KV] : tensor<1x?xf32> -> tensor<?x?xf32>
        %st_scaled = arith.mulf %st, %qk_scale_2d fastmath<contract> : tensor<?x?xf32>
        %st_shifted = arith.subf %st_scaled, %lse2_2d fastmath<contract> : tensor<?x?xf32>
        %pt_all = math.exp2 %st_shifted : tensor<?x?xf32>
        %tile_end = arith.addi %i0, %q_step : i32
        %past_n_q = arith.cmpi sgt, %tile_end, %n_q : i32
        %before_last_key = arith.cmpi slt, %i0, %last_key_in : i32
        %on_diagonal = arith.andi %before_last_key, %is_causal : i1
        %needs_mask = arith.ori %past_n_q, %on_diagonal : i1
        %pt = scf.if %needs_mask -> (tensor<?x?xf32>) {
          %s_is_row = blk.expand_dims %s_is_abs axis 0 : tensor<?xi32> -> tensor<1x?xi32>
          %s_is_2d = blk.broadcast %s_is_row [ROWS, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
        %s_keys_2d = blk.broadcast %s_keys_col [ROWS, KV] : tensor<?x1xi32> -> tensor<?x?xi32>
          %s_i_ok_row = blk.expand_dims %s_i_ok axis 0 : tensor<?xi1> -> tensor<1x?xi1>
          %s_in = blk.broadcast %s_i_ok_row [ROWS, KV] : tensor<1x?xi1> -> tensor<?x?xi1>
          %future = arith.cmpi sgt, %s_keys_2d, %s_is_2d : tensor<?x?xi32>
          %masked = arith.andi %future, %causal_2d : tensor<?x?xi1>
          %pt_masked_all = arith.select %masked, %zero_2d, %pt_all : tensor<?x?xi1>, tensor<?x?xf32>
          %pt_masked = arith.select %s_in, %pt_masked_all, %zero_2d : tensor<?x?xi1>, tensor<?x?xf32>
          scf.yield %pt_masked : tensor<?x?xf32>
        } else {
          scf.yield %pt_all : tensor<?x?xf32>
        }

        // dO[i0 + ii][d], KV x HEAD_DIM, and dV += P^T dO.
        %i0_col = blk.splat %i0 [KV, 1] : i32 -> tensor<?x1xi32>
        %n_is_abs = arith.addi %n_is_col, %i0_col : tensor<?x1xi32>
        %n_i_ok = arith.cmpi slt, %n_is_abs, %nq_col : tensor<?x1xi32>
        %n_mask = blk.broadcast %n_i_ok [KV, HEAD_DIM] : tensor<?x1xi1> -> tensor<?x?xi1>
        %n_ds_2d = blk.broadcast %n_ds_row [KV, HEAD_DIM] : tensor<1x?xi32> -> tensor<?x?xi32>
        %do_stride_col = blk.splat %do_stride [KV, 1] : i32 -> tensor<?x1xi32>
        %do_starts = arith.muli %n_is_abs, %do_stride_col : tensor<?x1xi32>
        %do_starts_2d = blk.broadcast %do_starts [KV, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
        %do_offsets = arith.addi %do_starts_2d, %n_ds_2d : tensor<?x?xi32>
        %do_tile = blk.load %do_base[%do_offsets] mask %n_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
        %dv_new = blk.dot %pt, %do_tile, %dv_in : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>

        // dP^T = V dO^T, dS^T = P^T (dP^T - delta_i).
        %do_stride_row = blk.splat %do_stride [1, KV] : i32 -> tensor<1x?xi32>
        %dot_starts = arith.muli %t_is_abs, %do_stride_row : tensor<1x?xi32>
        %dot_starts_2d = blk.broadcast %dot_starts [HEAD_DIM, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
        %dot_offsets = arith.addi %dot_starts_2d, %t_ds_2d : tensor<?x?xi32>
        %dot = blk.load %do_base[%dot_offsets] mask %t_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
        %dpt = blk.dot %v_tile, %dot, %zero_2d : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
        %delta_tile = blk.load %delta_base[%s_is_abs] mask %s_i_ok other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
        %delta_row = blk.expand_dims %delta_tile axis 0 : tensor<?xf32> -> tensor<1x?xf32>
        %delta_2d = blk.broadcast %delta_row [ROWS, KV] : tensor<1x?xf32> -> tensor<?x?xf32>
        %dpt_centered = arith.subf %dpt, %delta_2d : tensor<?x?xf32>
        %dst = arith.mulf %pt, %dpt_centered : tensor<?x?xf32>

        // Q[i0 + ii][d], KV x HEAD_DIM, and dK += dS^T Q.
        %q_stride_col = blk.splat %q_stride [KV, 1] : i32 -> tensor<?x1xi32>
        %q_starts = arith.muli %n_is_abs, %q_stride_col : tensor<?x1xi32>
        %q_starts_2d = blk.broadcast %q_starts [KV, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
        %q_offsets = arith.addi %q_starts_2d, %n_ds_2d : tensor<?x?xi32>
        %q_tile = blk.load %q_base[%q_offsets] mask %n_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
        %dk_new = blk.dot %dst, %q_tile, %dk_in : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
        scf.yield %dk_new, %dv_new : tensor<?x?xf32>, tensor<?x?xf32>
      }

      // dK = scale dS^T Q (the scale once, here); rows past n_kv stay.
      %scale_2d = blk.splat %scale [ROWS, HEAD_DIM] : f32 -> tensor<?x?xf32>
      %dk_scaled = arith.mulf %dk_sum, %scale_2d : tensor<?x?xf32>
      %dk_stride_col = blk.splat %dk_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
      %dk_starts = arith.muli %keys_col, %dk_stride_col : tensor<?x1xi32>
      %dk_starts_2d = blk.broadcast %dk_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
      %dk_offsets = arith.addi %dk_starts_2d, %kv_ds : tensor<?x?xi32>
      blk.store %dk_base[%dk_offsets], %dk_scaled mask %key_ok_2d : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
      %dv_stride_col = blk.splat %dv_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
      %dv_starts = arith.muli %keys_col, %dv_stride_col : tensor<?x1xi32>
      %dv_starts_2d = blk.broadcast %dv_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
      %dv_offsets = arith.addi %dv_starts_2d, %kv_ds : tensor<?x?xi32>
      blk.store %dv_base[%dv_offsets], %dv_sum mask %key_ok_2d : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
    }
    return
  }

  // dQ of ROWS queries a program: S = Q K^T and dP = dO V^T a key tile at a
  // time, P from the logsumexp, dQ += dS K.
  func.func @dq(%dq: !blk.ptr<f32> {blk.arg = #blk.arg<output "dq">, blk.divisibility = 16 : i64},
                %delta: !blk.ptr<f32> {blk.arg = #blk.arg<output "delta", per_row>, blk.keep_f32},
                %q: !blk.ptr<f32> {blk.arg = #blk.arg<input "q">, blk.divisibility = 16 : i64},
                %k: !blk.ptr<f32> {blk.arg = #blk.arg<input "k", inner_by_cols>, blk.divisibility = 16 : i64},
                %v: !blk.ptr<f32> {blk.arg = #blk.arg<input "v", inner_by_cols>, blk.divisibility = 16 : i64},
                %do: !blk.ptr<f32> {blk.arg = #blk.arg<input "do">, blk.divisibility = 16 : i64},
                %lse: !blk.ptr<f32> {blk.arg = #blk.arg<input "lse", per_row>, blk.keep_f32},
                %q_stride: i32 {blk.arg = #blk.arg<row_stride "q">},
                %k_stride: i32 {blk.arg = #blk.arg<row_stride "k">},
                %v_stride: i32 {blk.arg = #blk.arg<row_stride "v">},
                %do_stride: i32 {blk.arg = #blk.arg<row_stride "do">},
                %dq_stride: i32 {blk.arg = #blk.arg<row_stride "dq">},
                %q_batch: i64 {blk.arg = #blk.arg<batch_stride "q">, blk.divisibility = 16 : i64},
                %k_batch: i64 {blk.arg = #blk.arg<batch_stride "k">, blk.divisibility = 16 : i64},
                %v_batch: i64 {blk.arg = #blk.arg<batch_stride "v">, blk.divisibility = 16 : i64},
                %do_batch: i64 {blk.arg = #blk.arg<batch_stride "do">, blk.divisibility = 16 : i64},
                %dq_batch: i64 {blk.arg = #blk.arg<batch_stride "dq">, blk.divisibility = 16 : i64},
                %lse_batch: i64 {blk.arg = #blk.arg<batch_stride "lse">},
                %delta_batch: i64 {blk.arg = #blk.arg<batch_stride "delta">},
                %q_head: i64 {blk.arg = #blk.arg<head_stride "q">, blk.divisibility = 16 : i64},
                %k_head: i64 {blk.arg = #blk.arg<head_stride "k">, blk.divisibility = 16 : i64},
                %v_head: i64 {blk.arg = #blk.arg<head_stride "v">, blk.divisibility = 16 : i64},
                %do_head: i64 {blk.arg = #blk.arg<head_stride "do">, blk.divisibility = 16 : i64},
                %dq_head: i64 {blk.arg = #blk.arg<head_stride "dq">, blk.divisibility = 16 : i64},
                %lse_head: i64 {blk.arg = #blk.arg<head_stride "lse">},
                %delta_head: i64 {blk.arg = #blk.arg<head_stride "delta">},
                %scale: f32 {blk.arg = #blk.arg<param "scale">},
                %n_q: i32 {blk.arg = #blk.arg<rows>},
                %n_kv: i32 {blk.arg = #blk.arg<inner>},
                %batch: i32 {blk.arg = #blk.arg<batch>},
                %heads: i32 {blk.arg = #blk.arg<heads>})
      attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = HEAD_DIM, rows_per_program = ROWS, inner_block = KV>} {
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
    %do_b = arith.muli %b64, %do_batch : i64
    %do_h = arith.muli %h64, %do_head : i64
    %do_start = arith.addi %do_b, %do_h : i64
    %do_base = blk.addptr %do, %do_start : !blk.ptr<f32>, i64
    %dq_b = arith.muli %b64, %dq_batch : i64
    %dq_h = arith.muli %h64, %dq_head : i64
    %dq_start = arith.addi %dq_b, %dq_h : i64
    %dq_base = blk.addptr %dq, %dq_start : !blk.ptr<f32>, i64
    %lse_b = arith.muli %b64, %lse_batch : i64
    %lse_h = arith.muli %h64, %lse_head : i64
    %lse_start = arith.addi %lse_b, %lse_h : i64
    %lse_base = blk.addptr %lse, %lse_start : !blk.ptr<f32>, i64
    %delta_b = arith.muli %b64, %delta_batch : i64
    %delta_h = arith.muli %h64, %delta_head : i64
    %delta_start = arith.addi %delta_b, %delta_h : i64
    %delta_base = blk.addptr %delta, %delta_start : !blk.ptr<f32>, i64

    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    %log2e = arith.constant 1.44269504 : f32
    %qk_scale = arith.mulf %scale, %log2e : f32
    %tile_rows = blk.constexpr ROWS : i32
    %first_row = arith.muli %tile, %tile_rows : i32

    // The program's query rows (ROWS x 1) and the head dimension.
    %local_rows = blk.arange 0 to ROWS : tensor<?xi32>
    %first = blk.splat %first_row [ROWS] : i32 -> tensor<?xi32>
    %rows = arith.addi %local_rows, %first : tensor<?xi32>
    %rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
    %nq_col = blk.splat %n_q [ROWS, 1] : i32 -> tensor<?x1xi32>
    %row_ok = arith.cmpi slt, %rows_col, %nq_col : tensor<?x1xi32>
    %row_ok_2d = blk.broadcast %row_ok [ROWS, HEAD_DIM] : tensor<?x1xi1> -> tensor<?x?xi1>
    %ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
    %ds_row = blk.expand_dims %ds axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %ds_2d = blk.broadcast %ds_row [ROWS, HEAD_DIM] : tensor<1x?xi32> -> tensor<?x?xi32>

    // Q and dO, ROWS x HEAD_DIM, and each row's lse (log2 units) and delta,
    // loaded once.
    %q_stride_col = blk.splat %q_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
    %q_starts = arith.muli %rows_col, %q_stride_col : tensor<?x1xi32>
    %q_starts_2d = blk.broadcast %q_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
    %q_offsets = arith.addi %q_starts_2d, %ds_2d : tensor<?x?xi32>
    %q_tile = blk.load %q_base[%q_offsets] mask %row_ok_2d other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %do_stride_col = blk.splat %do_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
    %do_starts = arith.muli %rows_col, %do_stride_col : tensor<?x1xi32>
    %do_starts_2d = blk.broadcast %do_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
    %do_offsets = arith.addi %do_starts_2d, %ds_2d : tensor<?x?xi32>
    %do_tile = blk.load %do_base[%do_offsets] mask %row_ok_2d other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
    %nq_v = blk.splat %n_q [ROWS] : i32 -> tensor<?xi32>
    %rows_ok = arith.cmpi slt, %rows, %nq_v : tensor<?xi32>
    %lse_rows = blk.load %lse_base[%rows] mask %rows_ok other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %log2e_v = blk.splat %log2e [ROWS] : f32 -> tensor<?xf32>
    %lse2 = arith.mulf %lse_rows, %log2e_v : tensor<?xf32>
    %lse2_col = blk.expand_dims %lse2 axis 1 : tensor<?xf32> -> tensor<?x1xf32>
    %lse2_2d = blk.broadcast %lse2_col [ROWS, KV] : tensor<?x1xf32> -> tensor<?x?xf32>
    %delta_rows = blk.load %delta_base[%rows] mask %rows_ok other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %delta_col = blk.expand_dims %delta_rows axis 1 : tensor<?xf32> -> tensor<?x1xf32>
    %delta_2d = blk.broadcast %delta_col [ROWS, KV] : tensor<?x1xf32> -> tensor<?x?xf32>

    // Index blocks of the loop: K^T's and V^T's (HEAD_DIM x KV), the
    // scores' keys (1 x KV), K's rows (KV x 1) and head dimension.
    %t_ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
    %t_ds_col = blk.expand_dims %t_ds axis 1 : tensor<?xi32> -> tensor<?x1xi32>
    %t_js = blk.arange 0 to KV : tensor<?xi32>
    %t_js_row = blk.expand_dims %t_js axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %s_js = blk.arange 0 to KV : tensor<?xi32>
    %s_js_row = blk.expand_dims %s_js axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %n_js = blk.arange 0 to KV : tensor<?xi32>
    %n_js_col = blk.expand_dims %n_js axis 1 : tensor<?xi32> -> tensor<?x1xi32>
    %n_ds = blk.arange 0 to HEAD_DIM : tensor<?xi32>
    %n_ds_row = blk.expand_dims %n_ds axis 0 : tensor<?xi32> -> tensor<1x?xi32>
    %s_rows_col = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>

    // Causal: the keys up to the program's last query row.
    %causal = blk.constexpr CAUSAL : i32
    %is_causal = arith.cmpi ne, %causal, %c0 : i32
    %past_last = arith.addi %first_row, %tile_rows : i32
    %diagonal_end = arith.minsi %past_last, %n_kv : i32
    %kv_end = arith.select %is_causal, %diagonal_end, %n_kv : i32
    %causal_2d = blk.splat %is_causal [ROWS, KV] : i1 -> tensor<?x?xi1>
    %zero_2d = blk.splat %zero [ROWS, KV] : f32 -> tensor<?x?xf32>
    %qk_scale_2d = blk.splat %qk_scale [ROWS, KV] : f32 -> tensor<?x?xf32>
    %nkv_row = blk.splat %n_kv [1, KV] : i32 -> tensor<1x?xi32>
    %nkv_col = blk.splat %n_kv [KV, 1] : i32 -> tensor<?x1xi32>
    %kv_step = blk.constexpr KV : i32
    %first_row_end = arith.addi %first_row, %c1 : i32

    %dq0 = blk.splat %zero [ROWS, HEAD_DIM] : f32 -> tensor<?x?xf32>
    %dq_sum = scf.for %j0 = %c0 to %kv_end step %kv_step
        iter_args(%dq_in = %dq0) -> (tensor<?x?xf32>) : i32 {
      // K^T[d][j0 + jj] and V^T, HEAD_DIM x KV: S = Q K^T, dP = dO V^T.
      %j0_row = blk.splat %j0 [1, KV] : i32 -> tensor<1x?xi32>
      %t_js_abs = arith.addi %t_js_row, %j0_row : tensor<1x?xi32>
      %t_j_ok = arith.cmpi slt, %t_js_abs, %nkv_row : tensor<1x?xi32>
      %t_mask = blk.broadcast %t_j_ok [HEAD_DIM, KV] : tensor<1x?xi1> -> tensor<?x?xi1>
      %t_ds_2d = blk.broadcast %t_ds_col [HEAD_DIM, KV] : tensor<?x1xi32> -> tensor<?x?xi32>
      %k_stride_row = blk.splat %k_stride [1, KV] : i32 -> tensor<1x?xi32>
      %kt_starts = arith.muli %t_js_abs, %k_stride_row : tensor<1x?xi32>
      %kt_starts_2d = blk.broadcast %kt_starts [HEAD_DIM, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
      %kt_offsets = arith.addi %kt_starts_2d, %t_ds_2d : tensor<?x?xi32>
      %kt = blk.load %k_base[%kt_offsets] mask %t_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
      %s = blk.dot %q_tile, %kt, %zero_2d : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
      %s_scaled = arith.mulf %s, %qk_scale_2d fastmath<contract> : tensor<?x?xf32>
      %s_shifted = arith.subf %s_scaled, %lse2_2d fastmath<contract> : tensor<?x?xf32>
      %p_all = math.exp2 %s_shifted : tensor<?x?xf32>
      // Zero for keys past n_kv and, causal, past the row.
      %tile_end = arith.addi %j0, %kv_step : i32
      %past_n_kv = arith.cmpi sgt, %tile_end, %n_kv : i32
      %past_first_row = arith.cmpi sgt, %tile_end, %first_row_end : i32
      %on_diagonal = arith.andi %past_first_row, %is_causal : i1
      %needs_mask = arith.ori %past_n_kv, %on_diagonal : i1
      %p = scf.if %needs_mask -> (tensor<?x?xf32>) {
        %s_js_abs = arith.addi %s_js_row, %j0_row : tensor<1x?xi32>
        %s_j_ok = arith.cmpi slt, %s_js_abs, %nkv_row : tensor<1x?xi32>
        %s_in = blk.broadcast %s_j_ok [ROWS, KV] : tensor<1x?xi1> -> tensor<?x?xi1>
        %s_cols = blk.broadcast %s_js_abs [ROWS, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
        %s_rows = blk.broadcast %s_rows_col [ROWS, KV] : tensor<?x1xi32> -> tensor<?x?xi32>
        %future = arith.cmpi sgt, %s_cols, %s_rows : tensor<?x?xi32>
        %masked = arith.andi %future, %causal_2d : tensor<?x?xi1>
        %p_masked_all = arith.select %masked, %zero_2d, %p_all : tensor<?x?xi1>, tensor<?x?xf32>
        %p_masked = arith.select %s_in, %p_masked_all, %zero_2d : tensor<?x?xi1>, tensor<?x?xf32>
        scf.yield %p_masked : tensor<?x?xf32>
      } else {
        scf.yield %p_all : tensor<?x?xf32>
      }
      %v_stride_row = blk.splat %v_stride [1, KV] : i32 -> tensor<1x?xi32>
      %vt_starts = arith.muli %t_js_abs, %v_stride_row : tensor<1x?xi32>
      %vt_starts_2d = blk.broadcast %vt_starts [HEAD_DIM, KV] : tensor<1x?xi32> -> tensor<?x?xi32>
      %vt_offsets = arith.addi %vt_starts_2d, %t_ds_2d : tensor<?x?xi32>
      %vt = blk.load %v_base[%vt_offsets] mask %t_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
      %dp = blk.dot %do_tile, %vt, %zero_2d : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
      %dp_centered = arith.subf %dp, %delta_2d : tensor<?x?xf32>
      %ds_tile = arith.mulf %p, %dp_centered : tensor<?x?xf32>

      // K[j0 + jj][d], KV x HEAD_DIM, and dQ += dS K.
      %j0_col = blk.splat %j0 [KV, 1] : i32 -> tensor<?x1xi32>
      %n_js_abs = arith.addi %n_js_col, %j0_col : tensor<?x1xi32>
      %n_j_ok = arith.cmpi slt, %n_js_abs, %nkv_col : tensor<?x1xi32>
      %n_mask = blk.broadcast %n_j_ok [KV, HEAD_DIM] : tensor<?x1xi1> -> tensor<?x?xi1>
      %n_ds_2d = blk.broadcast %n_ds_row [KV, HEAD_DIM] : tensor<1x?xi32> -> tensor<?x?xi32>
      %k_stride_col = blk.splat %k_stride [KV, 1] : i32 -> tensor<?x1xi32>
      %k_starts = arith.muli %n_js_abs, %k_stride_col : tensor<?x1xi32>
      %k_starts_2d = blk.broadcast %k_starts [KV, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
      %k_offsets = arith.addi %k_starts_2d, %n_ds_2d : tensor<?x?xi32>
      %k_tile = blk.load %k_base[%k_offsets] mask %n_mask other %zero : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
      %dq_new = blk.dot %ds_tile, %k_tile, %dq_in : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
      scf.yield %dq_new : tensor<?x?xf32>
    }

    %scale_2d = blk.splat %scale [ROWS, HEAD_DIM] : f32 -> tensor<?x?xf32>
    %dq_scaled = arith.mulf %dq_sum, %scale_2d : tensor<?x?xf32>
    %dq_stride_col = blk.splat %dq_stride [ROWS, 1] : i32 -> tensor<?x1xi32>
    %dq_starts = arith.muli %rows_col, %dq_stride_col : tensor<?x1xi32>
    %dq_starts_2d = blk.broadcast %dq_starts [ROWS, HEAD_DIM] : tensor<?x1xi32> -> tensor<?x?xi32>
    %dq_offsets = arith.addi %dq_starts_2d, %ds_2d : tensor<?x?xi32>
    blk.store %dq_base[%dq_offsets], %dq_scaled mask %row_ok_2d : !blk.ptr<f32>, tensor<?x?xi32>, tensor<?x?xf32>
    return
  }
}
