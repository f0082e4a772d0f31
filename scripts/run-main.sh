#!/usr/bin/env bash
# The main job: set up, build, and bind the fused softmax example to a block
# size of 1024, printing the specialized program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/bin/softmax-opt python-free-examples/softmax_fused.mlir --blk-specialize="BLOCK=1024"
