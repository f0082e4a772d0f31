// softmax-opt's own option comes first in --help, before the hundreds of
// LLVM and MLIR options.
// RUN: softmax-opt --help | FileCheck %s
// CHECK: OPTIONS:
// CHECK-NOT: --aarch64
// CHECK: Blk options:
// CHECK: --emit=<string>
// CHECK: General options:
