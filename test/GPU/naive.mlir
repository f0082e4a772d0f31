// REQUIRES: cuda-gpu
// RUN: softmax-run %examples/softmax_naive.mlir --target gpu --check --reference softmax --rows 4096 --cols 1024
// RUN: softmax-run %examples/softmax_naive.mlir --target gpu --check --reference softmax --rows 77 --cols 3001 --special
// RUN: softmax-run %examples/softmax_naive.mlir --target gpu --check --reference softmax --rows 512 --cols 2048 --dtype bf16
