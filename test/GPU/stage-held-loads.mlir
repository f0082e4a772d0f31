// REQUIRES: cuda-gpu
// 16-bit rows of 24576 to 32768 elements on one CTA are kept in shared
// memory across the reductions (blk-stage-held-loads): each thread writes
// its elements and reads them back after every reduction, in dynamic
// shared memory past the 48 KiB static limit. Checked against the
// double-precision references, with masks, special values, a persistent
// loop that reuses the buffer row after row, and the rows held in
// registers (--stage-min-registers 0) for comparison.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 512 --cols 32768 --dtype bf16 --verbose | grep "B dynamic shared"
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 77 --cols 30000 --dtype f16 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 512 --cols 32768 --dtype bf16 --stage-min-registers 0 --verbose > %t.held.log
// RUN: not grep "dynamic shared" %t.held.log
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 2000 --cols 24576 --dtype bf16 --verbose | grep "B dynamic shared"
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 333 --cols 32768 --dtype bf16 --special --verbose | grep "B dynamic shared"
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 333 --cols 24576 --dtype bf16 --special
// Rows of 13 runs of 16 bytes a thread are filled by cp.async
// (blk-async-fill), on clusters, with the -inf of the runs past a padded
// row; --async-fill-min-runs 1 fills every kept row so (one CTA, masked
// f16 rows).
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 333 --cols 100000 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 256 --cols 200000 --dtype f16 --special
// f32 rows so copied are kept too (softmax, log_softmax, RMSNorm).
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 2048 --cols 128256 --dtype f32 --special --verbose | grep "B dynamic shared"
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 512 --cols 131072 --dtype f32 --special
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 333 --cols 100000 --dtype f32 --special --verbose | grep "B dynamic shared"
// The rules keep such rows on CTAs of 8 warps: bf16 262144 on 8 x 8 (16
// runs a thread, copied), f32 151936 on 8 x 8 rather than 16 x 4 in
// registers (enough rows that the fitted CTAs fill the GPU).
// RUN: softmax-run auto --target gpu --check --rows 64 --cols 262144 --dtype bf16 --special --verbose > %t.kept262k.log
// RUN: grep "BLOCK=262144 warps=8 ctas=8" %t.kept262k.log
// RUN: grep "B dynamic shared" %t.kept262k.log
// RUN: softmax-run log_softmax --target gpu --check --reference log_softmax --rows 300 --cols 151936 --special --verbose > %t.f32kept.log
// RUN: grep "BLOCK=155648 warps=8 ctas=8" %t.f32kept.log
// RUN: grep "B dynamic shared" %t.f32kept.log
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 512 --cols 32768 --dtype bf16 --special --async-fill-min-runs 1
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 77 --cols 30000 --dtype f16 --special --async-fill-min-runs 1
// A LayerNorm reads its weight and bias after the reductions, a
// cross-entropy needs its row only until its last reduction: they keep
// their rows in registers.
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 333 --cols 32768 --dtype bf16 --special --verbose > %t.cross_entropy.log
// RUN: not grep "dynamic shared" %t.cross_entropy.log
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 333 --cols 32768 --dtype bf16 --verbose > %t.layer_norm.log
// RUN: not grep "dynamic shared" %t.layer_norm.log
