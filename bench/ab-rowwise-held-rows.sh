#!/bin/bash
# A/B of the row-wise binding change (heldRows, 14f4e29), one run: A = the
# programs of ac896a5 (AB_DIR/<name>_old.mlir, from `git show
# ac896a5:python-free-examples/<name>.mlir`) with that commit's warps and CTAs
# forced, B = the programs and rules of 14f4e29. Interleaved, each twice.
# Produced docs/bench-data/rowwise/ab-held-rows-h100.log.
# usage: ab-rowwise-held-rows.sh SOFTMAX_RUN EXAMPLES AB_DIR
run=$1; ex=$2; ab=$3
one() { # label program args...
  local label=$1; shift
  local line=$("$run" "$@" --target gpu --bench --runs 50 2>&1 | grep -E "bench:|target:|error" | tr '\n' ' ')
  echo "$label | $*" | sed "s|$ex/||; s|$ab/||"; echo "    $line"
}
case_() { # name rows cols dtype oldprog oldwarps oldctas extra...
  local name=$1 m=$2 n=$3 d=$4 old=$5 w=$6 c=$7; shift 7
  for i in 1 2; do
    one "A $name" $old --rows $m --cols $n --dtype $d --num-warps $w --num-ctas $c "$@"
    one "B $name" $ex/$name.mlir --rows $m --cols $n --dtype $d "$@"
  done
}
case_ softmax_backward 4096 32768 f32 $ex/softmax_backward.mlir 16 1
case_ softmax_backward 4096 32768 bf16 $ex/softmax_backward.mlir 16 1
case_ softmax_backward 4096 8192 f32 $ex/softmax_backward.mlir 8 1
case_ rms_norm 4096 32768 f32 $ab/rms_norm_old.mlir 16 1 --param eps=1e-6
case_ rms_norm 4096 8192 f32 $ab/rms_norm_old.mlir 8 1 --param eps=1e-6
case_ rms_norm 1024 65536 f32 $ab/rms_norm_old.mlir 8 4 --param eps=1e-6
case_ layer_norm 4096 32768 f32 $ab/layer_norm_old.mlir 16 1 --param eps=1e-5
case_ layer_norm 4096 8192 f32 $ab/layer_norm_old.mlir 8 1 --param eps=1e-5
case_ layer_norm 4096 16384 bf16 $ab/layer_norm_old.mlir 16 1 --param eps=1e-5
case_ cross_entropy 4096 4096 f32 $ab/cross_entropy_old.mlir 4 1 --param ignore_index=-100
case_ cross_entropy 4096 8192 bf16 $ab/cross_entropy_old.mlir 8 1 --param ignore_index=-100
case_ cross_entropy 1024 65536 f32 $ab/cross_entropy_old.mlir 8 4 --param ignore_index=-100
