// python-free-examples/layer_norm.mlir on the CPU against the float64
// (x - mean) * rsqrt(var + eps) * weight + bias, the biased variance
// (--reference layer_norm); --special rows: a NaN, +-inf, zeros, tiny values.
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 1000 | FileCheck %s
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 17 --cols 4097 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 300 --dtype f16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 1 --cols 1
// Rows far from zero against their spread (means 10 to 30, spread 0.3)
// and a row with an outlier channel (spread 1, its first element 300):
// the two-pass formula keeps them within f32's tolerance (relative L2
// 1.5e-6), where E[x^2] - E[x]^2 fails (2.5e-4) and so do sums shifted
// by the row's first element (4.4e-5).
// RUN: rm -rf %t && mkdir -p %t && python3 %S/Inputs/make-npy.py %t
// RUN: softmax-run %examples/layer_norm.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --input %t/offset.npy | FileCheck %s --check-prefix=OFFSET
// OFFSET: check: {{.*}} OK
// CHECK: layer_norm.mlir: 64 x 1000 f32
// CHECK: check: {{.*}} OK
