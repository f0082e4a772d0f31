#!/usr/bin/env bash
# Regenerates the dialect and pass reference (mlir-tblgen, from the .td files)
# and copies it into docs/reference/, where it is committed so that a reader
# of the repository sees it without building.
#
#   scripts/update-reference-docs.sh [BUILD_DIR]      (default: build)
#
# The build directory must be configured (scripts/setup.sh does it). Files in
# docs/reference/ that mlir-doc no longer generates are removed.
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "update-reference-docs: $build is not a configured build directory" \
       "(run scripts/setup.sh first)" >&2
  exit 1
fi

cmake --build "$build" --target mlir-doc -j 1

generated="$build/docs/Blk"
shopt -s nullglob
files=("$generated"/*.md)
if ((${#files[@]} == 0)); then
  echo "update-reference-docs: mlir-doc wrote nothing to $generated" >&2
  exit 1
fi

mkdir -p docs/reference
for old in docs/reference/*.md; do
  [ -f "$generated/$(basename "$old")" ] || rm -v "$old"
done
for file in "${files[@]}"; do
  cp "$file" docs/reference/
  echo "docs/reference/$(basename "$file")"
done
