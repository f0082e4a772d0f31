#!/usr/bin/env bash
# Registers and instructions of the kernels softmax-run compiles for some
# shapes (no GPU needed: --emit-ptx, then ptxas; the instructions are the
# cubin's .text size over 16 bytes: what one thread of the kernel runs
# when it has no loops; for a program of several kernels, the first).
# docs/benchmarks.md's instruction counts come from here.
#   bench/kernel-size.sh [SOFTMAX_RUN] [SHAPES] [DTYPES] [PROGRAM]
# PTXAS (default: ptxas on PATH, else /usr/local/cuda/bin/ptxas), CHIP
# (default sm_90).
set -uo pipefail
run="${1:-softmax-run}"
shapes="${2:-4096x1024,4096x32768,1024x65536,512x131072,256x262144}"
dtypes="${3:-bf16,f32}"
program="${4:-auto}"
chip="${CHIP:-sm_90}"
ptxas="${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}"
if [ ! -x "$ptxas" ]; then
  echo "kernel-size: no ptxas (set PTXAS)" >&2
  exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export BLK_CACHE_DIR=
for dtype in ${dtypes//,/ }; do
  for shape in ${shapes//,/ }; do
    if ! "$run" "$program" --rows "${shape%x*}" --cols "${shape#*x}" \
        --dtype "$dtype" --chip "$chip" --emit-ptx "$tmp/k.ptx" >/dev/null ||
       ! "$ptxas" -arch="$chip" -v "$tmp/k.ptx" -o "$tmp/k.cubin" \
        > "$tmp/ptxas.log" 2>&1; then
      echo "$dtype $shape: did not compile" >&2
      exit 1
    fi
    registers=$(grep -oE 'Used [0-9]+ registers' "$tmp/ptxas.log" | head -1 | grep -oE '[0-9]+')
    # Section header: name, type, address, offset, size (hex).
    instructions=$(readelf -S -W "$tmp/k.cubin" 2>/dev/null |
      sed -nE 's/.* \.text\.[^ ]+ +[A-Z]+ +[0-9a-f]+ +[0-9a-f]+ +([0-9a-f]+) .*/\1/p' |
      head -1)
    echo "$program $dtype $shape: $registers registers, $((16#$instructions / 16)) instructions"
  done
done
