// REQUIRES: cuda-gpu
// Fused attention backward (python-free-examples/attention_bwd.mlir) on
// the GPU, checked against the float64 attention_backward reference: the
// four products of @dkdv and the three of @dq on tensor cores (wgmma on
// sm_90a, mma.sync on sm_80 code), P^T and dS^T given to the next product
// from registers; sequence lengths past the tiles, more keys than queries
// and fewer, causal masking, [B, S, H, D] strides, special values in Q,
// f16 and bf16, head_dim 64 and 128, and f32 (f32 products). A failed
// check exits non-zero.
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --batch 2 --heads 3 --rows 1000 --inner 1000 --cols 64 --dtype bf16 --const CAUSAL=0 --param scale=0.125 --check
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --batch 2 --heads 3 --rows 1000 --inner 1000 --cols 128 --dtype bf16 --const CAUSAL=1 --param scale=0.088 --check
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --batch 1 --heads 2 --rows 4097 --inner 4097 --cols 128 --dtype f16 --const CAUSAL=1 --param scale=0.088 --check --special
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --batch 1 --heads 2 --rows 300 --inner 700 --cols 64 --dtype bf16 --const CAUSAL=1 --param scale=0.125 --check
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --batch 1 --heads 2 --rows 700 --inner 300 --cols 128 --dtype bf16 --const CAUSAL=0 --param scale=0.088 --check
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --batch 2 --heads 3 --rows 300 --inner 300 --cols 64 --dtype bf16 --const CAUSAL=1 --param scale=0.125 --layout bshd --check --special
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --batch 1 --heads 2 --rows 200 --inner 300 --cols 64 --dtype f32 --const CAUSAL=1 --param scale=0.125 --check
// sm_80 code on this GPU (mma.sync):
// RUN: softmax-run %examples/attention_bwd.mlir --target gpu --chip sm_80 --batch 1 --heads 2 --rows 1000 --inner 1000 --cols 128 --dtype bf16 --const CAUSAL=1 --param scale=0.088 --check
