#!/usr/bin/env bash
# Compares the PTX two softmax-run binaries compile for the shapes of the
# benchmark tables (no GPU needed: --emit-ptx only compiles). A change that
# leaves a shape's PTX identical cannot make it slower.
#   bench/ptx-diff.sh OLD_SOFTMAX_RUN [NEW_SOFTMAX_RUN] [SHAPES] [DTYPES] [PROGRAMS]
# SHAPES: RxC,...; DTYPES: f32,bf16,f16; PROGRAMS: `all` (default: the
# built-in softmax `auto` and every row-wise program of the family, each
# with the constants and parameters bench/rowwise.py gives it), or `auto`,
# or a comma-separated list of names of python-free-examples/*.mlir.
# CHIP (default sm_90) picks the chip; EXAMPLES the examples' folder.
# Prints one line per (program, dtype, shape) whose PTX differs, then the
# counts; exits 1 if any differs or does not compile.
set -uo pipefail
old="${1:?usage: ptx-diff.sh OLD_SOFTMAX_RUN [NEW_SOFTMAX_RUN] [SHAPES] [DTYPES] [PROGRAMS]}"
new="${2:-softmax-run}"
table_shapes="4096x128,4096x256,4096x512,4096x1024,4096x2048,4096x4096,4096x8192,4096x16384,4096x32768,1024x65536,512x131072,256x262144,64x1048576,8x1048576,262144x128,65536x1024"
odd_shapes="4096x1001,4096x4097,2048x32001,2048x50257,333x100003,1024x128256,512x151936,256x200000"
shapes="${3:-$table_shapes,$odd_shapes}"
dtypes="${4:-f32,bf16,f16}"
programs="${5:-all}"
chip="${CHIP:-sm_90}"
examples="${EXAMPLES:-$(cd "$(dirname "$0")/.." && pwd)/python-free-examples}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export BLK_CACHE_DIR=

# name|program|arguments: the family as bench/rowwise.py runs it.
family="auto|auto|
log_softmax|log_softmax.mlir|
softmax_online|softmax_online.mlir|
softmax_persistent|softmax_persistent.mlir|
scaled_softmax|softmax_scaled_masked.mlir|--const CAUSAL=1 --param scale=0.125,offset=0
softmax_backward|softmax_backward.mlir|
cross_entropy|cross_entropy.mlir|--param ignore_index=-100
rms_norm|rms_norm.mlir|--param eps=1e-6
layer_norm|layer_norm.mlir|--param eps=1e-5"
if [ "$programs" = all ]; then
  selected="$family"
else
  selected=""
  for name in ${programs//,/ }; do
    line=$(grep "^$name|" <<<"$family" || echo "$name|$name.mlir|")
    selected+="$line"$'\n'
  done
fi

same=0 differ=0 failed=0
while IFS='|' read -r name program extra; do
  [ -z "$name" ] && continue
  [ "$program" != auto ] && program="$examples/$program"
  for dtype in ${dtypes//,/ }; do
    for shape in ${shapes//,/ }; do
      # shellcheck disable=SC2086
      args=("$program" --rows "${shape%x*}" --cols "${shape#*x}" --dtype "$dtype" --chip "$chip" $extra)
      "$old" "${args[@]}" --emit-ptx "$tmp/old.ptx" >"$tmp/old.log" 2>&1
      old_rc=$?
      "$new" "${args[@]}" --emit-ptx "$tmp/new.ptx" >"$tmp/new.log" 2>&1
      new_rc=$?
      if [ $old_rc -ne 0 ] && [ $new_rc -ne 0 ]; then
        continue   # neither compiles it (a shape the program refuses)
      fi
      if [ $old_rc -ne 0 ] || [ $new_rc -ne 0 ]; then
        failed=$((failed + 1))
        echo "$name $dtype $shape: compiles with one binary only (old rc $old_rc, new rc $new_rc)"
        tail -3 "$tmp/old.log" "$tmp/new.log"
        continue
      fi
      # Comments name the compiler's version; the code is what runs.
      if cmp -s <(grep -v '^//' "$tmp/old.ptx") <(grep -v '^//' "$tmp/new.ptx"); then
        same=$((same + 1))
      else
        differ=$((differ + 1))
        echo "$name $dtype $shape: PTX differs"
      fi
    done
  done
done <<<"$selected"
echo "$chip: $same identical, $differ differ, $failed compile with one binary only"
[ $differ -eq 0 ] && [ $failed -eq 0 ]
