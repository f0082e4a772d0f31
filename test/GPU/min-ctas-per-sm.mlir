// REQUIRES: cuda-gpu
// min_ctas_per_sm (.minnctapersm) on the GPU: the kernels ptxas then
// squeezes into fewer registers (layer_norm bf16 12288 on 16 warps: 69 ->
// 64, with spills at 16384 and in f32), checked against the float64
// reference with special values: asked for, and as the binding rules ask
// for it (16-bit norms on 16 warps, and LayerNorm's on 16 CTAs of 8 warps).
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 16384 --dtype bf16 --special --verbose > %t.rules.log
// RUN: grep "ctas/sm=2" %t.rules.log
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 262144 --dtype bf16 --special --verbose > %t.cluster.log
// RUN: grep "warps=8 ctas=16 ctas/sm=2" %t.cluster.log
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 64 --cols 12288 --dtype f16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --min-ctas-per-sm 2 --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 12288 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --min-ctas-per-sm 2 --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 16384 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --min-ctas-per-sm 2 --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 12288 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --min-ctas-per-sm 2 --check --reference log_softmax --rows 64 --cols 50257 --dtype bf16 --special
