// REQUIRES: cuda-gpu
// RUN: softmax-run %examples/softmax_online.mlir --target gpu --check --reference softmax --rows 512 --cols 65536
// RUN: softmax-run %examples/softmax_online.mlir --target gpu --check --reference softmax --rows 64 --cols 100003
// RUN: softmax-run %examples/softmax_online.mlir --target gpu --check --reference softmax --rows 7 --cols 3 --special
// RUN: softmax-run %examples/softmax_online.mlir --target gpu --check --reference softmax --rows 33 --cols 5000 --special --max-tile 1024
