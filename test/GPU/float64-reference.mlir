// REQUIRES: cuda-gpu
// Kernels no kind reference knows, checked on the GPU against the program
// run in float64 (blk/Interpreter), with no --reference: an argmax's int32
// per row (exact), SwiGLU's two inputs, a residual add with RMSNorm (two
// outputs), examples whose kernels no kind names; the check line says what
// it compared with. (grep, not FileCheck: the GPU bundle has no LLVM.)
// Rows reversed through a blk.convert_layout: aligned rows pass through
// shared memory from the load's 16-byte runs to the store's layout (f32,
// bf16, several rows a program), unaligned ones keep one layout.
// RUN: softmax-run %S/Inputs/reverse_rows.mlir --target gpu --check --rows 37 --cols 1024 | grep "OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)"
// RUN: softmax-run %S/Inputs/reverse_rows.mlir --target gpu --check --rows 1000 --cols 4096 --dtype bf16 --special | grep "OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)"
// RUN: softmax-run %S/Inputs/reverse_rows.mlir --target gpu --check --rows 33 --cols 64 --dtype f16 | grep "OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)"
// RUN: softmax-run %S/Inputs/reverse_rows.mlir --target gpu --check --rows 5 --cols 1001 | grep "OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)"
// RUN: softmax-run %S/Inputs/argmax.mlir --target gpu --check --rows 333 --cols 50257 --special | grep "OK (exact, against the program in float64)"
// RUN: softmax-run %S/Inputs/argmax.mlir --target gpu --check --rows 64 --cols 1000 --dtype bf16 | grep "OK (exact, against the program in float64)"
// RUN: softmax-run %S/Inputs/swiglu.mlir --target gpu --check --rows 257 --cols 11008 --dtype bf16 --special | grep "OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)"
// RUN: softmax-run %S/Inputs/swiglu.mlir --target gpu --check --rows 64 --cols 4097 | grep "OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)"
// RUN: softmax-run %S/Inputs/add_rms_norm.mlir --target gpu --check --rows 4096 --cols 8192 --param eps=1e-6 --dtype bf16 --special > %t.two.log
// RUN: grep "check h: .* OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)" %t.two.log
// RUN: grep "check y: .* OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)" %t.two.log
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --rows 1000 --cols 50257 --dtype bf16 --special | grep "OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)"
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --rows 4096 --cols 4096 | grep "OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)"
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --const CAUSAL=1 --param scale=0.125,offset=0 --rows 512 --cols 512 --dtype bf16 | grep "OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)"
