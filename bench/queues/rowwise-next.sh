# bench/device-queue.sh queue: what issue 39 (the row-wise family) still
# waits on. One call, with the bundle of the tree (scripts/make-bundle.sh)
# carried as .bundle/blk-bundle.tar.xz (no experiment):
#   bench/device-queue.sh bench/queues/rowwise-next.sh 560
# The family table and the GPU suite on the same bundle (all but
# large.mlir, whose three checked problems of 2^31 elements take minutes
# of host time), then Nsight Compute on two of the table's misses and a
# probe of LayerNorm walked in tiles. On an
# H200 the table first (docs/benchmarks.md has none for it); on an H100
# the suite first.

family_table() {
  python3 bench/rowwise.py --compile --softmax-run bin/softmax-run --examples examples \
    --shapes 4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 \
             4096x50257 256x262144 64x1048576 8x1048576
}

gpu_suite() {
  ./run-gpu-tests.sh --filter-out 'large' --time-tests
}

# What bounds a peeled norm (its weight read element by element on rows
# the shift moved) and a held read-only row (cross_entropy bf16 at 80% of
# a copy): the first launch, after the warm-up of --bench.
ncu_misses() {
  for problem in "rms_norm.mlir --param eps=1e-6 --rows 4096 --cols 50257" \
                 "cross_entropy.mlir --param ignore_index=-100 --rows 4096 --cols 4096"; do
    set -- $problem
    ncu --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy \
        --section MemoryWorkloadAnalysis --section LaunchStats \
        bin/softmax-run "examples/$1" "${@:2}" --dtype bf16 --target gpu --bench --runs 2 \
        > "$W/ncu-${1%.mlir}-bf16.txt" 2>&1
  done
}

# LayerNorm held (the example) against walked in tiles (a probe,
# bench/layer_norm_tiled.mlir: three reads of the row, one tile held), on
# the rows where the held kernel misses: is walking the lever?
layer_norm_tiled() {
  python3 bench/ab.py --check --program examples/layer_norm.mlir --flags "--param eps=1e-5" \
    --rounds 1 --shapes 4096x16384,4096x32768,256x262144,4096x50257 --dtypes bf16,f32 \
    --variant held=: --variant tiled=:"--program bench/layer_norm_tiled.mlir" \
    --variant tiled4096=:"--program bench/layer_norm_tiled.mlir --const BLOCK=4096 --num-warps 8"
}

if on_h200; then
  step 330 family family_table
  step 150 gpu_suite gpu_suite
else
  step 150 gpu_suite gpu_suite
  step 330 family family_table
fi
step 80 ncu ncu_misses
step 120 layer_norm_tiled layer_norm_tiled
