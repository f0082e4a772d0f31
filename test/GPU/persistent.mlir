// REQUIRES: cuda-gpu
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --rows 4096 --cols 1024
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --rows 65536 --cols 2048 --dtype bf16
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --rows 3 --cols 100 --special
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --rows 100000 --cols 33
