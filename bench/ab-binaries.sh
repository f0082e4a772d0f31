#!/usr/bin/env bash
# On a CUDA host: two softmax-run binaries (a compiler change's A/B) on the
# same checked problems, one session, interleaved, each twice.
#   bench/ab-binaries.sh OUT_FILE A_BINARY B_BINARY [SHAPES] [DTYPES] [PROGRAMS]
# Lines are labelled [A] and [B]; PROGRAMS (default: auto) are softmax-run's
# built-in names or example paths. Extra softmax-run arguments: $AB_ARGS.
set -u
out="${1:?usage: ab-binaries.sh OUT_FILE A_BINARY B_BINARY [SHAPES] [DTYPES] [PROGRAMS]}"
a="${2:?A_BINARY}" b="${3:?B_BINARY}"
shapes="${4:-4096x1024 4096x8192 4096x32768 1024x65536 512x131072 256x262144}"
dtypes="${5:-bf16 f32}"
programs="${6:-auto}"
. "$(dirname "$0")/ab-lib.sh"
SOFTMAX_RUN=$b ab_start "$out"
echo "A: $("$a" --version | tail -1)" >> "$out"
for program in $programs; do
  for dtype in $dtypes; do
    for shape in $shapes; do
      args=(--rows "${shape%x*}" --cols "${shape#*x}" --dtype "$dtype" ${AB_ARGS:-})
      for round in 1 2; do
        SOFTMAX_RUN=$a ab_run "$out" "A $program" "$program" "${args[@]}"
        SOFTMAX_RUN=$b ab_run "$out" "B $program" "$program" "${args[@]}"
      done
    done
  done
done
