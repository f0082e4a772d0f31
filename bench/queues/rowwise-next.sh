# bench/device-queue.sh queue: what issue 39 (the row-wise family) still
# waits on. One call, with the bundle of the tree (scripts/make-bundle.sh)
# carried as .bundle/blk-bundle.tar.xz (no experiment):
#   bench/device-queue.sh bench/queues/rowwise-next.sh 570
# On an H200 the family table comes first (docs/benchmarks.md has none for
# it); on an H100 it comes last. The A/Bs this queue held until 57742b1
# ran on the H100 on 2026-12-07: docs/bench-data/rowwise/next-h100-57742b1/.

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

# The GPU suite on the bundle that measured the table.
gpu_suite() {
  ./run-gpu-tests.sh
}

# layer_norm's probes in f32, which the call of 2026-12-07 had no time
# for (docs/bench-data/rowwise/layer-norm-probe/, in examples/ of the
# repository's copy carried beside the bundle).
layer_norm_probes_f32() {
  cp "$REPO"/docs/bench-data/rowwise/layer-norm-probe/ln_{onepass,early}.mlir examples/
  python3 bench/ab.py --check --program examples/layer_norm.mlir --flags "--param eps=1e-5" \
    --rounds 2 --shapes 4096x50257,256x262144,4096x16384 --dtypes f32 --variant rules=: \
    --variant onepass=:"--program examples/ln_onepass.mlir" \
    --variant early=:"--program examples/ln_early.mlir" \
    --variant rms=:"--program examples/rms_norm.mlir"
}

if on_h200; then
  step 330 family family_table
fi
step 150 gpu_suite gpu_suite
step 80 lnprobe_f32 layer_norm_probes_f32
if ! on_h200; then
  step 330 family family_table
fi
