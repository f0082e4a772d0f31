# bench/device-queue.sh queue: blk-sink-to-uses (a normalization's weight
# and bias loaded, and its arithmetic done, run by run before each store:
# softmax-run --sink-to-uses) against the pipeline without it, checked, on
# the rows it changes (layer_norm and rms_norm, rows of whole 16-byte runs
# on one CTA); then what torch.compile runs for layer_norm. Measured on
# the bundle of d9b79c8, where base was the default (off); the variants
# now name both:
#   bench/device-queue.sh bench/queues/sink-to-uses.sh 300

sink_norms() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir \
    --flags "--param eps=1e-5" --rounds 2 \
    --shapes 4096x4096,4096x8192,4096x16384 --dtypes f32,bf16 \
    --variant base=:"--sink-to-uses=false" --variant sink=:"--sink-to-uses=true"
  python3 bench/ab.py --check --program examples/rms_norm.mlir \
    --flags "--param eps=1e-6" --rounds 2 \
    --shapes 4096x8192 --dtypes f32,bf16 \
    --variant base=:"--sink-to-uses=false" --variant sink=:"--sink-to-uses=true"
}

# What torch.compile runs for layer_norm where it is ahead of ours.
inductor_kernels() {
  for problem in "bf16 4096x8192" "bf16 4096x50257" "f32 4096x12288"; do
    set -- $problem
    python3 "$REPO/bench/inductor-kernels.py" layer_norm "$1" "$2" "$W/inductor/$1-$2"
  done
}

# On an H200, first what issue 39 waits on: its family table and the suite.
if on_h200; then
  # shellcheck source=/dev/null
  source "$REPO/bench/queues/rowwise-next.sh"
fi
step 170 sink_norms sink_norms
step 110 inductor_kernels inductor_kernels
