// REQUIRES: cuda-gpu
// Tensors of more than 2^31 elements (LLM logits: bf16 32768 x 65537 is
// 2.15e9 elements) run with row offsets computed in 64 bits: the driver
// runs blk-widen-offsets for such problems only. Checked against the
// double-precision reference, like every GPU test.
// A 16-bit row that is not a whole number of vectors stays fused (peeled,
// on a cluster) up to 131072 columns; the split program takes it too.
// RUN: softmax-run auto --target gpu --check --rows 32768 --cols 65537 --dtype bf16 > %t.auto.log
// RUN: grep "softmax_fused.mlir" %t.auto.log
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 32768 --cols 65537 --dtype bf16
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 16385 --cols 131072 --dtype bf16
// A row stride that takes the input past 2^31 elements while the output
// stays under it.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 4 --cols 1000 --in-stride 600000000
