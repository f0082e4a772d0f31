# bench/device-queue.sh queue: two binding rules that weak-bindings.sh
# (docs/bench-data/rowwise/weak-bindings-h100/) suggested, over more
# lengths (bundle of 4cff655, three rounds, checked):
#  - 16-bit norms on 8 warps with ptxas's own registers (one CTA an SM)
#    against the rules' 16 warps and two CTAs an SM, 10240-16384 columns;
#  - scaled_softmax bf16 rows held in registers on CTAs of 4 warps (128
#    elements a thread) against the rules' kept rows (8 warps, 128 a
#    thread from shared memory), causal (offset 0: a row reads at most M
#    columns) and dense.
#   bench/device-queue.sh bench/queues/norm-warps-causal-held.sh 560

norm_warps() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir \
    --flags "--param eps=1e-5" --rounds 3 \
    --shapes 4096x10240,4096x12288,4096x14336,4096x16384 --dtypes bf16 \
    --variant rules=: --variant w8=:"--num-warps 8 --min-ctas-per-sm 1"
  python3 bench/ab.py --check --program examples/rms_norm.mlir \
    --flags "--param eps=1e-6" --rounds 3 \
    --shapes 4096x12288,4096x16384 --dtypes bf16 \
    --variant rules=: --variant w8=:"--num-warps 8 --min-ctas-per-sm 1"
}

causal_held() {
  local shapes=1024x65536,512x131072,256x262144
  for causal in 1 0; do
    python3 bench/ab.py --check --program examples/softmax_scaled_masked.mlir \
      --flags "--const CAUSAL=$causal --param scale=0.125,offset=0" --rounds 3 \
      --shapes $shapes --dtypes bf16 \
      --variant rules=: \
      --variant held4=:"--num-ctas {ceil(cols/16384)} --num-warps 4"
    shapes=256x262144
  done
}

# Landed on an H200 (lent by chance), the family table first: the one
# docs/benchmarks.md lacks (rowwise-next.sh's).
if on_h200; then
  source "$REPO/bench/queues/rowwise-next.sh"
  exit 0
fi
step 110 norm_warps norm_warps
step 110 causal_held causal_held
