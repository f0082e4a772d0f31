# bench/device-queue.sh queue: the tree at the end of a session on a short
# device budget, with its bundle carried as .bundle/blk-bundle.tar.xz:
#   bench/device-queue.sh bench/queues/final-check.sh 320
# On an H100, the GPU suite (all but large.mlir) and layer_norm's rows
# that the rule of 8 warps binds (holdsNormOnEightWarps) against torch and
# torch.compile; on an H200 (lent by chance), the family table alone.

gpu_suite() {
  ./run-gpu-tests.sh --filter-out 'large' --time-tests
}

layer_norm_rows() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --kernels layer_norm --shapes 4096x8192 4096x10240 4096x12288 4096x16384
}

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

if on_h200; then
  step 310 family family_table
else
  step 150 gpu_suite gpu_suite
  step 100 layer_norm_rows layer_norm_rows
fi
