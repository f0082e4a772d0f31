// REQUIRES: cuda-gpu
// python-free-examples/log_softmax.mlir on the GPU against the float64
// log-softmax (test/Runtime/log-softmax.mlir runs it on the CPU).
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 4096 --cols 1024
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 77 --cols 4097 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 333 --cols 30000 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 333 --cols 30001 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 1000 --cols 100 --dtype f16
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 1 --cols 1
