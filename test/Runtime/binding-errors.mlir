// Bindings that do not fit the problem are refused before anything runs,
// with an error at the kernel (issue: --const values were never checked
// against the program; each of these crashed, hung or wrote garbage).
// RUN: not softmax-run %examples/softmax_split.mlir --target cpu --rows 4 --cols 8 --const SPLITS=64 2>&1 | FileCheck %s --check-prefix=SPLITS
// RUN: not softmax-run %examples/softmax_multirow.mlir --target cpu --rows 4 --cols 8 --const ROWS=4294967296 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 5 --cols 8 --const BLOCK=4 --output %t.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not test -e %t.npy
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 4 --cols 8 --const BLOCK=1073741824 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 4 --cols 8 --const BLCK=8 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not softmax-run %examples/softmax_split.mlir --target cpu --rows 4 --cols 8 --const SPLITS=2,BLOCK=1 2>&1 | FileCheck %s --check-prefix=COVER
// The caller's SPLITS decides BLOCK when BLOCK is not given.
// RUN: softmax-run %examples/softmax_split.mlir --target cpu --rows 4 --cols 8 --const SPLITS=2 --check | FileCheck %s --check-prefix=DERIVED

// SPLITS: softmax_split.mlir:{{[1-9][0-9]*}}:{{[0-9]+}}: error: row_splits SPLITS = 64 is outside [1, 8]: a row of 8 elements in parts of 1 needs no more parts, and never more than its columns
// ROWS: softmax_multirow.mlir:{{[1-9][0-9]*}}:{{[0-9]+}}: error: rows_per_program ROWS = 4294967296 is outside [1, 1024]: a program's rows are at most a CTA's threads
// SHORT: error: row_block BLOCK = 4 covers 4 of the row's 8 columns; a program that does not loop over its row must cover it
// HUGE: error: row_block BLOCK = 1073741824 is outside [1, 8]: the row has 8 elements
// NAME: error: constant 'BLCK' is bound, but the program names no such constant (it names: BLOCK)
// COVER: error: row_block BLOCK = 1 x row_splits 2 covers 2 of the row's 8 columns
// DERIVED: BLOCK=4 SPLITS=2
// DERIVED: OK
