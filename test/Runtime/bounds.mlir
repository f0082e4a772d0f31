// Kernels that access memory outside the run's buffers, on the CPU: each
// access is checked against the buffers softmax-run allocated (on by
// default), the first one outside is an error naming the op, the program
// and the buffer it missed, and it is not done (before, each of these
// corrupted softmax-run's heap, then hung or printed "check OK" and died).
// RUN: split-file %s %t
// RUN: not softmax-run %t/unmasked.mlir --target cpu --rows 4 --cols 6 2>&1 | FileCheck %s --check-prefix=UNMASKED
// RUN: not softmax-run %t/row-too-far.mlir --target cpu --rows 4 --cols 8 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: not softmax-run %t/negative-row.mlir --target cpu --rows 4 --cols 8 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not softmax-run %t/zero-step.mlir --target cpu --rows 4 --cols 8 2>&1 | FileCheck %s --check-prefix=STEP
// RUN: not softmax-run %t/wrapping-step.mlir --target cpu --rows 4 --cols 8 2>&1 | FileCheck %s --check-prefix=WRAP
// Programs run on several threads (--num-threads, default every core), each
// a range of ids; the report names the lowest violating program whatever
// the threads: in @twice_the_row, programs 4 to 7 read past the input.
// RUN: not softmax-run %t/twice-the-row.mlir --target cpu --rows 8 --cols 8 --num-threads 1 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not softmax-run %t/twice-the-row.mlir --target cpu --rows 8 --cols 8 --num-threads 3 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not softmax-run %t/twice-the-row.mlir --target cpu --rows 8 --cols 8 --num-threads 8 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not softmax-run %t/zero-step.mlir --target cpu --rows 4 --cols 8 --num-threads 4 2>&1 | FileCheck %s --check-prefix=STEP
// Without the checks the kernel runs as compiled.
// RUN: softmax-run %t/unmasked.mlir --target cpu --rows 4 --cols 8 --check-bounds=false | FileCheck %s --check-prefix=UNCHECKED
//
// UNMASKED: softmax-run: out-of-bounds store at {{.*}}unmasked.mlir:{{[0-9]+}}:3 in program 3 of @copy_unmasked: 4 bytes at 0x{{[0-9A-F]+}} (0 bytes past the end of "y")
// FAR: softmax-run: out-of-bounds load at {{.*}}row-too-far.mlir:{{[0-9]+}}:8 in program 3 of @one_row_too_far: 4 bytes at 0x{{[0-9A-F]+}} (0 bytes past the end of "x")
// NEGATIVE: softmax-run: out-of-bounds store at {{.*}}negative-row.mlir:{{[0-9]+}}:3 in program 0 of @row_minus_one: 4 bytes at 0x{{[0-9A-F]+}} (32 bytes before "y")
// STEP: softmax-run: scf.for at {{.*}}zero-step.mlir:{{[0-9]+}}:{{[0-9]+}} with a step that is not positive, or whose induction variable would wrap past its type's largest value (it would never end), in program 0 of @step_is_program_id
// WRAP: softmax-run: scf.for at {{.*}}wrapping-step.mlir:{{[0-9]+}}:{{[0-9]+}} with a step that is not positive, or whose induction variable would wrap past its type's largest value (it would never end), in program 0 of @wraps
// TWICE: softmax-run: out-of-bounds load at {{.*}}twice-the-row.mlir:{{[0-9]+}}:8 in program 4 of @twice_the_row: 4 bytes at 0x{{[0-9A-F]+}} (0 bytes past the end of "x")
// UNCHECKED: target: CPU (JIT), BLOCK=8, grid 4

//--- zero-step.mlir
// Rows program_id, 2 program_id, ...: program 0's step is 0, a loop that
// never ends (it hung softmax-run).
func.func @step_is_program_id(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                              %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                              %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                              %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                              %n_rows: i32 {blk.arg = #blk.arg<rows>},
                              %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1, row_block = BLOCK>} {
  %pid = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  scf.for %row = %pid to %n_rows step %pid : i32 {
    %start = arith.muli %row, %out_stride : i32
    %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
    blk.store %out_row[%cols], %zeros mask %mask : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  }
  return
}

//--- wrapping-step.mlir
// 0, 2^30, then 2^31 wraps to -2^31, still below 2^31 - 1: an i32 loop
// that never ends, with checks on or off (it hung softmax-run).
func.func @wraps(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                 %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                 %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                 %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                 %n_rows: i32 {blk.arg = #blk.arg<rows>},
                 %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %lb = arith.constant 0 : i32
  %ub = arith.constant 2147483647 : i32
  %step = arith.constant 1073741824 : i32
  %sum = scf.for %i = %lb to %ub step %step iter_args(%acc = %lb) -> (i32) : i32 {
    %next = arith.addi %acc, %i : i32
    scf.yield %next : i32
  }
  return
}

//--- unmasked.mlir
// A block of BLOCK = 8 stored without a mask: past a row of 6 columns.
func.func @copy_unmasked(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                         %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                         %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                         %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1, row_block = BLOCK>} {
  %row = blk.program_id x
  %start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  blk.store %out_row[%cols], %zeros : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

//--- twice-the-row.mlir
// Program r reads row 2r: programs from rows / 2 on read past the input.
func.func @twice_the_row(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                         %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                         %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                         %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1, row_block = BLOCK>} {
  %row = blk.program_id x
  %c2 = arith.constant 2 : i32
  %twice = arith.muli %row, %c2 : i32
  %start = arith.muli %twice, %in_stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %x = blk.load %in_row[%cols] mask %mask : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %out_start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %x mask %mask : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

//--- row-too-far.mlir
// Program r reads row r + 1: the last program reads past the input.
func.func @one_row_too_far(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                           %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                           %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                           %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                           %n_rows: i32 {blk.arg = #blk.arg<rows>},
                           %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1, row_block = BLOCK>} {
  %row = blk.program_id x
  %c1 = arith.constant 1 : i32
  %next = arith.addi %row, %c1 : i32
  %start = arith.muli %next, %in_stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %x = blk.load %in_row[%cols] mask %mask : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %out_start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %x mask %mask : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

//--- negative-row.mlir
// Program r writes row r - 1: program 0 writes before the output.
func.func @row_minus_one(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                         %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                         %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                         %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1, row_block = BLOCK>} {
  %row = blk.program_id x
  %c1 = arith.constant 1 : i32
  %previous = arith.subi %row, %c1 : i32
  %start = arith.muli %previous, %out_stride : i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  blk.store %out_row[%cols], %zeros mask %mask : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
