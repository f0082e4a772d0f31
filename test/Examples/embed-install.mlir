// python-free-examples/embed is an out-of-tree CMake project: it finds the
// compiler installed in a prefix (find_package(Blk CONFIG REQUIRED), one
// target, Blk::Blk), not the build tree, compiles a softmax through the
// MLIR-free API (blk/Driver/Compiler.h) and, where there is a GPU, launches
// it on its own buffers and stream (test/GPU/embed.mlir runs it there).
// RUN: rm -rf %t && cmake --install %blk_obj_root --prefix %t/prefix > %t.install.log
// RUN: cmake -S %examples/embed -B %t/build -G Ninja -DCMAKE_PREFIX_PATH=%t/prefix > %t.configure.log
// RUN: cmake --build %t/build > %t.build.log
// RUN: env BLK_CACHE_DIR=%t/cache %t/build/embed-softmax 4096 1024 sm_90 | FileCheck %s --check-prefix=FUSED
// RUN: env BLK_CACHE_DIR=%t/cache %t/build/embed-softmax 1024 65536 sm_80 | FileCheck %s --check-prefix=SPLIT
// RUN: ls %t/cache | count 2
// The prefix has the tools too.
// RUN: %t/prefix/bin/softmax-run --version | FileCheck %s --check-prefix=TOOL

// FUSED: compiled BLOCK=1024 for 4096 x 1024 f32 on gpu sm_90 +ptx80: 1 kernel(s), grid 4096
// SPLIT: compiled BLOCK=8192 SPLITS=8 for 1024 x 65536 f32 on gpu sm_80 +ptx80: 2 kernel(s), grid 8192
// TOOL: softmax-run (blk-softmax
