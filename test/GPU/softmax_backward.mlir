// REQUIRES: cuda-gpu
// python-free-examples/softmax_backward.mlir on the GPU against the float64
// reference (test/Runtime/softmax-backward.mlir runs it on the CPU), and
// against its own CPU lowering (--reference cpu); 65536 columns run on a
// cluster.
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --rows 4096 --cols 1024
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --rows 77 --cols 4097 --special
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --rows 333 --cols 30000 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --rows 64 --cols 65536
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference cpu --rows 100 --cols 1000 --dtype f16
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --rows 1 --cols 1
