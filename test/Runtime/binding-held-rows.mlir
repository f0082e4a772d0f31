// The binding rules count the rows a kernel holds across a reduction
// (ProgramTraits::heldRows) and those it reads after it (streamedRows), in
// thirds of a row of registers: softmax backward holds y and dy (6), so
// 32768 f32 columns go on a cluster of 4 CTAs with 8 warps; RMSNorm holds x
// and reads its weight after (5): no cluster; LayerNorm reads weight and
// bias after (7 in f32: a cluster of 8; 5 in bf16, whose rows stay packed:
// none).
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
