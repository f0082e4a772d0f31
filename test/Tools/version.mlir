// --version names the project's version and commit beside LLVM's.
// RUN: softmax-run --version | FileCheck %s --check-prefix=SMR
// RUN: softmax-opt --version | FileCheck %s --check-prefix=OPT
// SMR-DAG: LLVM version 22
// SMR-DAG: softmax-run (blk-softmax {{[0-9]+\.[0-9]+\.[0-9]+}}, git {{([0-9a-f]+(-dirty-[0-9a-f]+)?|unknown)}})
// OPT-DAG: LLVM version 22
// OPT-DAG: softmax-opt (blk-softmax {{[0-9]+\.[0-9]+\.[0-9]+}}, git {{([0-9a-f]+(-dirty-[0-9a-f]+)?|unknown)}})
