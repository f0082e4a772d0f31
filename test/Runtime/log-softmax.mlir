// python-free-examples/log_softmax.mlir on the CPU, checked against the
// float64 log-softmax (--reference log_softmax; torch.log_softmax's special
// values: a -inf element gives -inf, a row with NaN, +inf or only -inf is NaN,
// and what overflows f32 is an infinity there too), in f32, f16 and bf16.
// RUN: softmax-run %examples/log_softmax.mlir --target cpu --check --reference log_softmax --rows 64 --cols 1000
// RUN: softmax-run %examples/log_softmax.mlir --target cpu --check --reference log_softmax --rows 77 --cols 4097 --special
// RUN: softmax-run %examples/log_softmax.mlir --target cpu --check --reference log_softmax --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target cpu --check --reference log_softmax --rows 33 --cols 300 --dtype f16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target cpu --check --reference log_softmax --rows 1 --cols 1
// Without --reference, the kernel's name (@log_softmax) chooses the kind.
// RUN: softmax-run %examples/log_softmax.mlir --target cpu --check --rows 8 --cols 100

// The softmax reference does not take a log-softmax: the check can fail.
// RUN: not softmax-run %examples/log_softmax.mlir --target cpu --check --reference softmax --rows 8 --cols 100 | FileCheck %s --check-prefix=WRONG
// WRONG: check: {{.*}} FAILED

// The PTX has no libdevice call and no lg2.approx (MathOps.cpp).
// RUN: softmax-run %examples/log_softmax.mlir --rows 4096 --cols 1024 --chip sm_90 --emit-ptx - | FileCheck %s --check-prefix=PTX
// PTX: .visible .entry log_softmax(
// PTX-NOT: lg2.approx
// PTX-NOT: __nv_
