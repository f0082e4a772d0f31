#!/bin/bash
# A/B of the first-holder store (a171566), one run: A = softmax-run built at
# 14f4e29 (every thread stores a replicated block) with that commit's
# cross_entropy.mlir (AB_DIR/cross_entropy_head.mlir: x[label] read after the
# reductions); B = a171566. Interleaved, each twice. Then warps/CTAs sweeps
# of layer_norm bf16 and rms_norm f32 with B.
# Produced docs/bench-data/rowwise/ab-first-holder-store-h100.log.
# usage: ab-rowwise-store.sh NEW_SOFTMAX_RUN OLD_SOFTMAX_RUN EXAMPLES AB_DIR
new=$1; old=$2; ex=$3; ab=$4
bench() { "$@" --target gpu --bench --runs 50 2>&1 | grep -oE "BLOCK[^,]*|[0-9.]+% of a device copy" | tr '\n' ' '; echo; }
for shape in "4096 4096 f32" "4096 4096 bf16" "4096 8192 bf16" "1024 65536 f32" "4096 50257 bf16" "4096 128256 f32"; do
  set -- $shape
  for i in 1 2; do
    echo "A cross_entropy $shape: $(bench $old $ab/cross_entropy_head.mlir --rows $1 --cols $2 --dtype $3 --param ignore_index=-100)"
    echo "B cross_entropy $shape: $(bench $new $ex/cross_entropy.mlir --rows $1 --cols $2 --dtype $3 --param ignore_index=-100)"
  done
done
for shape in "64 1048576 f32" "16 4194304 bf16"; do
  set -- $shape
  for i in 1 2; do
    echo "A softmax_split $shape: $(bench $old $ex/softmax_split.mlir --rows $1 --cols $2 --dtype $3)"
    echo "B softmax_split $shape: $(bench $new $ex/softmax_split.mlir --rows $1 --cols $2 --dtype $3)"
  done
done
for w in 4 8 16; do echo "B layer_norm 4096 4096 bf16 warps=$w: $(bench $new $ex/layer_norm.mlir --rows 4096 --cols 4096 --dtype bf16 --param eps=1e-5 --num-warps $w)"; done
for w in 8 16 32; do echo "B layer_norm 4096 16384 bf16 warps=$w: $(bench $new $ex/layer_norm.mlir --rows 4096 --cols 16384 --dtype bf16 --param eps=1e-5 --num-warps $w)"; done
for c in 2 4 8 16; do for w in 4 8 16; do echo "B layer_norm 4096 32768 bf16 ctas=$c warps=$w: $(bench $new $ex/layer_norm.mlir --rows 4096 --cols 32768 --dtype bf16 --param eps=1e-5 --num-ctas $c --num-warps $w)"; done; done
for c in 1 2 4 8; do for w in 8 16; do echo "B rms_norm 4096 32768 f32 ctas=$c warps=$w: $(bench $new $ex/rms_norm.mlir --rows 4096 --cols 32768 --dtype f32 --param eps=1e-6 --num-ctas $c --num-warps $w)"; done; done
