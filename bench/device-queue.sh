#!/usr/bin/env bash
# Runs a queue of measurements on the GPU host in one call, under one
# deadline, and packs everything it wrote into $OUT/out.tgz (the device
# tool returns at most 8 files, so one archive; a call cut short still
# returns what the finished steps wrote). From the repository root, with
# the bundle (scripts/make-bundle.sh) and any experiments
# (scripts/make-experiment.sh) carried in .bundle/:
#
#   bench/device-queue.sh QUEUE [DEADLINE_SECONDS]     (default 570)
#
# QUEUE is a bash file of steps (see bench/queues/): it defines functions
# and calls `step CAP NAME FUNCTION`, which runs FUNCTION from the bundle's
# root under `timeout` of CAP seconds or what is left of the deadline,
# whichever is less (skipped under 20 s left); its output goes to
# $W/NAME.out and .err, and any other file it writes belongs under $W. In
# it, $EXP/NAME/softmax-run is experiment NAME's binary and $EXP/NAME its
# other files, and $REPO the repository's copy the call carried. $W/queue.log records each step's
# status and seconds; nvidia-smi and the torch and triton versions are
# recorded first. QUEUE may test `on_h200` to order its steps by chip.
# SKIP="NAME ..." skips steps a queue names (those an earlier call did).
set -uo pipefail
repo=$(pwd)
export REPO=$repo
queue=$(realpath "$1")
deadline=${2:-570}
start=$(date +%s)
: "${OUT:?OUT must name the folder whose files come back}"
export W=/tmp/device-queue/results
export EXP=/tmp/device-queue/experiments
rm -rf /tmp/device-queue
mkdir -p "$W" "$EXP"
log=$W/queue.log

pack() { tar czf "$OUT/out.tgz" -C "$W" .; }
trap pack EXIT

elapsed() { echo $(($(date +%s) - start)); }
on_h200() { grep -q H200 "$W/versions.txt"; }

step() {
  local cap=$1 name=$2 fn=$3
  if [[ " ${SKIP:-} " == *" $name "* ]]; then
    echo "$name skipped: SKIP" >>"$log"
    return
  fi
  local left=$((deadline - $(elapsed)))
  ((left < cap)) && cap=$left
  if ((left < 20)); then
    echo "$name skipped: $left s left" >>"$log"
    return
  fi
  local begun=$(date +%s)
  export -f "$fn"
  (cd /tmp/device-queue/blk-bundle && timeout "$cap" bash -c "$fn") \
    >"$W/$name.out" 2>"$W/$name.err"
  echo "$name rc=$? in $(($(date +%s) - begun)) s (cap $cap, at $(elapsed) s)" >>"$log"
}

tar -C /tmp/device-queue -xf "$repo/.bundle/blk-bundle.tar.xz"
for archive in "$repo"/.bundle/experiments/*/softmax-run.xz; do
  [ -e "$archive" ] || continue
  name=$(basename "$(dirname "$archive")")
  cp -r "$(dirname "$archive")" "$EXP/$name"
  xz -d "$EXP/$name/softmax-run.xz"
  chmod +x "$EXP/$name/softmax-run"
done
nvidia-smi >"$W/nvidia-smi.txt" 2>&1
python3 -c "import torch, triton; print(torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  >"$W/versions.txt" 2>&1
echo "unpacked at $(elapsed) s: $(cat "$W/versions.txt")" >>"$log"
# shellcheck source=/dev/null
source "$queue"
