// python-free-examples/layer_norm.mlir on the CPU against the float64
// (x - mean) * rsqrt(var + eps) * weight + bias, the biased variance
// (--reference layer_norm); --special rows: a NaN, +-inf, zeros, tiny values.
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 1000 | FileCheck %s
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 17 --cols 4097 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 300 --dtype f16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 1 --cols 1
// CHECK: layer_norm.mlir: 64 x 1000 f32
// CHECK: check: {{.*}} OK
