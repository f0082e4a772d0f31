// The pipeline stops with a located error, never an LLVM abort.
// RUN: not softmax-opt %examples/softmax_fused.mlir --blk-to-ptx 2>&1 | FileCheck %s --check-prefix=UNBOUND
// RUN: not softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=32768" --blk-to-ptx 2>&1 | FileCheck %s --check-prefix=REGISTERS
// RUN: not softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx="chip=sm_52" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx=chip=sm_80,features=+ptx70 2>&1 | FileCheck %s --check-prefix=OPTION-LIST
// RUN: not softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx="features=+ptx999" 2>&1 | FileCheck %s --check-prefix=PTX999
// RUN: not softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not softmax-opt %examples/softmax_fused.mlir --emit=cubin 2>&1 | FileCheck %s --check-prefix=EMIT

// UNBOUND: softmax_fused.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'blk.{{arange|splat}}' op {{.*}} has a dynamic shape; bind its compile-time constants with --blk-specialize first
// REGISTERS: softmax_fused.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}} needs 256 registers per thread with 4 warps (at most 128); use more warps
// CHIP: error: unsupported chip 'sm_52'
// PTX999: error: PTX 99.9 (+ptx999) is newer than LLVM's NVPTX back end writes (at most +ptx90)
// NOPTX: softmax-opt: --emit=ptx: no compiled kernels: the module holds no PTX gpu.binary with blk.launch records (did blk-to-ptx run?)
// EMIT: --emit must be mlir or ptx, not 'cubin'
// OPTION-LIST: error: unsupported chip 'sm_80,features=+ptx70'
