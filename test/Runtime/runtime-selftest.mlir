// RUN: runtime-selftest

// Not MLIR: this file only runs the runtime library's self test (.npy
// reading and writing, fp16/bf16 conversions, the reference softmax, error
// statistics, and loading the CUDA driver, which may be absent). The tool
// exits non-zero if any check fails.
