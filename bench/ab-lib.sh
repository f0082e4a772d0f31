# Sourced by the A/B scripts (bench/ab-*.sh): one line per checked, timed
# softmax-run, so that the variants of one session sit side by side.
#   ab_start OUT_FILE                  the GPU and the softmax-run version
#   ab_run OUT_FILE LABEL PROGRAM ARGS appends "$dtype $shape [LABEL] binding
#                                      grid bench" (dtype and shape: the
#                                      caller's variables; the binary:
#                                      $SOFTMAX_RUN, else softmax-run)
export BLK_CACHE_DIR=
ab_start() {
  nvidia-smi --query-gpu=name --format=csv,noheader > "$1"
  "${SOFTMAX_RUN:-softmax-run}" --version | tail -1 >> "$1"
}
ab_run() {
  local out="$1" label="$2" program="$3"
  shift 3
  local r
  r=$("${SOFTMAX_RUN:-softmax-run}" "$program" --target gpu --bench --check "$@" 2>&1 |
      grep -E "target:|persistent grid|bench:|FAIL|error" |
      sed -E 's/.*\(sm_[0-9]+\), //; s/ \(median.*\), / /' | tr '\n' ' ')
  echo "$dtype $shape [$label] $r" >> "$out"
}
