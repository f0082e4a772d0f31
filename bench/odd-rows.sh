#!/usr/bin/env bash
# Rows whose length is not a multiple of the 16-byte vector, against the
# aligned length next to them, the peers, and (optionally) an older
# softmax-run, all in one run on a CUDA host (issue 14: realigned runs).
#   bench/odd-rows.sh OUT_DIR [OLD_SOFTMAX_RUN]
# Writes OUT_DIR/new/{ours.csv,ours.log,peers.csv,table.txt} (bench/run.sh
# with peers) and, with OLD_SOFTMAX_RUN, OUT_DIR/old/ (the same shapes, no
# peers) and OUT_DIR/ab.txt: GB/s new / old per shape and dtype.
# AUTOTUNE=0 measures the binding rules alone (as bench/run.sh).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: odd-rows.sh OUT_DIR [OLD_SOFTMAX_RUN]}"
old="${2:-}"
shapes="${SHAPES:-2048x50257,2048x50256,4096x32001,4096x32000,333x100003,333x100000,4096x1001,4096x1000,256x151936,256x131072}"
dtypes="${DTYPES:-bf16,f32}"
mkdir -p "$out"
"$here/run.sh" "$out/new" "$shapes" "$dtypes"
if [ -n "$old" ]; then
  SOFTMAX_RUN="$old" PEERS=/nonexistent "$here/run.sh" "$out/old" "$shapes" "$dtypes"
  python3 - "$out/new/ours.csv" "$out/old/ours.csv" > "$out/ab.txt" <<'PY'
import csv, sys
def read(path):
    return {(r[0], r[1], r[2]): float(r[4]) for r in csv.reader(open(path)) if len(r) >= 5 and r[0] != "dtype"}
new, old = read(sys.argv[1]), read(sys.argv[2])
print("dtype M N old_GBps new_GBps new/old")
for key in new:
    if key in old:
        print(*key, old[key], new[key], f"{new[key] / old[key]:.3f}")
PY
  cat "$out/ab.txt"
fi
