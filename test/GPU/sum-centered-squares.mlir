// REQUIRES: cuda-gpu
// A row's sum and its squares about the mean in one exchange on the GPU:
// blk.sum_centered_squares written by hand (Inputs/) on one warp (lanes
// only), 8 warps, a cluster of 4 and one of 16 (whose lanes share the
// reads), and formed by blk-combine-centered-squares in the example
// (--combine-centered-squares: rows no multiple of 8, peeled; a cluster;
// rows of 262144), each checked
// against the float64 layer_norm, special values included (a NaN, +-inf,
// zeros, tiny values). The rows far from zero against their spread
// (make-npy.py's offset.npy: means 10 to 30, spread 0.3, an outlier
// channel) keep f32's tolerance: each thread's squares are about its own
// mean, merged as Chan's.
// RUN: rm -rf %t && mkdir -p %t && python3 %S/../Runtime/Inputs/make-npy.py %t
// RUN: softmax-run %S/Inputs/layer_norm_sum_centered_squares.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 1000 --num-warps 1 --special
// RUN: softmax-run %S/Inputs/layer_norm_sum_centered_squares.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 77 --cols 4097 --num-warps 8 --special
// RUN: softmax-run %S/Inputs/layer_norm_sum_centered_squares.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 21 --cols 30001 --num-warps 4 --num-ctas 4 --special
// RUN: softmax-run %S/Inputs/layer_norm_sum_centered_squares.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 40 --cols 65536 --dtype bf16 --num-warps 4 --num-ctas 16 --special
// RUN: softmax-run %S/Inputs/layer_norm_sum_centered_squares.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --num-warps 8 --input %t/offset.npy
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --combine-centered-squares --check --reference layer_norm --param eps=1e-5 --rows 512 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --combine-centered-squares --check --reference layer_norm --param eps=1e-5 --rows 77 --cols 50257 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --combine-centered-squares --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 262144 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --combine-centered-squares --check --reference layer_norm --param eps=1e-5 --num-warps 16 --input %t/offset.npy
