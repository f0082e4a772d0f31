#!/usr/bin/env bash
# The main job: set up, build, then compile the fused softmax example and
# run it with a check against the double-precision reference, on the GPU
# when one is present, else on the CPU (softmax-run says which).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The job's options, each unless the caller gives it (softmax-run refuses
# an option given twice).
defaults=()
for option in "--rows 4096" "--cols 1024" "--check" "--reference softmax" \
              "--bench" "--target auto"; do
  name=${option%% *}
  [[ " $* " == *" $name "* || " $* " == *" $name="* ]] || defaults+=($option)
done
build/bin/softmax-run python-free-examples/softmax_fused.mlir \
  "${defaults[@]}" "$@"
