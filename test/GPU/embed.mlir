// REQUIRES: cuda-gpu
// python-free-examples/embed on the GPU: a softmax compiled through the
// MLIR-free API, launched on the program's own device buffers and on a
// stream it created (blk/Runtime/GpuProgram.h), checked against a float64
// reference ("OK" at the end of its last line). The second run of each
// shape takes the program from the kernel cache.
// RUN: rm -rf %t
// RUN: env BLK_CACHE_DIR=%t embed-softmax 4096 1024 | grep -q "OK$"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 4096 1024 | grep -q "OK$"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 64 65536 | grep -q "OK$"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 64 65536 | grep -q "OK$"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 1000 100 | grep -q "OK$"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 3 50257 | grep -q "OK$"
