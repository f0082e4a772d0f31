// REQUIRES: cuda-gpu
// blk-hoist-combines (the default; --hoist-combines) on the GPU: the kernels whose
// reduction trees it reorders, checked against the float64 reference with
// special values (the reordered sums must give what the tree gave).
// log_softmax and cross_entropy on the peeled bf16 row of 50257 on 2 CTAs
// of 8 warps (log_softmax: 128 registers with it, 222 without), softmax on
// several warps, layer_norm's two sums, an f32 row on a cluster.
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --hoist-combines --check --reference log_softmax --rows 64 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --hoist-combines --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 50257 --dtype bf16 --special
// RUN: softmax-run softmax_fused --target gpu --hoist-combines --check --reference softmax --rows 77 --cols 8192 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --hoist-combines --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 12288 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --hoist-combines --check --reference log_softmax --rows 32 --cols 100003 --special
