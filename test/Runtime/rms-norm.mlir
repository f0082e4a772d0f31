// python-free-examples/rms_norm.mlir on the CPU against the float64
// x * rsqrt(mean(x^2) + eps) * weight (--reference rms_norm); --special
// rows: a NaN, +-inf, zeros, and values so small that eps dominates.
// RUN: softmax-run %examples/rms_norm.mlir --target cpu --check --reference rms_norm --param eps=1e-6 --rows 64 --cols 1000 | FileCheck %s
// RUN: softmax-run %examples/rms_norm.mlir --target cpu --check --reference rms_norm --param eps=1e-6 --rows 17 --cols 4097 --special
// RUN: softmax-run %examples/rms_norm.mlir --target cpu --check --reference rms_norm --param eps=1e-5 --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/rms_norm.mlir --target cpu --check --reference rms_norm --param eps=1e-5 --rows 33 --cols 300 --dtype f16 --special
// RUN: softmax-run %examples/rms_norm.mlir --target cpu --check --reference rms_norm --param eps=1e-6 --rows 1 --cols 1
// CHECK: rms_norm.mlir: 64 x 1000 f32
// CHECK: check: {{.*}} OK
