#!/usr/bin/env bash
# A/B of two softmax-run builds on the GPU: the same shapes (the table of
# docs/benchmarks.md) with the binding rules, old and new interleaved.
#   bench/ab.sh OLD_SOFTMAX_RUN NEW_SOFTMAX_RUN OUT_DIR   (writes OUT_DIR/ab.csv)
old=$1; new=$2; out=$3
for dtype in f32 bf16; do
  for shape in 4096x128 4096x256 4096x512 4096x1024 4096x2048 4096x4096 4096x8192 4096x16384 4096x32768 1024x65536 512x131072 256x262144 64x1048576 262144x128 65536x1024; do
    m=${shape%x*}; n=${shape#*x}
    for which in old new; do
      bin=$old; [ $which = new ] && bin=$new
      $bin auto --target gpu --rows $m --cols $n --dtype $dtype --bench --runs 50 --csv $out/ab.csv --provider $which 2>&1 | grep -E "bench|error" | sed "s/^/$which $dtype $shape /"
    done
  done
done
