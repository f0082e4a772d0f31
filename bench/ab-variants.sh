#!/usr/bin/env bash
# On a CUDA host: several softmax-run binaries (compiler variants) on the
# same checked problems, one session, interleaved, each twice; then, per
# problem, each variant's best % of a same-size copy and its GB/s against
# the first variant's.
#   bench/ab-variants.sh OUT_FILE CASES LABEL=BINARY [LABEL=BINARY ...]
# CASES: "DTYPE MxN PROGRAM; ..." (PROGRAM: a built-in name or an example
# path; log_softmax and rms_norm are checked against their own reference,
# rms_norm with eps=1e-6).
set -u
out="${1:?usage: ab-variants.sh OUT_FILE CASES LABEL=BINARY...}"
cases="${2:?CASES}"
shift 2
[ $# -ge 1 ] || { echo "ab-variants.sh: no LABEL=BINARY given" >&2; exit 2; }
. "$(dirname "$0")/ab-lib.sh"
first="${1#*=}"
SOFTMAX_RUN=$first ab_start "$out"
for variant in "$@"; do
  echo "${variant%%=*}: $("${variant#*=}" --version | tail -1)" >> "$out"
done
IFS=';' read -ra case_list <<< "$cases"
for one in "${case_list[@]}"; do
  read -r dtype shape program <<< "$one"
  [ -n "$dtype" ] || continue
  extra=()
  case "$program" in
    log_softmax) extra=(--reference log_softmax) ;;
    rms_norm) extra=(--reference rms_norm --param eps=1e-6) ;;
  esac
  for round in 1 2; do
    for variant in "$@"; do
      SOFTMAX_RUN=${variant#*=} ab_run "$out" "${variant%%=*} $program" \
        "$program" --rows "${shape%x*}" --cols "${shape#*x}" \
        --dtype "$dtype" "${extra[@]}"
    done
  done
done
python3 - "$out" "${1%%=*}" <<'PY'
import collections, re, sys
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    m = re.search(r'(\w+) (\d+x\d+) \[(\S+) (\S+)\].*?([\d.]+) GB/s = ([\d.]+)%', line)
    if m:
        runs[(m[4], m[1], m[2])][m[3]].append((float(m[5]), float(m[6])))
base = sys.argv[2]
for key, by_variant in runs.items():
    best = {v: max(r) for v, r in by_variant.items()}
    cells = ['%s %.1f%%' % (v, b[1]) for v, b in best.items()]
    if base in best:
        cells += ['%s/%s %.3f' % (v, base, b[0] / best[base][0])
                  for v, b in best.items() if v != base]
    print(' '.join(key), '|', ' '.join(cells))
PY
grep -E "FAIL|error" "$out" | head
