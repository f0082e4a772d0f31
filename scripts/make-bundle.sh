#!/usr/bin/env bash
# Packs statically linked softmax-opt, softmax-run and embed-softmax, lit, the GPU tests,
# the examples and the benchmark scripts into .bundle/blk-bundle.tar.xz, for
# a GPU host without LLVM. There:
#   tar xf blk-bundle.tar.xz && blk-bundle/run-gpu-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
cmake -S . -B build -DBLK_PORTABLE_TOOLS=ON >/dev/null
cmake --build build -j "$(nproc)" --target softmax-opt-portable softmax-run-portable \
  embed-softmax-portable

stage=.bundle/blk-bundle
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/gpu-tests" "$stage/bench"
cp build/portable/softmax-opt build/portable/softmax-run \
  build/portable/embed-softmax "$stage/bin/"
strip "$stage/bin/"*
cp -r /usr/lib/llvm-22/utils/lit "$stage/lit"
find "$stage/lit" -name __pycache__ -prune -exec rm -rf {} +
cp -r python-free-examples "$stage/examples"
cp test/GPU/*.mlir "$stage/gpu-tests/"
cp -r test/GPU/Inputs "$stage/gpu-tests/Inputs"
# The .npy writer of the CPU tests, where the GPU tests find it beside them.
mkdir -p "$stage/Runtime/Inputs"
cp test/Runtime/Inputs/make-npy.py "$stage/Runtime/Inputs/"
cp scripts/bundle-lit.cfg.py "$stage/gpu-tests/lit.cfg.py"
cp bench/*.sh bench/*.py bench/*.mlir "$stage/bench/"
cat > "$stage/run-gpu-tests.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the GPU tests with the bundle's tools; extra arguments go to lit.
here="$(cd "$(dirname "$0")" && pwd)"
PYTHONPATH="$here/lit" exec python3 -c 'from lit.main import main; main()' -sv "$here/gpu-tests" "$@"
RUN
chmod +x "$stage/run-gpu-tests.sh"
# xz -9: 38 MB where the default level gives 46, so that the bundle and an
# experiment's softmax-run (16 MB compressed) travel together under the GPU
# host's 64 MiB limit on what a call carries.
tar -C .bundle -cf - blk-bundle | xz -9 -T0 > .bundle/blk-bundle.tar.xz.tmp
mv .bundle/blk-bundle.tar.xz.tmp .bundle/blk-bundle.tar.xz
ls -la .bundle/blk-bundle.tar.xz
