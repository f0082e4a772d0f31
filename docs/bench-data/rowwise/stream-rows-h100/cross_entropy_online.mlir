// Cross-entropy forward, streamed: one program walks its row in tiles,
// keeping a running (max, sum of exps) per lane (Milakov & Gimelshein), then
// combines the lanes; loss = lse - x[label]. Read-only: nothing is held.
func.func @cross_entropy_online(%loss: !blk.ptr<f32> {blk.arg = #blk.arg<output "loss", per_row>},
                         %lse: !blk.ptr<f32> {blk.arg = #blk.arg<output "lse", per_row>},
                         %logits: !blk.ptr<f32> {blk.arg = #blk.arg<input "logits">, blk.divisibility = 16 : i64},
                         %labels: !blk.ptr<i64> {blk.arg = #blk.arg<input "labels", per_row>},
                         %ignore_index: i64 {blk.arg = #blk.arg<param "ignore_index">},
                         %logits_row_stride: i32 {blk.arg = #blk.arg<row_stride "logits">, blk.divisibility = 16 : i64},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, row_block = BLOCK>} {
  %row = blk.program_id x
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i32
  %block = blk.constexpr BLOCK : i32
  %tile = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %ninf_block = blk.splat %ninf [BLOCK] : f32 -> tensor<?xf32>
  %zero_block = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>

  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %label_block = blk.load %labels[%here] : !blk.ptr<i64>, tensor<1xi32> -> tensor<1xi64>
  %label = blk.reduce sum %label_block axis 0 : tensor<1xi64> -> i64

  %start = arith.muli %row, %logits_row_stride : i32
  %row_ptr = blk.addptr %logits, %start : !blk.ptr<f32>, i32

  %label_col = arith.trunci %label : i64 to i32
  %label_offset = blk.splat %label_col [1] : i32 -> tensor<1xi32>
  %c0_64 = arith.constant 0 : i64
  %n_wide = arith.extsi %n_cols : i32 to i64
  %at_least_0 = arith.cmpi sge, %label, %c0_64 : i64
  %below_n = arith.cmpi slt, %label, %n_wide : i64
  %in_row = arith.andi %at_least_0, %below_n : i1
  %in_row_block = blk.splat %in_row [1] : i1 -> tensor<1xi1>
  %label_x = blk.load %row_ptr[%label_offset] mask %in_row_block other %zero
      : !blk.ptr<f32>, tensor<1xi32> -> tensor<1xf32>
  %label_logit = blk.reduce sum %label_x axis 0 : tensor<1xf32> -> f32

  %m, %s = scf.for %first = %c0 to %n_cols step %block
      iter_args(%m_acc = %ninf_block, %s_acc = %zero_block)
      -> (tensor<?xf32>, tensor<?xf32>) : i32 {
    %first_block = blk.splat %first [BLOCK] : i32 -> tensor<?xi32>
    %cols = arith.addi %tile, %first_block : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
    %x = blk.load %row_ptr[%cols] mask %in_bounds other %ninf
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
  %max = blk.reduce max %m axis 0 : tensor<?xf32> -> f32
  %none = arith.cmpf oeq, %max, %ninf : f32
  %max_shift = arith.select %none, %zero, %max : f32
  %max_block = blk.splat %max_shift [BLOCK] : f32 -> tensor<?xf32>
  %lane_shift = arith.subf %m, %max_block : tensor<?xf32>
  %lane_scale = math.exp %lane_shift : tensor<?xf32>
  %lane_sums = arith.mulf %s, %lane_scale : tensor<?xf32>
  %sum = blk.reduce sum %lane_sums axis 0 : tensor<?xf32> -> f32
  %log_sum = math.log %sum : f32
  %logsumexp = arith.addf %max, %log_sum : f32

  %row_loss = arith.subf %logsumexp, %label_logit : f32
  %ignored = arith.cmpi eq, %label, %ignore_index : i64
  %loss_value = arith.select %ignored, %zero, %row_loss : f32
  %loss_block = blk.splat %loss_value [1] : f32 -> tensor<1xf32>
  blk.store %loss[%here], %loss_block : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  %lse_block = blk.splat %logsumexp [1] : f32 -> tensor<1xf32>
  blk.store %lse[%here], %lse_block : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
