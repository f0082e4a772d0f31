#!/usr/bin/env bash
# On a CUDA host: two versions of one block program (A and B, .mlir files)
# with the same softmax-run, interleaved, checked, each shape ROUNDS times;
# one line a run (shape, dtype, variant, round, check, GB/s and % of a
# same-size copy), then per shape each variant's best and B's against A's.
#   bench/ab-programs.sh SOFTMAX_RUN OUT A.mlir B.mlir "M N DTYPE; ..." [ARGS...]
# ARGS go to every run (constants, parameters, --reference, --target). The
# lines go to OUT, the summary to standard output. ROUNDS: 3.
set -u
run="${1:?usage: ab-programs.sh SOFTMAX_RUN OUT A.mlir B.mlir SHAPES [ARGS...]}"
out="${2:?OUT}"; a="${3:?A.mlir}"; b="${4:?B.mlir}"; shapes="${5:?SHAPES}"
shift 5
: > "$out"
IFS=';' read -ra shape_list <<< "$shapes"
for shape in "${shape_list[@]}"; do
  read -r rows cols dtype <<< "$shape"
  [ -n "$rows" ] || continue
  for round in $(seq 1 "${ROUNDS:-3}"); do
    for variant in A B; do
      program=$a; [ $variant = B ] && program=$b
      result=$("$run" "$program" --rows "$rows" --cols "$cols" --dtype "$dtype" \
               --check --bench "$@" 2>&1)
      check=$(grep -o 'check:.*' <<< "$result" | grep -o 'OK\|FAILED' | head -1)
      speed=$(grep -oE '[0-9.]+ GB/s = [0-9.]+% of a (device|host) copy' <<< "$result")
      echo "${rows}x${cols} $dtype $variant round$round ${check:-ERROR} $speed" >> "$out"
    done
  done
done
python3 - "$out" <<'PY'
import collections, sys
best = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) >= 6 and parts[4] == "OK":
        key, variant, gbs = (parts[0], parts[1]), parts[2], float(parts[5])
        best[key][variant] = max(best[key].get(variant, 0.0), gbs)
for (shape, dtype), speeds in best.items():
    if "A" in speeds and "B" in speeds:
        print(f"{shape} {dtype}: A {speeds['A']:.1f} GB/s, B {speeds['B']:.1f} "
              f"GB/s, B/A {speeds['B'] / speeds['A']:.3f}")
PY
