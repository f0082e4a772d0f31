// REQUIRES: cuda-gpu
// blk-sink-to-uses (--sink-to-uses, the default) on the GPU: the
// normalizations whose weight and bias it loads run by run between the
// stores (f32, and bf16 from 8 warps), checked against the float64
// reference with special values.
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --sink-to-uses --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 4096 --special
// The rules' 8 warps for a 16-bit LayerNorm of up to 48 a thread there.
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --sink-to-uses --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 12288 --dtype bf16 --special --verbose > %t.12288.log
// RUN: grep "BLOCK=12288 warps=8," %t.12288.log
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --sink-to-uses --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 10240 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --sink-to-uses --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 1000 --special
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --sink-to-uses --check --reference rms_norm --param eps=1e-6 --rows 64 --cols 16384 --special
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --sink-to-uses --check --reference rms_norm --param eps=1e-6 --rows 64 --cols 8192 --dtype bf16 --special
