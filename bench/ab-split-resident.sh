#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): split rows whose parts meet inside
# one launch (softmax_split_resident, blk.program_barrier) against the
# two-kernel softmax_split and against what `auto` runs now, each checked,
# one session, interleaved, each twice.
#   bench/ab-split-resident.sh OUT_FILE [SHAPES] [DTYPES]
# Variants of the resident program: [resident] the rules' binding (8 warps,
# 8192-column parts, 2 stages), [resident-ns1] one stage, [resident-w4]
# 4 warps on 4096-column parts. (On an H100, one stage: 16 warps ran at
# 0.75-1.02x 8 warps, 16384-column parts on 16 warps at 0.70-0.98x; 3
# stages at 0.74-1.03x two: docs/bench-data/split-resident/ab-h100.txt,
# ab-stages-h100.txt.)
set -u
out="${1:?usage: ab-split-resident.sh OUT_FILE [SHAPES] [DTYPES]}"
shapes="${2:-64x1048576 8x1048576 256x262144 512x131072 1024x65536 512x151936}"
dtypes="${3:-bf16 f32}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
for dtype in $dtypes; do
  for shape in $shapes; do
    m=${shape%x*} n=${shape#*x}
    args=(--rows "$m" --cols "$n" --dtype "$dtype")
    splits4k=$(( (n + 4095) / 4096 ))
    p=1; while [ $p -lt $splits4k ]; do p=$((p * 2)); done
    for round in 1 2; do
      ab_run "$out" auto auto "${args[@]}"
      ab_run "$out" split softmax_split "${args[@]}"
      ab_run "$out" resident softmax_split_resident "${args[@]}"
      ab_run "$out" resident-ns1 softmax_split_resident "${args[@]}" --num-stages 1
      ab_run "$out" resident-w4 softmax_split_resident "${args[@]}" --num-warps 4 --const BLOCK=4096,SPLITS=$p
    done
  done
done
