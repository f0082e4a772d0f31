# bench/device-queue.sh queue: what issue 39 (the row-wise family) still
# waits on. One call, with the bundle of the tree (scripts/make-bundle.sh)
# carried as .bundle/blk-bundle.tar.xz (no experiment):
#   bench/device-queue.sh bench/queues/rowwise-next.sh 570
# On an H200 the family table comes first (docs/benchmarks.md has none for
# it); then blk-combine-centered-squares (opt-in):
# its GPU tests, its A/B against layer_norm's two exchanges, and
# layer_norm with it beside its peers. The A/Bs this queue held until
# 57742b1 ran on the H100 on 2026-12-07:
# docs/bench-data/rowwise/next-h100-57742b1/.

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

# blk.sum_centered_squares on the GPU (hand-written and as the pass forms
# it in layer_norm), and layer_norm's own tests.
combine_tests() {
  ./run-gpu-tests.sh --filter 'sum-centered-squares|layer_norm'
}

# layer_norm with its sum and squares in one exchange and in two (the
# default), in one run (2fc0040's message has the A/B of an earlier
# lowering, dropped).
layer_norm_ab() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir --flags "--param eps=1e-5" \
    --rounds 2 --shapes 4096x50257,4096x32001,256x262144,4096x16384,4096x4096 \
    --dtypes bf16,f32 --variant two=: --variant one=:"--combine-centered-squares"
}

# layer_norm with one exchange beside torch and torch.compile, on the
# shapes of the table it may change (a wrapper adds the flag).
layer_norm_one_exchange_peers() {
  printf '#!/bin/sh\nexec "%s" "$@" --combine-centered-squares\n' \
    "$PWD/bin/softmax-run" >"$W/softmax-run-one-exchange"
  chmod +x "$W/softmax-run-one-exchange"
  python3 bench/rowwise.py --compile --softmax-run "$W/softmax-run-one-exchange" \
    --examples examples --kernels layer_norm --shapes 4096x50257 256x262144 4096x32000
}

# The GPU suite on the bundle that measured the table.
gpu_suite() {
  ./run-gpu-tests.sh
}

# On an H100 (whose table docs/benchmarks.md has) only what decides
# blk-combine-centered-squares, so that the session keeps device time for
# an H200.
if on_h200; then
  step 330 family family_table
fi
step 60 combine_tests combine_tests
step 110 layer_norm_ab layer_norm_ab
step 40 ln_one_peers layer_norm_one_exchange_peers
if on_h200; then
  step 150 gpu_suite gpu_suite
fi
