#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): long 16-bit rows on fewer, larger
# CTAs with their rows kept in shared memory (--stage-on-clusters) against
# the rules' binding, all checked, one session, each twice:
#   [auto]                the rules (clusters of 4-warp CTAs, or split rows)
#   [CxW]                 softmax_fused on C CTAs of W warps, rows in registers
#   [CxW staged]          the same with the rows kept in shared memory
#   bench/ab-stage-clusters.sh OUT_FILE
set -u
out="${1:?usage: ab-stage-clusters.sh OUT_FILE}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
dtype=bf16
case_() { # shape, then CTAsxWarps bindings
  shape=$1; shift
  local m=${shape%x*} n=${shape#*x}
  local args=(--rows "$m" --cols "$n" --dtype "$dtype")
  for round in 1 2; do
    ab_run "$out" auto auto "${args[@]}"
    for b in "$@"; do
      local c=${b%x*} w=${b#*x}
      ab_run "$out" "$b" softmax_fused "${args[@]}" --num-ctas "$c" --num-warps "$w"
      ab_run "$out" "$b staged" softmax_fused "${args[@]}" --num-ctas "$c" --num-warps "$w" --stage-on-clusters
    done
  done
}
case_ 4096x32768 2x8
case_ 1024x65536 2x16 4x8 8x4
case_ 512x131072 4x16 8x8
case_ 256x262144 8x16
