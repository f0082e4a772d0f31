// REQUIRES: cuda-gpu
// python-free-examples/embed on the GPU: a softmax compiled through the
// MLIR-free API, launched on the program's own device buffers and on a
// stream it created (blk/Runtime/GpuProgram.h), checked against a float64
// reference ("all OK": about half the rows, then all of them, from one
// compilation). The second run of each shape takes the program from the
// kernel cache. sm_80's split softmax (scratch tensors, grown for the
// second run's rows) runs on an sm_90 GPU as well.
// RUN: rm -rf %t
// RUN: env BLK_CACHE_DIR=%t embed-softmax 4096 1024 | tail -n 1 | grep -qx "all OK"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 4096 1024 | tail -n 1 | grep -qx "all OK"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 64 65536 | tail -n 1 | grep -qx "all OK"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 64 65536 | tail -n 1 | grep -qx "all OK"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 1000 100 | tail -n 1 | grep -qx "all OK"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 3 50257 | tail -n 1 | grep -qx "all OK"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 1024 65536 sm_80 | tail -n 1 | grep -qx "all OK"
// RUN: env BLK_CACHE_DIR=%t embed-softmax 333 100003 sm_80 | tail -n 1 | grep -qx "all OK"
