// blk.sum_centered_squares written by hand (test/GPU/Inputs), on the CPU:
// expanded into the two reductions it stands for, checked against the
// float64 layer_norm and against the program run in float64 (blk/
// Interpreter, which runs the op as it is defined), special values
// included.
// RUN: softmax-run %S/../GPU/Inputs/layer_norm_sum_centered_squares.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 1000
// RUN: softmax-run %S/../GPU/Inputs/layer_norm_sum_centered_squares.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 17 --cols 4097 --special
// RUN: softmax-run %S/../GPU/Inputs/layer_norm_sum_centered_squares.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %S/../GPU/Inputs/layer_norm_sum_centered_squares.mlir --target cpu --check --param eps=1e-5 --rows 17 --cols 4097 --special | FileCheck %s
// CHECK: OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)
