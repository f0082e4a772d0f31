// REQUIRES: cuda-gpu
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 64 --cols 1048576
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 256 --cols 262144 --dtype bf16
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 33 --cols 100003 --special
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 5 --cols 7 --special
