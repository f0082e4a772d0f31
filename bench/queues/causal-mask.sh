# bench/device-queue.sh queue: scaled_softmax's causal rows after
# blk-peel-alignment learned column predicates and conjunctions, and the
# GPU lowering learned to decide a run's mask at its ends for every
# monotone term (`cols <= last` beside `cols < n`). The bundle is the tree
# with both; experiment `base` the tree without them:
#   scripts/make-experiment.sh base REVERT.patch
#   (carry .bundle/blk-bundle.tar.xz and .bundle/experiments/base)
#   bench/device-queue.sh bench/queues/causal-mask.sh 560

# The GPU tests these changes reach: the causal rows, the peeled rows, the
# examples against float64, and the attention kernels' causal masks.
gpu_tests() {
  ./run-gpu-tests.sh --filter 'softmax_scaled_masked|peel-alignment|realign|stage-held-loads|split-rows|examples-check|attention'
}

# The family's causal softmax as bench/rowwise.py runs it (CAUSAL=1,
# offset 0, scale 0.125), both builds in turn in one process each run.
causal_ab() {
  python3 bench/ab.py --check --program examples/softmax_scaled_masked.mlir \
    --flags "--const CAUSAL=1 --param scale=0.125,offset=0" \
    --rounds 2 --shapes 4096x4096,4096x50257,256x262144,64x1048576 \
    --dtypes bf16,f32 --variant new=: --variant base="$EXP/base/softmax-run":
}

step 200 gpu_tests gpu_tests
step 330 causal_ab causal_ab
