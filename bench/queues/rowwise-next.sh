# bench/device-queue.sh queue: what issue 39 (the row-wise family) still
# waits on. One call, with the bundle of the tree (scripts/make-bundle.sh)
# carried as .bundle/blk-bundle.tar.xz (no experiment):
#   bench/device-queue.sh bench/queues/rowwise-next.sh 560
# The family table and the GPU suite on the same bundle (all but
# large.mlir, whose three checked problems of 2^31 elements take minutes
# of host time). On an H200 the table first (docs/benchmarks.md has none
# for it); on an H100 the suite first. The table took 246 s on an H100 in
# one call and more than 330 s in the next (torch.compile slower there;
# docs/bench-data/rowwise/session-h100-4f0d2fb/): it gets 400.

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

gpu_suite() {
  ./run-gpu-tests.sh --filter-out 'large' --time-tests
}

if on_h200; then
  step 400 family family_table
  step 150 gpu_suite gpu_suite
else
  step 150 gpu_suite gpu_suite
  step 400 family family_table
fi
