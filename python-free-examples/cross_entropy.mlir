// Cross-entropy forward, fused: one program per row of logits, the row held
// in registers. Per row, lse = max + log(sum(exp(x - max))) and
// loss = lse - x[label]: torch.nn.functional.cross_entropy(reduction='none')
// on int64 labels, with the logsumexp kept for the backward pass (as QuACK's
// and Liger's kernels keep it). A row whose label is ignore_index has loss
// 0. The row is read once; the label and the label's logit are blocks of
// one element that every thread reads (broadcast loads, the logit an L2
// hit). Labels outside [0, cols) are the caller's error (torch raises); the
// kernel then gives loss = lse.
//
//   softmax-run cross_entropy.mlir --rows 4096 --cols 50257 --param ignore_index=-100 --reference cross_entropy --check

func.func @cross_entropy(%loss: !blk.ptr<f32> {blk.arg = #blk.arg<output "loss", per_row>},
                         %lse: !blk.ptr<f32> {blk.arg = #blk.arg<output "lse", per_row>},
                         %logits: !blk.ptr<f32> {blk.arg = #blk.arg<input "logits">, blk.divisibility = 16 : i64},
                         %labels: !blk.ptr<i64> {blk.arg = #blk.arg<input "labels", per_row>},
                         %ignore_index: i64 {blk.arg = #blk.arg<param "ignore_index">},
                         %logits_row_stride: i32 {blk.arg = #blk.arg<row_stride "logits">, blk.divisibility = 16 : i64},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32

  // The row's label: a block of one element, at offset `row`.
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %label_block = blk.load %labels[%here] : !blk.ptr<i64>, tensor<1xi32> -> tensor<1xi64>
  %label = blk.reduce sum %label_block axis 0 : tensor<1xi64> -> i64

  %start = arith.muli %row, %logits_row_stride : i32
  %row_ptr = blk.addptr %logits, %start : !blk.ptr<f32>, i32
  %x = blk.load %row_ptr[%cols] mask %in_bounds other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>

  // x[label]: one element, read again by every thread (an L1 or L2 hit),
  // which costs less than a third reduction over the row; read before the
  // reductions, so that its latency hides behind them. An ignored row or a
  // label outside the row reads nothing.
  %label_col = arith.trunci %label : i64 to i32
  %label_offset = blk.splat %label_col [1] : i32 -> tensor<1xi32>
  %c0 = arith.constant 0 : i64
  %n_wide = arith.extsi %n_cols : i32 to i64
  %at_least_0 = arith.cmpi sge, %label, %c0 : i64
  %below_n = arith.cmpi slt, %label, %n_wide : i64
  %in_row = arith.andi %at_least_0, %below_n : i1
  %in_row_block = blk.splat %in_row [1] : i1 -> tensor<1xi1>
  %label_x = blk.load %row_ptr[%label_offset] mask %in_row_block other %zero
      : !blk.ptr<f32>, tensor<1xi32> -> tensor<1xf32>
  %label_logit = blk.reduce sum %label_x axis 0 : tensor<1xf32> -> f32

  %max = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %x, %max_block : tensor<?xf32>
  %e = math.exp %shifted : tensor<?xf32>
  %sum = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
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
