// softmax-opt --help: blk's own option first, then the passes and
// pipelines and the MLIR options a user sets, in under 150 lines; LLVM's
// backend flags (amdgpu, x86, polly: 400 of the 532 lines before) only with
// --help-hidden.
// RUN: softmax-opt --help > %t.help
// RUN: %python -c "import sys; n = len(open(sys.argv[1]).readlines()); print('lines:', n); sys.exit(n >= 150)" %t.help
// RUN: FileCheck %s --input-file %t.help
// RUN: softmax-opt --help-hidden | FileCheck %s --check-prefix=HIDDEN
// CHECK: OPTIONS:
// CHECK-NOT: --aarch64
// CHECK: Blk options:
// CHECK: --emit=<string>
// CHECK: General options:
// CHECK: --blk-specialize
// CHECK: --blk-to-ptx
// CHECK: --mlir-print-ir-after-all
// CHECK: -o <filename>
// CHECK: --split-input-file
// CHECK-NOT: amdgpu
// CHECK-NOT: --x86-
// HIDDEN: --amdgpu-
