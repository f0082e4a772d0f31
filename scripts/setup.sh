#!/usr/bin/env bash
# Installs what is missing (Debian 12: LLVM/MLIR 22, cmake, ninja), then
# configures and builds the project in ./build. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ python3 libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libgtest-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
linker=()
command -v ld.lld >/dev/null && linker=(-DLLVM_USE_LINKER=lld)
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${launcher[@]}" "${linker[@]}"
fi
cmake --build build -j "$(nproc)"
