// REQUIRES: cuda-gpu
// Kernels no kind reference knows, checked on the GPU against the program
// run in float64 (blk/Interpreter), with no --reference: an argmax's int32
// per row (exact), SwiGLU's two inputs, the examples whose kernels no kind
// names; the check line says what it compared with.
// RUN: softmax-run %S/Inputs/argmax.mlir --target gpu --check --rows 333 --cols 50257 --special | FileCheck %s --check-prefix=EXACT
// RUN: softmax-run %S/Inputs/argmax.mlir --target gpu --check --rows 64 --cols 1000 --dtype bf16 | FileCheck %s --check-prefix=EXACT
// EXACT: check: compared={{[0-9]+}} mismatches=0  OK (exact, against the program in float64)
// RUN: softmax-run %S/Inputs/swiglu.mlir --target gpu --check --rows 257 --cols 11008 --dtype bf16 --special | FileCheck %s
// RUN: softmax-run %S/Inputs/swiglu.mlir --target gpu --check --rows 64 --cols 4097 | FileCheck %s
// RUN: softmax-run %S/Inputs/add_rms_norm.mlir --target gpu --check --rows 4096 --cols 8192 --param eps=1e-6 --dtype bf16 --special | FileCheck %s --check-prefix=TWO
// TWO: check h: {{.*}} OK
// TWO: check y: {{.*}} OK
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --rows 1000 --cols 50257 --dtype bf16 --special | FileCheck %s
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --rows 4096 --cols 4096 | FileCheck %s
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --const CAUSAL=1 --param scale=0.125,offset=0 --rows 512 --cols 512 --dtype bf16 | FileCheck %s
// CHECK: check: {{.*}} OK (relative L2 tolerance {{.*}}, against the program in float64)
