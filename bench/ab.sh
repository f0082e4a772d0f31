#!/usr/bin/env bash
# A/B(/C...) of softmax-run builds on the GPU: the shapes of the table of
# docs/benchmarks.md with the binding rules (`auto`), the builds interleaved
# shape by shape so that clock and temperature drift hits them alike.
#   bench/ab.sh OUT_DIR LABEL=SOFTMAX_RUN LABEL=SOFTMAX_RUN ...
# writes OUT_DIR/ab-LABEL.csv per build (dtype,M,N,provider,gbps[,target]
# with provider = LABEL: builds of different ages write different columns).
# REPEATS=N (default 1) runs the whole sweep N times; DTYPES and SHAPES
# ("MxN ...") narrow it.
set -u
out=$1; shift
table="4096x128 4096x256 4096x512 4096x1024 4096x2048 4096x4096 4096x8192
       4096x16384 4096x32768 1024x65536 512x131072 256x262144 64x1048576
       262144x128 65536x1024"
for ((r = 0; r < ${REPEATS:-1}; r++)); do
  for dtype in ${DTYPES:-f32 bf16}; do
    for shape in ${SHAPES:-$table}; do
      m=${shape%x*}; n=${shape#*x}
      for build in "$@"; do
        label=${build%%=*}; bin=${build#*=}
        "$bin" auto --target gpu --rows "$m" --cols "$n" --dtype "$dtype" --bench --runs 50 \
            --csv "$out/ab-$label.csv" --provider "$label" 2>&1 |
          grep -E "bench|error" | sed "s/^/$label $dtype $shape /"
      done
    done
  done
done
