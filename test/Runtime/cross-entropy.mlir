// python-free-examples/cross_entropy.mlir on the CPU against the float64
// loss and logsumexp per row (--reference cross_entropy): int64 labels
// uniform in [0, cols), ignore_index in every eighth row (loss 0); --special
// rows: -inf logits, all -inf, +inf, NaN (NaN loss and lse), and a label
// whose logit is -inf (+inf loss).
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 1000 | FileCheck %s
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --check --reference cross_entropy --param ignore_index=-100 --rows 17 --cols 4097 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --check --reference cross_entropy --param ignore_index=7 --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --check --reference cross_entropy --param ignore_index=-100 --rows 5 --cols 50257
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --check --reference cross_entropy --param ignore_index=-100 --rows 1 --cols 1
// An ignore_index a double cannot hold (2^53 + 1, the int64 limits): the
// labels and the index compare as integers, as the kernel compares them
// (286c229's reference stored 2^53 as the label, read the rows as ignored
// and failed the correct kernel with max_abs=8.01).
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --check --reference cross_entropy --param ignore_index=9007199254740993 --rows 17 --cols 300 | FileCheck %s --check-prefix=EXACT
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --check --reference cross_entropy --param ignore_index=-9223372036854775808 --rows 17 --cols 300 | FileCheck %s --check-prefix=EXACT
// EXACT: check loss: {{.*}} OK
// CHECK: cross_entropy.mlir: 64 x 1000 f32
// CHECK: check loss: {{.*}} OK
// CHECK: check lse: {{.*}} OK

// --output writes the loss, one value per row.
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --param ignore_index=-100 --rows 3 --cols 10 --output %t.npy
// RUN: od -A n -c -j 10 -N 60 %t.npy | tr -d ' \n' | FileCheck %s --check-prefix=NPY
// NPY: 'shape':(3,)
