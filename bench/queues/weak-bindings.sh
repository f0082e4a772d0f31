# bench/device-queue.sh queue: bindings other than the rules' on three
# cells of the H100 family table that miss the copy limit (bundle of
# 4cff655, docs/bench-data/rowwise/family-h100-4cff655/): layer_norm bf16
# 4096 x 12288 (90.9%, on 16 warps, two CTAs an SM), scaled_softmax bf16
# 256 x 262144 (49.8%, 8 CTAs of 8 warps), and the norms on bf16 rows of
# 50257 (layer_norm 38.6%, rms_norm 69.2%, 8 CTAs of 4 warps), three
# rounds each, checked; then Nsight Compute on scaled_softmax and
# layer_norm's cells:
#   bench/device-queue.sh bench/queues/weak-bindings.sh 400

layer_norm_12288() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir \
    --flags "--param eps=1e-5" --rounds 3 --shapes 4096x12288 --dtypes bf16 \
    --variant rules=: \
    --variant w16cps1=:"--num-warps 16 --min-ctas-per-sm 1" \
    --variant w16cps3=:"--num-warps 16 --min-ctas-per-sm 3" \
    --variant w8cps1=:"--num-warps 8 --min-ctas-per-sm 1" \
    --variant w8cps2=:"--num-warps 8 --min-ctas-per-sm 2" \
    --variant w32=:"--num-warps 32 --min-ctas-per-sm 1"
}

scaled_softmax_262144() {
  python3 bench/ab.py --check --program examples/softmax_scaled_masked.mlir \
    --flags "--const CAUSAL=1 --param scale=0.125,offset=0" --rounds 3 \
    --shapes 256x262144 --dtypes bf16 \
    --variant rules=: \
    --variant c16w4=:"--num-ctas 16 --num-warps 4" \
    --variant c16w8=:"--num-ctas 16 --num-warps 8" \
    --variant c8w16=:"--num-ctas 8 --num-warps 16"
}

norms_50257() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir \
    --flags "--param eps=1e-5" --rounds 3 --shapes 4096x50257 --dtypes bf16 \
    --variant rules=: \
    --variant c16w4=:"--num-ctas 16 --num-warps 4" \
    --variant c8w8=:"--num-ctas 8 --num-warps 8" \
    --variant c4w8=:"--num-ctas 4 --num-warps 8"
  python3 bench/ab.py --check --program examples/rms_norm.mlir \
    --flags "--param eps=1e-6" --rounds 3 --shapes 4096x50257 --dtypes bf16 \
    --variant rules=: \
    --variant c16w4=:"--num-ctas 16 --num-warps 4" \
    --variant c8w8=:"--num-ctas 8 --num-warps 8"
}

# Nsight Compute on two of them, the fourth launch (after --bench's
# warm-up), as rowwise/session-h100-4f0d2fb/ did, with the warps' stalls.
profile() {
  local sections="--section SpeedOfLight --section Occupancy --section
    MemoryWorkloadAnalysis --section LaunchStats --section WarpStateStats
    --section ComputeWorkloadAnalysis"
  ncu --launch-skip 3 --launch-count 1 $sections bin/softmax-run \
    examples/softmax_scaled_masked.mlir --const CAUSAL=1 \
    --param scale=0.125,offset=0 --rows 256 --cols 262144 --dtype bf16 \
    --target gpu --bench --runs 2 --no-cache > "$W/ncu-scaled-softmax-bf16-262144.txt"
  ncu --launch-skip 3 --launch-count 1 $sections bin/softmax-run \
    examples/layer_norm.mlir --param eps=1e-5 --rows 4096 --cols 12288 \
    --dtype bf16 --target gpu --bench --runs 2 --no-cache > "$W/ncu-layer-norm-bf16-12288.txt"
}

step 100 layer_norm_12288 layer_norm_12288
step 90 scaled_softmax_262144 scaled_softmax_262144
step 120 norms_50257 norms_50257
step 80 profile profile
