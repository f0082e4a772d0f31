#!/bin/bash
# On the GPU host, in one run: the GPU tests of the row-wise programs,
# compute-sanitizer memcheck and racecheck on each, and the table against
# torch (bench/rowwise.py). Produced docs/bench-data/rowwise/table-h100.md,
# gpu-tests-h100.log and sanitizers-h100.txt.
# usage: rowwise-gpu.sh BUNDLE_DIR OUT_DIR
b=$1; out=$2; cd $b
./run-gpu-tests.sh -j4 --filter 'softmax_backward|rms_norm|layer_norm|cross_entropy|scaled_masked|log_softmax|fused|split|embed' > $out/gpu-tests.log 2>&1
grep -E "Passed|Failed|FAIL" $out/gpu-tests.log
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
echo "sanitizer: $cs"
if [ -n "$cs" ]; then
  while read prog ref args; do
    for tool in memcheck racecheck; do
      $cs --tool $tool --error-exitcode 9 bin/softmax-run examples/$prog --target gpu --check --reference $ref --rows 64 --cols 4097 $args > $out/sanitizer-$tool-$prog.log 2>&1
      echo "$tool $prog rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $out/sanitizer-$tool-$prog.log | tr '\n' ' ')"
    done
  done <<'L'
log_softmax.mlir log_softmax
softmax_scaled_masked.mlir scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=0
softmax_backward.mlir softmax_backward
cross_entropy.mlir cross_entropy --param ignore_index=-100
rms_norm.mlir rms_norm --param eps=1e-6
layer_norm.mlir layer_norm --param eps=1e-5
L
fi
timeout 400 python3 bench/rowwise.py --softmax-run bin/softmax-run --examples examples > $out/rowwise.md 2> $out/rowwise.err
awk -F'|' '{print $2,$3,$4,$6,$8}' $out/rowwise.md; tail -3 $out/rowwise.err
