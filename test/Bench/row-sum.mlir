// bench/row_sum.mlir, the read-only yardstick of bench/rowwise.py
// (--kernels row_sum): it runs and checks against the program in float64
// on the CPU, odd rows and special values included.
// RUN: softmax-run %examples/../bench/row_sum.mlir --target cpu --check --rows 33 --cols 1001 --dtype bf16 --special | FileCheck %s
// RUN: softmax-run %examples/../bench/row_sum.mlir --target cpu --check --rows 7 --cols 4096 | FileCheck %s
// CHECK: OK (relative L2 tolerance {{.*}}, against the program in float64)
