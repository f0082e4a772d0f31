// --input NAME=FILE fills any input tensor from a .npy file: cross_entropy's
// int64 (or int32) labels, with one row ignored, and an RMSNorm's weight;
// the file's shape and element kind must be the tensor's.
// RUN: rm -rf %t && mkdir -p %t && python3 %S/Inputs/make-npy.py %t
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input labels=%t/labels.npy --param ignore_index=-100 --check --reference cross_entropy --output %t/loss.npy | FileCheck %s
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input labels=%t/labels32.npy --param ignore_index=-100 --check --reference cross_entropy
// Labels outside [0, cols) (10 and -5 of 10 columns): the kernel's contract
// is loss = logsumexp (the label's logit reads as 0), and the reference
// follows it (it expected NaN, and failed the correct kernel).
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input labels=%t/outside.npy --param ignore_index=-100 --check --reference cross_entropy
// RUN: softmax-run %examples/rms_norm.mlir --target cpu --input %t/logits.npy --input weight=%t/weight.npy --param eps=1e-6 --check --reference rms_norm
// CHECK: cross_entropy.mlir: 4 x 10 f32
// CHECK: check loss: compared=4 {{.*}} OK
// CHECK: check lse: compared=4 {{.*}} OK

// Named inputs alone: the first 2-D float file sets the shape (it had
// needed --rows and --cols, or the unnamed --input).
// RUN: softmax-run %examples/cross_entropy.mlir --target cpu --input labels=%t/labels.npy --input logits=%t/logits.npy --param ignore_index=-100 --check --reference cross_entropy | FileCheck %s
// RUN: softmax-run %S/../GPU/Inputs/swiglu.mlir --target cpu --input gate=%t/logits.npy --input up=%t/logits.npy --check | FileCheck %s --check-prefix=NAMED
// NAMED: swiglu.mlir: 4 x 10 f32
// NAMED: check: {{.*}} OK

// The loss of the ignored row (the second) is 0: bytes 4..7 of the data.
// RUN: od -A n -t f4 -j 128 %t/loss.npy | FileCheck %s --check-prefix=LOSS
// LOSS: {{[0-9.e+-]+}} 0 {{[0-9.e+-]+}} {{[0-9.e+-]+}}

// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input labels=%t/five.npy --param ignore_index=-100 2>&1 | FileCheck %s --check-prefix=LENGTH
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input labels=%t/logits.npy --param ignore_index=-100 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input lbl=%t/labels.npy --param ignore_index=-100 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --input %t/labels.npy --param ignore_index=-100 2>&1 | FileCheck %s --check-prefix=PRIMARY
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input labels=%t/huge.npy --param ignore_index=-100 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input %t/logits.npy --param ignore_index=-100 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --input %t/logits.npy --input logits=%t/logits.npy --input labels=%t/labels.npy --param ignore_index=-100 2>&1 | FileCheck %s --check-prefix=BOTH
// LENGTH: softmax-run: --input labels={{.*}}five.npy: the file holds 1 x 5 values, but 'labels' is 4 values
// KIND: softmax-run: --input labels={{.*}}logits.npy: the file holds floats, but 'labels' is a tensor of i64
// NAME: softmax-run: --input lbl={{.*}}: the program has no input tensor 'lbl' (its inputs: logits, labels)
// PRIMARY: softmax-run: {{.*}}labels.npy holds integers; the first matrix input takes floats (give an integer tensor as --input NAME=FILE)
// HUGE: huge.npy: element 1 (1099511627776) is beyond 2^24, which float32 does not hold exactly
// TWICE: softmax-run: --input {{.*}}logits.npy: a second unnamed file
// BOTH: softmax-run: --input logits={{.*}}logits.npy and --input {{.*}}logits.npy both fill input logits (an unnamed --input fills the first matrix input): give one
