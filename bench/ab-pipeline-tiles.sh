#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): software pipelining (num_stages) of
# the programs that loop over a row's tiles, against the rules' program
# (`auto`: split rows from 131072 16-bit or 1M f32 columns, fused below),
# all checked, one process per run, in one session:
#   online (two passes, the second re-reads) on clusters, one tile of
#   BLOCK spread over the cluster's CTAs; tiled (three passes) on one CTA;
#   each with 1, 2 and 3 stages.
#   [CLUSTER_CASES=...] [ONE_CTA_CASES=...] bench/ab-pipeline-tiles.sh OUT_FILE
# (cases "dtype MxN", comma-separated; an empty list skips that part).
set -u
out="${1:?usage: ab-pipeline-tiles.sh OUT_FILE}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
run() { ab_run "$out" "$@"; } # label, program, args...
IFS=, read -ra cluster_cases <<< "${CLUSTER_CASES-f32 64x1048576,bf16 64x1048576,f32 8x1048576,bf16 256x262144,bf16 512x131072}"
IFS=, read -ra one_cta_cases <<< "${ONE_CTA_CASES-bf16 4096x32768,f32 4096x32768}"
for case in "${cluster_cases[@]}"; do
  read -r dtype shape <<< "$case"
  args=(--rows "${shape%x*}" --cols "${shape#*x}" --dtype "$dtype")
  run auto auto "${args[@]}"
  for cluster in "16 4" "8 8"; do
    read -r ctas warps <<< "$cluster"
    for s in 1 2 3; do
      run "online ${ctas}x${warps} stages=$s" softmax_online "${args[@]}" \
        --const BLOCK=65536 --num-ctas "$ctas" --num-warps "$warps" --num-stages "$s"
    done
  done
done
for case in "${one_cta_cases[@]}"; do
  read -r dtype shape <<< "$case"
  args=(--rows "${shape%x*}" --cols "${shape#*x}" --dtype "$dtype")
  run auto auto "${args[@]}"
  for s in 1 2 3; do
    run "tiled stages=$s" softmax_tiled "${args[@]}" --const BLOCK=8192 --num-stages "$s"
    run "online stages=$s" softmax_online "${args[@]}" --const BLOCK=8192 --num-stages "$s"
  done
done
cat "$out"
