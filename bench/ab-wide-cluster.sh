#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): 16-bit rows of 16K-32K columns on a
# 2-CTA cluster of 4 warps (128 elements a thread; the rule tried in
# bbd2a81) against one CTA of 16 warps (the rules), two runs each, all
# checked. Produced docs/bench-data/wide-rows-sweep/ab-wide-cluster-h100.txt
# (there "[rules]" was the 2-CTA binding).
#   [SHAPES="4096x32001 ..."] bench/ab-wide-cluster.sh OUT_FILE
set -u
out="${1:?usage: ab-wide-cluster.sh OUT_FILE}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
dtype=bf16
for shape in ${SHAPES:-4096x32001 2048x32001 4096x24001 4096x20001 4096x16385 4096x32000 4096x20000}; do
  for binding in "--num-ctas 2 --num-warps 4" "--num-ctas 1 --num-warps 16"; do
    for _ in 1 2; do
      # shellcheck disable=SC2086
      ab_run "$out" "$binding" auto --rows "${shape%x*}" --cols "${shape#*x}" --dtype bf16 $binding
    done
  done
done
cat "$out"
