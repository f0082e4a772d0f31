// REQUIRES: cuda-gpu
// Bad input on a GPU host: clear errors and a non-zero exit.
// RUN: not softmax-run %examples/softmax_fused.mlir --target gpu --check --rows 4 --cols 3000000
// RUN: not softmax-run %examples/softmax_fused.mlir --target gpu --check --rows 4 --cols 8 --chip sm_20
// RUN: not softmax-run %examples/softmax_fused.mlir --target gpu --check --input %S/does-not-exist.npy
// RUN: not softmax-run %examples/softmax_fused.mlir --target gpu --check --rows 4 --cols 8 --const BLOCK=4
