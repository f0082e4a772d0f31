#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): rows kept in shared memory across
# the reductions (blk-stage-held-loads) against rows held in registers, the
# rules' program and binding, all checked, interleaved, twice, one session:
#   [registers]  --stage-min-registers 0 (never staged)
#   [staged]     the pipeline's default threshold (kDefaultStageMinRegisters),
#                or STAGED="--stage-min-registers 1" (staged wherever the
#                pass allows: what chose the default, docs/benchmarks.md,
#                "Rows kept in shared memory")
#   [STAGED=...] bench/ab-stage-held-loads.sh OUT_FILE [SHAPES] [DTYPES] [PROGRAMS]
# PROGRAMS: auto (the rules' choice) or kernel names run on the rules'
# binding (log_softmax, rms_norm, layer_norm, cross_entropy...).
set -u
out="${1:?usage: ab-stage-held-loads.sh OUT_FILE [SHAPES] [DTYPES] [PROGRAMS]}"
shapes="${2:-4096x8192 4096x16384 4096x24576 4096x32768 4096x32001 1024x65536 2048x50257 512x131072}"
dtypes="${3:-bf16 f32}"
programs="${4:-auto}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
params() { # the scalar parameters a kernel kind needs
  case "$1" in
    rms_norm) echo "--param eps=1e-6" ;;
    layer_norm) echo "--param eps=1e-5" ;;
    cross_entropy) echo "--param ignore_index=-100" ;;
  esac
}
for program in $programs; do
  for dtype in $dtypes; do
    for shape in $shapes; do
      m=${shape%x*}; n=${shape#*x}
      args=(--rows "$m" --cols "$n" --dtype "$dtype" $(params "$program"))
      for round in 1 2; do
        ab_run "$out" "$program registers" "$program" "${args[@]}" --stage-min-registers 0
        ab_run "$out" "$program staged" "$program" "${args[@]}" ${STAGED:-}
      done
    done
  done
done
