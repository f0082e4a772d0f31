#!/usr/bin/env bash
# Compares the PTX two softmax-run binaries compile for the shapes of the
# benchmark table (no GPU needed: --emit-ptx only compiles). A change that
# leaves a shape's PTX identical cannot make it slower.
#   bench/ptx-diff.sh OLD_SOFTMAX_RUN [NEW_SOFTMAX_RUN] [SHAPES] [DTYPES]
# Prints one line per shape whose PTX differs, then the counts.
set -uo pipefail
old="${1:?usage: ptx-diff.sh OLD_SOFTMAX_RUN [NEW_SOFTMAX_RUN] [SHAPES] [DTYPES]}"
new="${2:-softmax-run}"
shapes="${3:-4096x128,4096x256,4096x512,4096x1024,4096x2048,4096x4096,4096x8192,4096x16384,4096x32768,1024x65536,512x131072,256x262144,64x1048576,262144x128,65536x1024}"
dtypes="${4:-f32,bf16}"
chip="${CHIP:-sm_90}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export BLK_CACHE_DIR=
same=0 differ=0
for dtype in ${dtypes//,/ }; do
  for shape in ${shapes//,/ }; do
    args=(auto --rows "${shape%x*}" --cols "${shape#*x}" --dtype "$dtype" --chip "$chip")
    if ! "$old" "${args[@]}" --emit-ptx "$tmp/old.ptx" >/dev/null ||
       ! "$new" "${args[@]}" --emit-ptx "$tmp/new.ptx" >/dev/null; then
      echo "$dtype $shape: did not compile" >&2
      exit 1
    fi
    # Comments name the compiler's version; the code is what runs.
    if cmp -s <(grep -v '^//' "$tmp/old.ptx") <(grep -v '^//' "$tmp/new.ptx"); then
      same=$((same + 1))
    else
      differ=$((differ + 1))
      echo "$dtype $shape: PTX differs"
    fi
  done
done
echo "$chip: $same shapes with identical PTX, $differ differ"
