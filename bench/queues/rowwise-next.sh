# bench/device-queue.sh queue: what issue 39 (the row-wise family) still
# waits on. One call, with the bundle of the tree (scripts/make-bundle.sh)
# carried as .bundle/blk-bundle.tar.xz (no experiment):
#   bench/device-queue.sh bench/queues/rowwise-next.sh 570
# On an H200 the family table comes first (docs/benchmarks.md has none for
# it), then the GPU suite, then blk-combine-centered-squares' rule (one
# exchange on wide peeled rows, the default since its H100 A/B:
# docs/bench-data/rowwise/layer-norm-one-exchange-h100/) against two
# exchanges everywhere. On an H100 only the GPU suite and that A/B.

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

# layer_norm as the rule compiles it (one exchange on wide peeled rows)
# and with two exchanges on every row, in one run.
layer_norm_ab() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir --flags "--param eps=1e-5" \
    --rounds 2 --shapes 4096x50257,4096x32001,2048x100003 \
    --dtypes bf16,f32 --variant rule=: \
    --variant two=:"--combine-centered-squares-min-elements 0"
}

# The GPU suite on the bundle that measured the table (a fresh bundle's
# kernel cache is cold: 150 s did not finish it on an H100).
gpu_suite() {
  ./run-gpu-tests.sh
}

if on_h200; then
  step 330 family family_table
fi
step 240 gpu_suite gpu_suite
step 150 layer_norm_ab layer_norm_ab
