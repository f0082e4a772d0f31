// REQUIRES: cuda-gpu
// python-free-examples/layer_norm.mlir on the GPU against the float64
// reference (test/Runtime/layer-norm.mlir runs it on the CPU), and against
// its own CPU lowering (--reference cpu); 65536 columns run on a cluster.
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 4096 --cols 4096
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 77 --cols 4097 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 333 --cols 30000 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 65536
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference cpu --param eps=1e-5 --rows 100 --cols 1000 --dtype f16
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 1 --cols 1
// 16 warps, clusters of 8 and of 16 (whose lanes share the reads), on rows
// with infinities and NaN.
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 1000 --cols 12288 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 512 --cols 16384 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 100 --cols 65536 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 40 --cols 262144 --special
