#!/usr/bin/env bash
# On a CUDA host (softmax-run on PATH): blk.program_barrier as lowered now,
# between sequentially consistent GPU-scope fences (fence.sc.gpu), against
# a build whose lowering uses a release fence before the arrival and an
# acquire fence after the spin (fence.acq_rel.gpu: ACQ_REL_SOFTMAX_RUN, built
# from 80bf35f with those two orderings changed in ProgramBarrierOp.cpp),
# in softmax_split_resident, with softmax_split beside them; each checked,
# one session, interleaved, each twice. With bf16, also 16384-column parts
# (each meeting then covers the bytes of an f32 part).
#   bench/ab-meeting-fences.sh ACQ_REL_SOFTMAX_RUN OUT_FILE [SHAPES] [DTYPES]
set -u
acqrel="${1:?usage: ab-meeting-fences.sh ACQ_REL_SOFTMAX_RUN OUT_FILE [SHAPES] [DTYPES]}"
out="${2:?usage: ab-meeting-fences.sh ACQ_REL_SOFTMAX_RUN OUT_FILE [SHAPES] [DTYPES]}"
shapes="${3:-64x1048576 8x1048576 128x524288}"
dtypes="${4:-f32 bf16}"
. "$(dirname "$0")/ab-lib.sh"
ab_start "$out"
"$acqrel" --version | tail -1 >> "$out"
for dtype in $dtypes; do
  for shape in $shapes; do
    m=${shape%x*} n=${shape#*x}
    args=(--rows "$m" --cols "$n" --dtype "$dtype")
    splits16k=$(( (n + 16383) / 16384 ))
    for round in 1 2; do
      ab_run "$out" split softmax_split "${args[@]}"
      ab_run "$out" seq-cst softmax_split_resident "${args[@]}"
      SOFTMAX_RUN="$acqrel" ab_run "$out" acq-rel softmax_split_resident "${args[@]}"
      if [ "$dtype" != f32 ]; then
        ab_run "$out" seq-cst-b16k softmax_split_resident "${args[@]}" --const BLOCK=16384,SPLITS=$splits16k
        SOFTMAX_RUN="$acqrel" ab_run "$out" acq-rel-b16k softmax_split_resident "${args[@]}" --const BLOCK=16384,SPLITS=$splits16k
      fi
    done
  done
done
