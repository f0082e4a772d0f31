// REQUIRES: cuda-gpu
// blk-sink-to-uses (--sink-to-uses, the default) on the GPU: the
// normalizations whose weight and bias it loads run by run between the
// stores (f32, and bf16 from 8 warps), checked against the float64
// reference with special values.
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --sink-to-uses --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 4096 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --sink-to-uses --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 12288 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --sink-to-uses --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 1000 --special
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --sink-to-uses --check --reference rms_norm --param eps=1e-6 --rows 64 --cols 16384 --special
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --sink-to-uses --check --reference rms_norm --param eps=1e-6 --rows 64 --cols 8192 --dtype bf16 --special
