// blk.max_exp_sum written by hand (test/GPU/Inputs), on the CPU: expanded
// into the two reductions it stands for, checked against the float64
// softmax, special values included (a row of only -inf: NaN, as the two
// reductions give).
// RUN: softmax-run %S/../GPU/Inputs/softmax_max_exp_sum.mlir --target cpu --check --reference softmax --rows 33 --cols 1000
// RUN: softmax-run %S/../GPU/Inputs/softmax_max_exp_sum.mlir --target cpu --check --reference softmax --rows 21 --cols 4097 --special
// RUN: softmax-run %S/../GPU/Inputs/softmax_max_exp_sum.mlir --target cpu --check --reference softmax --rows 14 --cols 3 --dtype bf16 --special
// RUN: softmax-run %S/../GPU/Inputs/softmax_rows_max_exp_sum.mlir --target cpu --check --reference softmax --rows 77 --cols 100 --special
// RUN: softmax-run %S/../GPU/Inputs/softmax_rows_max_exp_sum.mlir --target cpu --check --reference softmax --rows 9 --cols 3
