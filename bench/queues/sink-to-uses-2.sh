# bench/device-queue.sh queue: blk-sink-to-uses' second A/B (after
# sink-to-uses.sh), the rows left: layer_norm 1024-12288, rms_norm 4096
# and 16384, three rounds (the bundle of d9b79c8):
#   bench/device-queue.sh bench/queues/sink-to-uses-2.sh 200

sink_rest() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir \
    --flags "--param eps=1e-5" --rounds 3 \
    --shapes 4096x1024,4096x2048,4096x4096,4096x12288 --dtypes f32,bf16 \
    --variant base=:"--sink-to-uses=false" --variant sink=:"--sink-to-uses=true"
  python3 bench/ab.py --check --program examples/rms_norm.mlir \
    --flags "--param eps=1e-6" --rounds 3 \
    --shapes 4096x4096,4096x16384 --dtypes f32,bf16 \
    --variant base=:"--sink-to-uses=false" --variant sink=:"--sink-to-uses=true"
}

step 180 sink_rest sink_rest
