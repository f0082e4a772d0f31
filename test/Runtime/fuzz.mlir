// The hostile-input sweep of softmax-run on the CPU (mutated programs,
// sizes past every limit, malformed .npy files, writes that fail under a
// file-size limit): every case must end in a clear error or a correct run,
// with no crash, hang, LLVM fatal error or lost file. A fixed seed and a
// small count keep it quick and reproducible; run the script with a larger
// --count (and other seeds) to sweep more.
// RUN: %python %examples/../scripts/fuzz-softmax-run.py --softmax-run softmax-run --examples %examples --count 250 --seed 1 --jobs 2 | FileCheck %s
// CHECK: fuzz: 250 cases, 0 bad
