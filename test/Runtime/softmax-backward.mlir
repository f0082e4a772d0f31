// python-free-examples/softmax_backward.mlir on the CPU against the float64
// dx = y * (dy - sum(y * dy)), y a softmax of random rows (--reference
// softmax_backward); --special puts a NaN and a +inf in dy and zeros in y.
// RUN: softmax-run %examples/softmax_backward.mlir --target cpu --check --reference softmax_backward --rows 64 --cols 1000 | FileCheck %s
// RUN: softmax-run %examples/softmax_backward.mlir --target cpu --check --reference softmax_backward --rows 17 --cols 4097 --special
// RUN: softmax-run %examples/softmax_backward.mlir --target cpu --check --reference softmax_backward --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_backward.mlir --target cpu --check --reference softmax_backward --rows 33 --cols 300 --dtype f16
// RUN: softmax-run %examples/softmax_backward.mlir --target cpu --check --reference softmax_backward --rows 9 --cols 100 --in-stride 128 --out-stride 112
// RUN: softmax-run %examples/softmax_backward.mlir --target cpu --check --reference softmax_backward --rows 1 --cols 1
// CHECK: softmax_backward.mlir: 64 x 1000 f32
// CHECK: check: {{.*}} OK
