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
examples="${EXAMPLES:-$here/../python-free-examples}"
peers="${PEERS:-$here/peers.py}"
mkdir -p "$out"
rm -f "$out/ours.csv"
# AUTOTUNE=0 measures the binding rules alone.
tune="--autotune --autotune-cache $out/autotune.tsv"
[ "${AUTOTUNE:-1}" = 0 ] && tune=""

# Thread-block clusters (sm_90 and newer) let one program hold rows of up to
# 262144 elements; measured on an H200, 16-bit rows over 65536 still run
# faster split in two passes (docs/benchmarks.md).
major=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | cut -d. -f1)

# The program a user would pick for each row length and dtype.
program_for() {
  local n=$1 dtype=$2 fused_max=32768
  if [ "${major:-0}" -ge 9 ]; then
    fused_max=262144
    [ "$dtype" != f32 ] && fused_max=65536
  fi
  if [ "$n" -le 512 ]; then echo softmax_multirow
  elif [ "$n" -le "$fused_max" ]; then echo softmax_fused
  else echo softmax_split
  fi
}

for dtype in ${dtypes//,/ }; do
  for shape in ${shapes//,/ }; do
    m=${shape%x*}; n=${shape#*x}
    program=$(program_for "$n" "$dtype")
    "$run" "$examples/$program.mlir" --target gpu --rows "$m" --cols "$n" \
      --dtype "$dtype" --check --bench --csv "$out/ours.csv" --provider blk \
      $tune 2>&1 | tee -a "$out/ours.log"
  done
done
if [ -f "$peers" ]; then
  python3 "$peers" --dtype "$dtypes" --shapes "$shapes" --ours "$out/ours.csv" \
    --out "$out/peers.csv" 2>&1 | tee "$out/table.txt"
fi
