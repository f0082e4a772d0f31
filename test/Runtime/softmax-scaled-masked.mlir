// python-free-examples/softmax_scaled_masked.mlir on the CPU against the
// float64 softmax(scale * x) with columns past row + offset masked where
// CAUSAL=1 (--reference scaled_softmax): rows with every column masked are
// NaN, a negative scale flips the order, CAUSAL=0 is a scaled softmax.
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=0 --rows 64 --cols 1000 | FileCheck %s
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference scaled_softmax --const CAUSAL=0 --param scale=2,offset=0 --rows 17 --cols 4097 --special
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=-0.5,offset=-3 --rows 33 --cols 300 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=1,offset=5 --rows 40 --cols 30 --dtype f16
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=1,offset=0 --rows 1 --cols 1
// An offset near 2^31 - 1: row + offset saturates rather than wrapping
// (wrapped, rows past the wrap masked every column and came out all NaN,
// where torch masks nothing).
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=2147483600 --rows 64 --cols 100
// CHECK: softmax_scaled_masked.mlir: 64 x 1000 f32
// CHECK: check: {{.*}} OK

// The mask is the reference's too: a causal kernel is not a scaled softmax.
// RUN: not softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference softmax --const CAUSAL=1 --param scale=1,offset=0 --rows 8 --cols 100 | FileCheck %s --check-prefix=WRONG
// WRONG: check: {{.*}} FAILED
