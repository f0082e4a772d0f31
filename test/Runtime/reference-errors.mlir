// The kernel kinds' contracts (blk/Runtime/Reference.h): a reference names
// the tensors and scalars it reads and writes, and --check fails on a kernel
// that computes something else. The kernel below is an RMSNorm that forgets
// its weight.
// RUN: not softmax-run %s --target cpu --check --reference rms_norm --param eps=1e-6 --rows 8 --cols 100 | FileCheck %s --check-prefix=WRONG
// RUN: not softmax-run %s --target cpu --check --reference layer_norm --param eps=1e-6 --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not softmax-run %s --target cpu --check --reference cross_entropy --param eps=1e-6 --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=NAMES
// RUN: not softmax-run %s --target cpu --check --reference softmax --param eps=1e-6 --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: not softmax-run %s --target cpu --check --reference cpu --param eps=1e-6 --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=CPU
// Without --reference, the program is checked against itself run in
// float64 (blk/Interpreter): it is what it says, so the check passes; only
// a kind's reference knows what an RMSNorm must compute.
// RUN: softmax-run %s --target cpu --check --param eps=1e-6 --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=PROGRAM
// PROGRAM: check: {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)
// RUN: not softmax-run %s --target cpu --check --reference rms --param eps=1e-6 --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --check --reference rms_norm --param ignore_index=0 --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not softmax-run %examples/softmax_scaled_masked.mlir --target cpu --check --reference log_softmax --const CAUSAL=0 --param scale=1,offset=0 --rows 8 --cols 100 | FileCheck %s --check-prefix=WRONG
// WRONG: check: {{.*}} FAILED
// MISSING: softmax-run: --reference layer_norm: a layer_norm kernel has input 'bias' (per_col), but the program declares none
// NAMES: softmax-run: --reference cross_entropy: a cross_entropy kernel has input 'logits' (matrix), but the program declares none
// EXTRA: softmax-run: --reference softmax: tensor 'weight' of the program is not one a softmax kernel reads or writes
// CPU: softmax-run: --reference cpu compares a GPU run with the CPU lowering; on the CPU, --check compares with the program in float64 (or --reference KIND)
// UNKNOWN: softmax-run: --reference: unknown kernel kind 'rms' (known: softmax, log_softmax, scaled_softmax, softmax_backward, cross_entropy, rms_norm, layer_norm, matmul, attention, attention_backward), or cpu
// SHAPE: softmax-run: --reference rms_norm: a rms_norm kernel has input 'x' (matrix), but the program declares none

func.func @unweighted_rms_norm(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                               %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                               %weight: !blk.ptr<f32> {blk.arg = #blk.arg<input "weight", per_col>},
                               %eps: f32 {blk.arg = #blk.arg<param "eps">},
                               %x_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                               %y_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                               %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %x_start = arith.muli %row, %x_row_stride : i32
  %x_row = blk.addptr %x, %x_start : !blk.ptr<f32>, i32
  %x_block = blk.load %x_row[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %squares = arith.mulf %x_block, %x_block : tensor<?xf32>
  %sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %n_float = arith.sitofp %n_cols : i32 to f32
  %mean_square = arith.divf %sum, %n_float : f32
  %shifted = arith.addf %mean_square, %eps : f32
  %rstd = math.rsqrt %shifted : f32
  %rstd_block = blk.splat %rstd [BLOCK] : f32 -> tensor<?xf32>
  %y_block = arith.mulf %x_block, %rstd_block : tensor<?xf32>
  %y_start = arith.muli %row, %y_row_stride : i32
  %y_row = blk.addptr %y, %y_start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %y_block mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
