// Not MLIR: when fitProgram splits a row program's rows (blk-split-rows),
// read from the binding softmax-run prints (--emit-ptx: no GPU needed).
// Rows of a million on sm_90: split into 128 parts of 8192.
// RUN: softmax-run %examples/log_softmax.mlir --rows 64 --cols 1048576 --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=SPLIT
// SPLIT: BLOCK=8192 SPLITS=128 warps=8, grid 8192
// Row starts that are not whole 16-byte vectors (an input stride of
// 1048577): held on a cluster, where blk-peel-alignment shifts them.
// RUN: softmax-run %examples/log_softmax.mlir --rows 64 --cols 1048576 --in-stride 1048577 --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// HELD: BLOCK=1048576 warps=16 ctas=16, grid 64
// A caller's constant the program does not name is an error, not the
// split's SPLITS.
// RUN: not softmax-run %examples/log_softmax.mlir --rows 64 --cols 1048576 --const SPLITS=64 --chip sm_90a --emit-ptx /dev/null 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: constant 'SPLITS' is bound, but the program names no such constant (it names: BLOCK)
// The option's values.
// RUN: not softmax-run %examples/log_softmax.mlir --rows 64 --cols 1048576 --split-rows=sometimes --chip sm_90a --emit-ptx /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: --split-rows must be auto, always or never, not 'sometimes'
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 64 --cols 1048576 --split-rows=always --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=SPLIT
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 64 --cols 1048576 --split-rows=never --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// The CPU runs programs one after another: never split there.
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 2 --cols 1048576 --target cpu --bench --runs 1 | FileCheck %s --check-prefix=CPU
// CPU: target: CPU (JIT), BLOCK=1048576
