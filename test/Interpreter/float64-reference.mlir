// The float64 reference of any kernel (blk/Interpreter): kernels no kind
// reference knows, checked with --check and no --reference on the CPU,
// against the program run op by op in float64; --special puts infinities,
// NaN and values near the float limits in.
//
// GELU (math.tanh), f32 and bf16.
// RUN: softmax-run %S/../GPU/Inputs/gelu.mlir --target cpu --check --rows 37 --cols 1001 --special | FileCheck %s
// RUN: softmax-run %S/../GPU/Inputs/gelu.mlir --target cpu --check --rows 9 --cols 4097 --dtype bf16 --special | FileCheck %s
// CHECK: check: {{.*}} OK (relative L2 tolerance {{.*}}, against the program in float64)
//
// SwiGLU: two matrix inputs.
// RUN: softmax-run %S/../GPU/Inputs/swiglu.mlir --target cpu --check --rows 33 --cols 300 --special | FileCheck %s
// RUN: softmax-run %S/../GPU/Inputs/swiglu.mlir --target cpu --check --rows 8 --cols 5000 --dtype bf16 | FileCheck %s
//
// Rows reversed through a blk.convert_layout (the identity here and on the
// CPU; on the GPU the block passes through shared memory).
// RUN: softmax-run %S/../GPU/Inputs/reverse_rows.mlir --target cpu --check --rows 37 --cols 1024 | FileCheck %s
// RUN: softmax-run %S/../GPU/Inputs/reverse_rows.mlir --target cpu --check --rows 9 --cols 1001 --dtype bf16 --special | FileCheck %s
//
// A residual add fused with RMSNorm: two outputs. The reference computes
// in double but within each op's type's range (bf16 rows near 3e38 add to
// +inf, as they do in f32; a float64 sum that stayed finite had failed y).
// RUN: softmax-run %S/../GPU/Inputs/add_rms_norm.mlir --target cpu --check --rows 64 --cols 4096 --param eps=1e-6 | FileCheck %s --check-prefix=TWO
// RUN: softmax-run %S/../GPU/Inputs/add_rms_norm.mlir --target cpu --check --rows 7 --cols 1001 --param eps=1e-6 --dtype bf16 --special | FileCheck %s --check-prefix=TWO
// TWO: check h: {{.*}} OK
// TWO: check y: {{.*}} OK
//
// An argmax: an int32 per row, compared exactly.
// RUN: softmax-run %S/../GPU/Inputs/argmax.mlir --target cpu --check --rows 37 --cols 1001 --special | FileCheck %s --check-prefix=EXACT
// RUN: softmax-run %S/../GPU/Inputs/argmax.mlir --target cpu --check --rows 5 --cols 3 --dtype bf16 | FileCheck %s --check-prefix=EXACT
// EXACT: check: compared={{[0-9]+}} mismatches=0  OK (exact, against the program in float64)
//
// Integers that wrap (a multiplicative hash past 2^31), both right shifts
// of negative values, a signed remainder, an unsigned comparison and a
// signed row maximum: bit for bit.
// RUN: softmax-run %S/../GPU/Inputs/integer-mix.mlir --target cpu --check --rows 37 --cols 1001 | FileCheck %s --check-prefix=INTS
// INTS: check y: compared=37037 mismatches=0  OK (exact, against the program in float64)
// INTS: check row_max: compared=37 mismatches=0  OK (exact, against the program in float64)
//
// The examples whose kernel no kind names (a softmax written seven ways,
// the scaled and masked softmax) pass against themselves.
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --rows 17 --cols 3001 --special | FileCheck %s
// RUN: softmax-run %examples/softmax_split.mlir --target cpu --check --rows 3 --cols 20000 | FileCheck %s
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --const CAUSAL=1 --param scale=0.125,offset=0 --rows 64 --cols 64 | FileCheck %s
//
// An integer fault in the program is the reference's error, at the op,
// before any code runs.
// RUN: not softmax-run %S/../GPU/Inputs/divide-by-param.mlir --target cpu --check --rows 3 --cols 10 --param divisor=0 2>&1 | FileCheck %s --check-prefix=FAULT
// FAULT: divide-by-param.mlir:18:8: error: float64 reference, program 0: the operation divides by zero (element 0)
// FAULT: softmax-run: the float64 reference could not be computed (see above)
// RUN: softmax-run %S/../GPU/Inputs/divide-by-param.mlir --target cpu --check --rows 3 --cols 10 --param divisor=-3 | FileCheck %s --check-prefix=EXACT
//
// A kernel that reads its output where it meant its input (a one-token
// slip) reads NaN poison in its run and NaN in the reference alike; the
// reference refuses the read, so the check cannot pass NaN against NaN.
// RUN: sed -e 's/%in_row = blk.addptr %in,/%in_row = blk.addptr %out,/' -e 's/@softmax_fused/@my_kernel/' %examples/softmax_fused.mlir > %t.swapped.mlir
// RUN: not softmax-run %t.swapped.mlir --target cpu --check --rows 4 --cols 100 2>&1 | FileCheck %s --check-prefix=UNWRITTEN
// UNWRITTEN: error: float64 reference, program {{[0-9]+}}: reads element {{[0-9]+}} of output 'y' before any program wrote it (an output holds nothing until written)
//
// A loop that does not end (on the GPU a hang; the CPU code drops an empty
// one) is the reference's error at the loop, not a run that never ends.
// RUN: sed -e 's/^  return$/  %forever = arith.constant true\n  scf.while : () -> () {\n    scf.condition(%forever)\n  } do {\n    scf.yield\n  }\n  return/' -e 's/@softmax_fused/@my_kernel/' %examples/softmax_fused.mlir > %t.forever.mlir
// RUN: not softmax-run %t.forever.mlir --target cpu --check --rows 2 --cols 10 2>&1 | FileCheck %s --check-prefix=FOREVER
// FOREVER: error: float64 reference, program {{[0-9]+}}: runs more than 16777216 loop iterations (a loop that does not end? on the GPU, a hang)
//
// A kernel's kind, where it declares one by its name, still picks the
// kind's reference; --reference cpu is for GPU runs.
// RUN: softmax-run %examples/log_softmax.mlir --target cpu --check --rows 4 --cols 100 | FileCheck %s --check-prefix=KIND
// KIND: OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 log_softmax reference)
// RUN: not softmax-run %S/../GPU/Inputs/gelu.mlir --target cpu --check --reference cpu --rows 4 --cols 100 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: softmax-run: --reference cpu compares a GPU run with the CPU lowering; on the CPU, --check compares with the program in float64 (or --reference KIND)
