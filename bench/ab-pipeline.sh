#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): software pipelining (num_stages) of
# the persistent program against the fused program of the rules, all
# checked, one process per run, in one session:
#   [auto]         softmax-run auto (the rules' program and binding)
#   [persistent]   softmax_persistent, the rules' binding (clusters for long
#                  rows), num_stages = 1
#   [stages=2]     the same, the next row's loads issued before the current
#                  row's reductions (blk-pipeline-loads)
#   [stages=2 2xw] the same on twice the warps (half the registers a thread)
#   bench/ab-pipeline.sh OUT_FILE [SHAPES] [DTYPES]
set -u
out="${1:?usage: ab-pipeline.sh OUT_FILE [SHAPES] [DTYPES]}"
shapes="${2:-4096x8192 4096x16384 4096x32768 1024x65536 512x131072 256x262144}"
dtypes="${3:-f32 bf16}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
run() { ab_run "$out" "$@"; } # label, program, args...
warps_of() { # the warps of the last line (the kernels' own 4 when not shown)
  w=$(tail -1 "$out" | sed -nE 's/.* warps=([0-9]+).*/\1/p')
  echo "${w:-4}"
}
for dtype in $dtypes; do
  for shape in $shapes; do
    m=${shape%x*}; n=${shape#*x}
    args=(--rows "$m" --cols "$n" --dtype "$dtype")
    run auto auto "${args[@]}"
    run persistent softmax_persistent "${args[@]}" --num-stages 1
    run stages=2 softmax_persistent "${args[@]}" --num-stages 2
    run "stages=2 2xw" softmax_persistent "${args[@]}" --num-stages 2 --num-warps $((2 * $(warps_of)))
  done
done
cat "$out"
