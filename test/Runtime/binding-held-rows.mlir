// The binding rules count the rows a kernel holds across a reduction
// (ProgramTraits::heldRows): softmax backward holds y and dy, so 32768 f32
// columns go on a cluster of 4 CTAs with 8 warps (16 warps and one CTA
// spill); RMSNorm reads its weight after the reduction and holds one row,
// as a softmax does.
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 32768 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=TWO
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 64 --cols 32768 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=ONE
// RUN: softmax-run %examples/softmax_backward.mlir --rows 64 --cols 8192 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=TWO-SHORT
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 64 --cols 8192 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=ONE-SHORT
// TWO: PTX for sm_90, BLOCK=32768 warps=8 ctas=4, grid 64
// ONE: PTX for sm_90, BLOCK=32768 warps=16, grid 64
// TWO-SHORT: PTX for sm_90, BLOCK=8192 warps=16, grid 64
// ONE-SHORT: PTX for sm_90, BLOCK=8192 warps=8, grid 64
