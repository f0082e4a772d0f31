#!/bin/bash
# A/B of the cluster rule in thirds of a row (held rows 3, rows read after
# the last reduction 2 in f32 and 1 in 16 bits), one run, one build: A forces
# the warps and CTAs that 8bfdb65's rule (held rows only) chose, B lets the
# rules choose. Interleaved, each twice.
# Produced docs/bench-data/rowwise/ab-register-thirds-h100.log.
# usage: ab-rowwise-register-thirds.sh SOFTMAX_RUN EXAMPLES
run=$1; ex=$2
bench() { "$run" "$@" --target gpu --bench --runs 50 2>&1 | grep -oE "BLOCK[^,]*|[0-9.]+% of a device copy" | tr '\n' ' '; echo; }
while read name m n d w c param; do
  for i in 1 2; do
    echo "A $name $m x $n $d: $(bench $ex/$name.mlir --rows $m --cols $n --dtype $d --param $param --num-warps $w --num-ctas $c)"
    echo "B $name $m x $n $d: $(bench $ex/$name.mlir --rows $m --cols $n --dtype $d --param $param)"
  done
done <<'L'
layer_norm 4096 32768 f32 16 1 eps=1e-5
layer_norm 1024 65536 f32 8 4 eps=1e-5
layer_norm 1024 65536 bf16 4 8 eps=1e-5
layer_norm 256 262144 f32 8 16 eps=1e-5
layer_norm 256 262144 bf16 8 16 eps=1e-5
rms_norm 1024 65536 f32 8 4 eps=1e-6
rms_norm 1024 65536 bf16 4 8 eps=1e-6
rms_norm 256 262144 f32 8 16 eps=1e-6
rms_norm 256 262144 bf16 8 16 eps=1e-6
L
