// python-free-examples/embed is an out-of-tree CMake project: it finds the
// compiler installed in a prefix (find_package(Blk CONFIG REQUIRED), one
// target, Blk::Blk), not the build tree, compiles a softmax through the
// MLIR-free API (blk/Driver/Compiler.h) once per row length and runs it for
// two row counts: on the CPU here (blk/Driver/CpuProgram.h), and where
// there is a GPU on its own buffers and stream (test/GPU/embed.mlir).
// RUN: rm -rf %t && cmake --install %blk_obj_root --prefix %t/prefix > %t.install.log
// RUN: cmake -S %examples/embed -B %t/build -G Ninja -DCMAKE_PREFIX_PATH=%t/prefix > %t.configure.log
// RUN: cmake --build %t/build > %t.build.log
// RUN: env BLK_CACHE_DIR=%t/cache %t/build/embed-softmax 4096 1024 sm_90 | FileCheck %s --check-prefix=FUSED
// RUN: env BLK_CACHE_DIR=%t/cache %t/build/embed-softmax 1024 65536 sm_80 | FileCheck %s --check-prefix=SPLIT
// RUN: ls %t/cache | count 2
// The CPU, from the same API: one compilation runs 501 and 1000 rows.
// RUN: env BLK_CACHE_DIR=%t/cache %t/build/embed-softmax 1000 1000 cpu | FileCheck %s --check-prefix=HOST
// RUN: env BLK_CACHE_DIR=%t/cache %t/build/embed-softmax 7 1000 cpu | FileCheck %s --check-prefix=SEVEN
// RUN: ls %t/cache | count 3
// The prefix has the tools too.
// RUN: %t/prefix/bin/softmax-run --version | FileCheck %s --check-prefix=TOOL

// FUSED: compiled BLOCK=1024 for rows of 1024 f32, 1 to 2097151 rows, on gpu sm_90 +ptx80: 1 kernel(s)
// SPLIT: compiled BLOCK=8192 SPLITS=8 for rows of 65536 f32, 1 to 32767 rows, on gpu sm_80 +ptx80: 2 kernel(s)
// HOST: compiled BLOCK=1024 for rows of 1000 f32, 1 to 2147483 rows, on cpu: 1 kernel(s)
// HOST-NEXT: ran 501 rows on the CPU: {{.*}} OK
// HOST-NEXT: ran 1000 rows on the CPU: {{.*}} OK
// HOST-NEXT: all OK
// SEVEN: ran 4 rows on the CPU: {{.*}} OK
// SEVEN: ran 7 rows on the CPU: {{.*}} OK
// TOOL: softmax-run (blk-softmax
