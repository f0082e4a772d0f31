// The binding rules count the rows a kernel holds across a reduction
// (ProgramTraits::heldRows) and those it reads after it (streamedRows), in
// thirds of a row of registers: softmax backward holds y and dy (6), so
// 32768 f32 columns go on a cluster of 4 CTAs with 8 warps; RMSNorm holds x
// and reads its weight after (5): no cluster; LayerNorm reads weight and
// bias after (7 in f32: a cluster of 8; 5 in bf16, whose rows stay packed:
// none). Softmax backward and cross_entropy on wide bf16 rows: below.
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 32768 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=TWO
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 64 --cols 32768 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=ONE
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 8192 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=TWO-SHORT
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 64 --cols 8192 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=ONE-SHORT
// RUN: softmax-run %examples/layer_norm.mlir --param eps=1e-5 --rows 64 --cols 32768 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=THREE
// RUN: softmax-run %examples/layer_norm.mlir --param eps=1e-5 --rows 64 --cols 32768 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=THREE-BF16
// THREE: PTX for sm_90, BLOCK=32768 warps=8 ctas=8, grid 64
// THREE-BF16: PTX for sm_90, BLOCK=32768 warps=16, grid 64
// TWO: PTX for sm_90, BLOCK=32768 warps=8 ctas=4, grid 64
// ONE: PTX for sm_90, BLOCK=32768 warps=16, grid 64
// TWO-SHORT: PTX for sm_90, BLOCK=8192 warps=16, grid 64
// ONE-SHORT: PTX for sm_90, BLOCK=8192 warps=8, grid 64
// Softmax backward's two bf16 rows, not a whole number of vectors, past
// 24576 columns: 4 CTAs of 4 warps while a thread holds at most 104 of each
// (50257: 53248 columns, 104), else the cluster rule (aligned 65536: 16 x 4;
// 100003: 208 a thread on 4 x 4).
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 32001 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PAIR
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 50257 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PAIR-50257
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 65536 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PAIR-ALIGNED
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 100003 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PAIR-LONG
// PAIR: PTX for sm_90, BLOCK=32768 ctas=4, grid 64
// PAIR-50257: PTX for sm_90, BLOCK=53248 ctas=4, grid 64
// PAIR-ALIGNED: PTX for sm_90, BLOCK=65536 ctas=16, grid 64
// PAIR-LONG: PTX for sm_90, BLOCK=131072 warps=8 ctas=16, grid 64
// A bf16 row held alone and not written back (cross_entropy's logits) takes
// the wide rows' shares, aligned or not: 32768 a CTA, 8 warps.
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 64 --cols 65536 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=UNWRITTEN
// RUN: softmax-run %examples/cross_entropy.mlir --param ignore_index=-100 --rows 64 --cols 128256 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=UNWRITTEN-128256
// UNWRITTEN: PTX for sm_90, BLOCK=65536 warps=8 ctas=2, grid 64
// UNWRITTEN-128256: PTX for sm_90, BLOCK=131072 warps=8 ctas=4, grid 64
