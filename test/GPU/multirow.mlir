// REQUIRES: cuda-gpu
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 4096 --cols 128
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 262144 --cols 128
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 1001 --cols 33 --special
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 5 --cols 512
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 300 --cols 1 --special
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 4096 --cols 256 --dtype bf16
