# bench/device-queue.sh queue: what issue 39 (the row-wise family) still
# waits on. One call, with the bundle of the tree (scripts/make-bundle.sh)
# carried as .bundle/blk-bundle.tar.xz (no experiment):
#   bench/device-queue.sh bench/queues/rowwise-next.sh 570
# On an H200 the family table comes right after the tests and the A/B of
# blk-combine-centered-squares (docs/benchmarks.md has no H200 table); on
# an H100, last. The A/Bs this queue held until 57742b1 ran on the H100 on
# 2026-12-07: docs/bench-data/rowwise/next-h100-57742b1/.

# blk.sum_centered_squares on the GPU (hand-written and as the pass forms
# it in layer_norm), and layer_norm's own tests.
combine_tests() {
  ./run-gpu-tests.sh --filter 'sum-centered-squares|layer_norm'
}

# layer_norm with its sum and squares in one exchange (the default) and in
# two, in one run.
layer_norm_ab() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir --flags "--param eps=1e-5" \
    --rounds 2 --shapes 4096x50257,256x262144,4096x8192,4096x16384,64x1048576 \
    --dtypes bf16,f32 --variant one=: --variant two=:"--combine-centered-squares=false"
}

# The family table; with layer_norm's two exchanges if the tests above
# failed (a wrapper adds the flag).
family_table() {
  local run=bin/softmax-run
  if ! grep -q "^combine_tests rc=0 " "$W/queue.log"; then
    printf '#!/bin/sh\nexec "%s" "$@" --combine-centered-squares=false\n' \
      "$PWD/bin/softmax-run" >"$W/softmax-run-two-exchanges"
    chmod +x "$W/softmax-run-two-exchanges"
    run=$W/softmax-run-two-exchanges
    echo "family table with --combine-centered-squares=false"
  fi
  python3 bench/rowwise.py --compile --softmax-run "$run" --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

# The GPU suite on the bundle that measured the table.
gpu_suite() {
  ./run-gpu-tests.sh
}

step 60 combine_tests combine_tests
step 110 layer_norm_ab layer_norm_ab
if on_h200; then
  step 330 family family_table
  step 150 gpu_suite gpu_suite
else
  step 150 gpu_suite gpu_suite
  step 330 family family_table
fi
