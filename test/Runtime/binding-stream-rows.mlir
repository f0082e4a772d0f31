// Not MLIR: when fitProgram walks a read-only row in tiles
// (blk-stream-rows), read from the binding softmax-run prints (--emit-ptx:
// no GPU needed), and the streamed program's numerics on the CPU.
// f32 vocabulary rows, four rows an SM or more on sm_90: tiles of 8192 on
// 16 warps, one CTA a row; 16-bit rows are held (not measured walked), but
// stream when asked.
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 4096 --cols 128256 --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=STREAMED
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 4096 --cols 128256 --dtype bf16 --stream-rows=always --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=STREAMED
// STREAMED: BLOCK=8192 warps=16, grid 4096
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 4096 --cols 128256 --dtype bf16 --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// Rows or row starts that are not whole 16-byte vectors (a loop's tiles are
// not peeled), and too few rows: held on a cluster; never, held.
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 4096 --cols 128257 --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 4096 --cols 128256 --in-stride 128257 --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 256 --cols 128256 --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 4096 --cols 128256 --stream-rows=never --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// HELD: ctas=
// Always: any program that can be streamed; a program that writes its row
// cannot, and stays held.
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 8 --cols 4096 --stream-rows=always --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=SMALL
// SMALL: BLOCK=4096 warps=8, grid 8
// RUN: softmax-run %examples/log_softmax.mlir --rows 4096 --cols 128256 --stream-rows=always --chip sm_90a --emit-ptx /dev/null | FileCheck %s --check-prefix=HELD
// The option's values.
// RUN: not softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 64 --cols 1024 --stream-rows=often --chip sm_90a --emit-ptx /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: --stream-rows must be auto, always or never, not 'often'
// The streamed program on the CPU (which itself never streams: one loop
// nest a program), against the float64 loss and logsumexp with special
// rows (+-inf, all -inf, NaN): the running pairs give what the held row
// gives, NaN where a row has no finite logit.
// RUN: softmax-opt %examples/cross_entropy.mlir --blk-stream-rows -o %t.mlir
// RUN: softmax-run %t.mlir --target cpu --check --reference cross_entropy --param ignore_index=-100 --rows 33 --cols 20000 --special | FileCheck %s --check-prefix=CHECKED
// RUN: softmax-run %t.mlir --target cpu --check --reference cross_entropy --param ignore_index=-100 --rows 9 --cols 5003 --dtype bf16 --special | FileCheck %s --check-prefix=CHECKED
// CHECKED: check loss: {{.*}} nan_mismatches=0 unwritten=0  OK
// CHECKED: check lse: {{.*}} nan_mismatches=0 unwritten=0  OK
