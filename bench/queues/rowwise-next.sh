# bench/device-queue.sh queue: what issue 39 (the row-wise family) waits on.
# Experiments (scripts/make-experiment.sh, from the repository root):
#   scripts/make-experiment.sh next \
#     docs/bench-data/rowwise/causal-peel/causal-peel.diff \
#     docs/bench-data/rowwise/stream-rows-h100/one-exp-step.diff -- \
#     docs/bench-data/rowwise/layer-norm-probe/ln_*.mlir
# and the bundle of the tree (scripts/make-bundle.sh). One call:
#   carry .bundle/blk-bundle.tar.xz and .bundle/experiments;
#   bench/device-queue.sh bench/queues/rowwise-next.sh 570
# On an H200 the family table comes first (docs/benchmarks.md has none for
# it); on an H100 the A/Bs, the table last in what time is left. The steps'
# caps add to about 1000 s: two calls, the second with SKIP= naming the
# steps the first finished (queue.log says which).

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

# Held against streamed (blk-stream-rows) against streamed with one exp a
# step, cross_entropy f32 and bf16: whether 16-bit rows should stream.
stream_ab() {
  python3 bench/ab.py --check --program examples/cross_entropy.mlir \
    --flags "--param ignore_index=-100" \
    --variant held=:"--stream-rows never" --variant stream=:"--stream-rows always" \
    --variant one_exp=$EXP/next/softmax-run:"--stream-rows always" \
    --shapes 4096x128256,4096x256000,1024x131072,4096x32000 --dtypes bf16,f32 --rounds 2
}

# The causal scaled softmax peeled (the mask as a bound, causal-peel.diff)
# against main: unaligned rows gain vectors, aligned ones rise in registers.
causal_ab() {
  python3 bench/ab.py --check --program examples/softmax_scaled_masked.mlir \
    --flags "--const CAUSAL=1 --param scale=0.125,offset=0" \
    --variant main=: --variant peel=$EXP/next/softmax-run:"--program $EXP/next/examples/softmax_scaled_masked.mlir" \
    --shapes 4096x50257,4096x50256,256x262144,4096x32001,4096x4096 --dtypes bf16,f32 --rounds 2
}

# The bindings of the two 50257-column bf16 misses beside the rules'.
knobs_ab() {
  python3 bench/ab.py --check --program examples/rms_norm.mlir --flags "--param eps=1e-5" \
    --rounds 2 --shapes 4096x50257 --dtypes bf16 --variant rules=: \
    --variant w4c16=:"--num-warps 4 --num-ctas 16" --variant w8c8=:"--num-warps 8 --num-ctas 8"
  python3 bench/ab.py --check --program examples/softmax_backward.mlir \
    --rounds 2 --shapes 4096x50257 --dtypes bf16 --variant rules=: \
    --variant w8c4=:"--num-warps 8 --num-ctas 4" --variant w4c16=:"--num-warps 4 --num-ctas 16"
}

# Rows peeled by blk-peel-alignment kept in shared memory too
# (--stage-peeled-rows): softmax_fused on its rules' 8-warp clusters, and
# rms_norm on 8-warp CTAs (its rules' 4-warp CTAs keep no rows).
stage_peeled_ab() {
  python3 bench/ab.py --check --program examples/softmax_fused.mlir --rounds 2 \
    --shapes 4096x50257,333x100003 --dtypes bf16 --variant rules=: \
    --variant staged=:"--stage-peeled-rows"
  python3 bench/ab.py --check --program examples/rms_norm.mlir --flags "--param eps=1e-5" \
    --rounds 2 --shapes 4096x50257 --dtypes bf16 --variant rules=: \
    --variant w8c4=:"--num-warps 8 --num-ctas 4" \
    --variant w8c4_staged=:"--num-warps 8 --num-ctas 4 --stage-peeled-rows"
}

# What bounds layer_norm's long rows (docs/bench-data/rowwise/layer-norm-probe/).
layer_norm_probes() {
  cp $EXP/next/ln_*.mlir examples/
  python3 bench/ab.py --check --program examples/layer_norm.mlir --flags "--param eps=1e-5" \
    --rounds 2 --shapes 4096x50257,256x262144,4096x16384 --dtypes bf16,f32 --variant rules=: \
    --variant early=:"--program examples/ln_early.mlir" \
    --variant nobias=:"--program examples/ln_nobias.mlir" \
    --variant onepass=:"--program examples/ln_onepass.mlir" \
    --variant rms=:"--program examples/rms_norm.mlir" \
    --variant persist=:"--program examples/ln_persist.mlir"
}

# The GPU tests of what changed since the last GPU session: peeled rows
# kept (--stage-peeled-rows), the streamed rows, the causal mask.
gpu_tests() {
  ./run-gpu-tests.sh --filter "peel-alignment|stream-rows|softmax_scaled_masked"
}

if on_h200; then
  step 330 family family_table
fi
step 90 gpu_tests gpu_tests
step 150 stream stream_ab
step 120 causal causal_ab
step 60 knobs knobs_ab
step 60 stage_peeled stage_peeled_ab
step 200 lnprobe layer_norm_probes
if ! on_h200; then
  step 330 family family_table
fi
