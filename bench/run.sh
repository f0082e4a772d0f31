#!/usr/bin/env bash
# Benchmarks the project's examples and the peers (torch.softmax, Triton)
# in one run on a CUDA host, and prints them side by side.
#   bench/run.sh [OUT_DIR] [SHAPES] [DTYPES]
# Needs softmax-run on PATH (or SOFTMAX_RUN) and python3 with torch and
# triton for the peers. Each shape is autotuned first (softmax-run
# --autotune, cached in OUT_DIR/autotune.tsv) unless AUTOTUNE=0. Writes OUT_DIR/ours.csv, OUT_DIR/peers.csv and the
# side-by-side table OUT_DIR/table.txt.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-bench-out}"
shapes="${2:-4096x128,4096x256,4096x512,4096x1024,4096x2048,4096x4096,4096x8192,4096x16384,4096x32768,1024x65536,512x131072,256x262144,64x1048576,262144x128,65536x1024}"
dtypes="${3:-f32,bf16}"
run="${SOFTMAX_RUN:-softmax-run}"
peers="${PEERS:-$here/peers.py}"
mkdir -p "$out"
rm -f "$out/ours.csv"
# AUTOTUNE=0 measures the binding rules alone.
tune="--autotune --autotune-cache $out/autotune.tsv"
[ "${AUTOTUNE:-1}" = 0 ] && tune=""

for dtype in ${dtypes//,/ }; do
  for shape in ${shapes//,/ }; do
    m=${shape%x*}; n=${shape#*x}
    # softmax-run picks the program for the row length and the GPU
    # (blk/Programs/Programs.h: chooseSoftmaxProgram).
    "$run" auto --target gpu --rows "$m" --cols "$n" \
      --dtype "$dtype" --check --bench --csv "$out/ours.csv" --provider blk \
      $tune 2>&1 | tee -a "$out/ours.log"
  done
done
if [ -f "$peers" ]; then
  python3 "$peers" --dtype "$dtypes" --shapes "$shapes" --ours "$out/ours.csv" \
    --out "$out/peers.csv" 2>&1 | tee "$out/table.txt"
fi
