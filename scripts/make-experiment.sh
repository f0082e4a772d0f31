#!/usr/bin/env bash
# Builds a statically linked softmax-run with patches applied, for an A/B on
# the GPU host against the bundle of the tree as it is (scripts/make-bundle.sh):
#
#   scripts/make-experiment.sh NAME [PATCH ...] [-- FILE ...]
#
# writes .bundle/experiments/NAME/softmax-run.xz (stripped, xz -9), the
# examples as the patches leave them (examples/), and each FILE (probe
# programs, say). The patches are applied to the work tree, built into
# build/portable, and taken back out whether or not the build succeeds; a
# tree a patch does not apply to cleanly is refused. On the GPU host,
# bench/device-queue.sh unpacks each experiment to $EXP/NAME.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
  echo "usage: $0 NAME [PATCH ...] [-- FILE ...]" >&2
  exit 2
fi
name=$1
shift
patches=()
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  patches+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
files=("$@")

for patch in "${patches[@]}"; do
  git apply --check "$patch" || {
    echo "$0: $patch does not apply to the work tree" >&2
    exit 1
  }
done
applied=()
restore() {
  for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
    git apply -R "${applied[i]}"
  done
}
trap restore EXIT
for patch in "${patches[@]}"; do
  git apply "$patch"
  applied+=("$patch")
done

scripts/setup.sh >/dev/null
cmake -S . -B build -DBLK_PORTABLE_TOOLS=ON >/dev/null
cmake --build build -j "$(nproc)" --target softmax-run-portable

dir=.bundle/experiments/$name
mkdir -p "$dir"
strip -o "$dir/softmax-run.tmp" build/portable/softmax-run
xz -9 -T0 -c "$dir/softmax-run.tmp" > "$dir/softmax-run.xz.tmp"
mv "$dir/softmax-run.xz.tmp" "$dir/softmax-run.xz"
rm -f "$dir/softmax-run.tmp"
rm -rf "$dir/examples"
cp -r python-free-examples "$dir/examples"
for file in "${files[@]}"; do
  cp "$file" "$dir/"
done
ls -la "$dir"
