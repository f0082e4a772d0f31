#!/usr/bin/env bash
# On a CUDA host: softmax-run (rules) against fixed CTAs x warps for 16-bit
# rows on thread-block clusters, one line per binding with its block,
# registers, occupancy and GB/s (% of a same-size copy). Produced
# docs/bench-data/wide-rows-sweep/ (the binding rule for peeled 16-bit rows).
#   bench/sweep-clusters.sh OUT_FILE
# SHAPES (M N pairs), CONFIGS ("CTAS WARPS", 0 0 = the rules), DTYPE (bf16)
# and PROGRAM (auto, softmax_fused past 65536 columns) override;
# SWEEP_ARGS are added to every run (e.g. --reference rms_norm --param
# eps=1e-6 for PROGRAM=rms_norm).
set -u
out="${1:?usage: sweep-clusters.sh OUT_FILE}"
shapes="${SHAPES:-2048 50257,2048 50256,1024 65536,4096 32001,333 100003,512 151936,2048 32001}"
configs="${CONFIGS:-0 0,2 4,2 8,2 16,4 4,4 8,8 4,8 8}"
dtype="${DTYPE:-bf16}"
nvidia-smi --query-gpu=name --format=csv,noheader > "$out"
IFS=, read -ra shape_list <<< "$shapes"
IFS=, read -ra config_list <<< "$configs"
for shape in "${shape_list[@]}"; do
  read -r m n <<< "$shape"
  # Past 65536 16-bit columns auto may pick the split program: sweep fused.
  prog=auto; [ "$n" -gt 65536 ] && prog=softmax_fused
  prog=${PROGRAM:-$prog}
  for config in "${config_list[@]}"; do
    read -r c w <<< "$config"
    extra=""; [ "$c" != 0 ] && extra="--num-ctas $c --num-warps $w"
    # shellcheck disable=SC2086
    line=$(timeout 60 softmax-run $prog --rows "$m" --cols "$n" --dtype "$dtype" --target gpu --bench --verbose $extra ${SWEEP_ARGS:-} 2>&1 |
           grep -E "target:|registers|bench:|error:" | tr '\n' ' ')
    echo "$dtype ${m}x${n} ctas=$c warps=$w | $line" >> "$out"
  done
done
cat "$out"
