# bench/device-queue.sh queue: what issue 39 (the row-wise family) still
# waits on. One call, with the bundle of the tree (scripts/make-bundle.sh)
# carried as .bundle/blk-bundle.tar.xz (no experiment):
#   bench/device-queue.sh bench/queues/rowwise-next.sh 570
# The family table and the GPU suite on the same bundle: on an H200 the
# table first (docs/benchmarks.md has none for it); on an H100 the suite
# first, then the table again (the H100's predates the default rule of
# blk-combine-centered-squares).

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

# The GPU suite on the bundle that measured the table (a fresh bundle's
# kernel cache is cold: 150 s did not finish it on an H100).
gpu_suite() {
  ./run-gpu-tests.sh
}

if on_h200; then
  step 330 family family_table
  step 240 gpu_suite gpu_suite
else
  step 240 gpu_suite gpu_suite
  step 330 family family_table
fi
