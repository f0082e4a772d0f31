// python-free-examples/layer_norm.mlir on the CPU against the float64
// (x - mean) * rsqrt(var + eps) * weight + bias, the biased variance
// (--reference layer_norm); --special rows: a NaN, +-inf, zeros, tiny values.
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 1000 | FileCheck %s
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 17 --cols 4097 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 300 --dtype f16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 1 --cols 1
// Rows far from zero against their spread (means 10 to 40, spread 0.3;
// one row's first element, the shift, 100 spreads away): the shifted sums
// keep the result within f32's tolerance (relative L2 2.7e-6), where
// E[x^2] - E[x]^2 would not (4e-4).
// RUN: rm -rf %t && mkdir -p %t && python3 %S/Inputs/make-npy.py %t
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --input %t/offset.npy | FileCheck %s --check-prefix=OFFSET
// OFFSET: check: {{.*}} OK
// CHECK: layer_norm.mlir: 64 x 1000 f32
// CHECK: check: {{.*}} OK
