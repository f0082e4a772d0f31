#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): 16-bit rows of 16K-32K columns on a
# 2-CTA cluster of 4 warps (128 elements a thread; the rule tried in
# bbd2a81) against one CTA of 16 warps (the rules), two runs each, all
# checked. Produced docs/bench-data/wide-rows-sweep/ab-wide-cluster-h100.txt
# (there "[rules]" was the 2-CTA binding).
#   [SHAPES="4096x32001 ..."] bench/ab-wide-cluster.sh OUT_FILE
set -u
out="${1:?usage: ab-wide-cluster.sh OUT_FILE}"
export BLK_CACHE_DIR=
nvidia-smi --query-gpu=name --format=csv,noheader > "$out"
softmax-run --version | tail -1 >> "$out"
for s in ${SHAPES:-4096x32001 2048x32001 4096x24001 4096x20001 4096x16385 4096x32000 4096x20000}; do
  m=${s%x*}; n=${s#*x}
  for binding in "--num-ctas 2 --num-warps 4" "--num-ctas 1 --num-warps 16"; do
    for _ in 1 2; do
      # shellcheck disable=SC2086
      r=$(softmax-run auto --rows "$m" --cols "$n" --dtype bf16 --target gpu --bench --check $binding 2>&1 |
          grep -E "target:|bench:|FAIL|error" | sed -E 's/.*\(sm_90\), //; s/ \(median.*\), / /' | tr '\n' ' ')
      echo "bf16 ${m}x${n} [$binding] $r" >> "$out"
    done
  done
done
cat "$out"
