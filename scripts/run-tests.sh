#!/usr/bin/env bash
# Runs the whole lit suite (sets up and builds first).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
/usr/lib/llvm-22/bin/lit -sv build/test "$@"
