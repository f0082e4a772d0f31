#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): the rules for aligned 16-bit rows on
# clusters with their rows kept in shared memory (CTAs of 8 warps, fused to
# 262144 columns) against the rules before them, all checked, one session,
# each twice:
#   [before]  8192 elements a CTA on 4 warps in registers to 65536 columns,
#             softmax_split beyond (what the rules chose before)
#   [kept]    softmax-run auto / the kernel on the rules' binding now
#   bench/ab-kept-rows-rules.sh OUT_FILE
set -u
out="${1:?usage: ab-kept-rows-rules.sh OUT_FILE}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
dtype=bf16
run2() { # shape, before program, before args..., then -- kept program
  local shape=$1 before=$2; shift 2
  local m=${shape%x*} n=${shape#*x} args=() kept
  while [ "$1" != "--" ]; do args+=("$1"); shift; done
  kept=$2
  for round in 1 2; do
    ab_run "$out" before "$before" --rows "$m" --cols "$n" --dtype "$dtype" "${args[@]}"
    ab_run "$out" kept "$kept" --rows "$m" --cols "$n" --dtype "$dtype"
  done
}
run2 1024x65536 softmax_fused --num-ctas 8 --num-warps 4 -- auto
run2 2048x50256 softmax_fused --num-ctas 8 --num-warps 4 -- auto
run2 512x131072 softmax_split -- auto
run2 2048x128256 softmax_split -- auto
run2 256x262144 softmax_split -- auto
run2 512x151936 softmax_split -- auto
run2 1024x65536 log_softmax --num-ctas 8 --num-warps 4 -- log_softmax
run2 512x131072 log_softmax --num-ctas 16 --num-warps 4 -- log_softmax
