// REQUIRES: cuda-gpu
// RUN: softmax-run %examples/softmax_naive.mlir --target gpu --check --rows 4096 --cols 1024
// RUN: softmax-run %examples/softmax_naive.mlir --target gpu --check --rows 77 --cols 3001 --special
// RUN: softmax-run %examples/softmax_naive.mlir --target gpu --check --rows 512 --cols 2048 --dtype bf16
