// The hostile-input sweep of softmax-run on the CPU (mutated programs,
// sizes past every limit, malformed .npy files, writes that fail under a
// file-size limit): every case must end in a clear error or a correct run,
// with no crash, hang, LLVM fatal error or lost file. A fixed seed and a
// small count keep it quick and reproducible; run the script with a larger
// --count (and other seeds) to sweep more.
// RUN: %python %examples/../scripts/fuzz-softmax-run.py --softmax-run softmax-run --examples %examples --count 250 --seed 1 --jobs 2 | FileCheck %s
// CHECK: fuzz: 250 cases, 0 bad
//
// Mutations of every example program compiled to PTX through the driver
// (no GPU needed), and through softmax-opt's blk-to-ptx and blk-to-cpu
// pipelines: a clear error or code, never a crash (the last sweep by hand:
// 3000 gpu-compile cases, seed 7, and 4000 softmax-opt cases, seed 2).
// RUN: %python %examples/../scripts/fuzz-softmax-run.py --softmax-run softmax-run --examples %examples --family gpu-compile --count 150 --seed 1 --jobs 2 | FileCheck %s --check-prefix=GPU
// GPU: fuzz: 150 cases, 0 bad
// RUN: %python %examples/../scripts/fuzz-softmax-run.py --softmax-run softmax-run --softmax-opt softmax-opt --examples %examples --family opt --count 150 --seed 1 --jobs 2 | FileCheck %s --check-prefix=OPT
// OPT: fuzz: 150 cases, 0 bad
