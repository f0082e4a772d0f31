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
//
// Every row program, unmutated, on the rules' own binding for sm_90 at
// extreme shapes (odd vocabularies, rows of a million, odd ones among
// them), f32 and bf16: each must compile (this sweep found two bindings
// the compiler refused: bf16 rows of a million on 8 CTAs of 16 warps, and
// 1048573 columns with the shift's room on 16 x 16).
// RUN: %python %examples/../scripts/fuzz-softmax-run.py --softmax-run softmax-run --examples %examples --family bindings --jobs 2 | FileCheck %s --check-prefix=BINDINGS
// BINDINGS: fuzz: 192 cases, 0 bad

