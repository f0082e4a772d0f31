#!/bin/bash
# On the GPU host: compute-sanitizer memcheck and racecheck on the kernels of
# odd row lengths (peeled rows, split and whole, their fallbacks, realigned
# rows, blocks of whole layout tiles), each run with --check. Produced
# docs/bench-data/odd-rows-peel-h100/sanitizers.txt and
# docs/bench-data/tiled-blocks-h100/sanitizers.txt.
# usage: sanitize-odd-rows.sh BUNDLE_DIR OUT_DIR
b=$1; out=$2; cd "$b" || exit 1
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
echo "sanitizer: $cs"
[ -n "$cs" ] || exit 1
n=0
while read -r prog args; do
  n=$((n + 1))
  for tool in memcheck racecheck; do
    # shellcheck disable=SC2086
    $cs --tool $tool --error-exitcode 9 bin/softmax-run examples/$prog --target gpu --check $args > "$out/sanitizer-$tool-$n.log" 2>&1
    echo "$tool $prog $args: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool-$n.log" | tr '\n' ' ')"
  done
done <<'L'
softmax_fused.mlir --rows 16 --cols 50257 --dtype bf16 --special
softmax_fused.mlir --rows 16 --cols 50257 --special
softmax_fused.mlir --rows 16 --cols 32001 --dtype bf16
softmax_fused.mlir --rows 33 --cols 1001 --dtype bf16 --in-stride 1009 --out-stride 1017 --special
softmax_fused.mlir --rows 33 --cols 1001 --dtype bf16 --in-stride 1003 --out-stride 1005
softmax_fused.mlir --rows 8 --cols 65535 --dtype bf16
softmax_fused.mlir --rows 9 --cols 7 --dtype bf16 --special
cross_entropy.mlir --reference cross_entropy --param ignore_index=-100 --rows 9 --cols 50257 --dtype bf16 --special
softmax_backward.mlir --reference softmax_backward --rows 9 --cols 30001 --dtype bf16
rms_norm.mlir --reference rms_norm --param eps=1e-6 --rows 9 --cols 4099 --dtype bf16 --num-ctas 2
softmax_fused.mlir --rows 8 --cols 151936 --special
softmax_fused.mlir --rows 9 --cols 8191 --in-stride 8195 --out-stride 8197 --special
softmax_split.mlir --rows 3 --cols 1048573 --dtype bf16 --special
softmax_split.mlir --rows 5 --cols 100003 --dtype bf16 --in-stride 100007 --out-stride 100005
rms_norm.mlir --reference rms_norm --param eps=1e-6 --rows 5 --cols 50257 --dtype bf16
L
