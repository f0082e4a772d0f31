// REQUIRES: ptxas
// ptxas accepts every example for sm_90 and sm_80, without spills. The
// register and spill counts are in the test log (lit -a).
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx --emit=ptx -o %t.fused90.ptx
// RUN: ptxas -arch=sm_90 -v %t.fused90.ptx -o %t.cubin 2>&1 | tee %t.log | FileCheck %s
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx -o %t.fused80.ptx
// RUN: ptxas -arch=sm_80 -v %t.fused80.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_tiled.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx --emit=ptx -o %t.tiled90.ptx
// RUN: ptxas -arch=sm_90 -v %t.tiled90.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_tiled.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx -o %t.tiled80.ptx
// RUN: ptxas -arch=sm_80 -v %t.tiled80.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_online.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx --emit=ptx -o %t.online90.ptx
// RUN: ptxas -arch=sm_90 -v %t.online90.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_online.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx -o %t.online80.ptx
// RUN: ptxas -arch=sm_80 -v %t.online80.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_multirow.mlir --blk-specialize="ROWS=8 BLOCK=128" --blk-to-ptx --emit=ptx -o %t.multirow90.ptx
// RUN: ptxas -arch=sm_90 -v %t.multirow90.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_multirow.mlir --blk-specialize="ROWS=8 BLOCK=128" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx -o %t.multirow80.ptx
// RUN: ptxas -arch=sm_80 -v %t.multirow80.ptx -o %t.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function 'softmax_
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
// RUN: softmax-opt %examples/softmax_persistent.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx --emit=ptx -o %t.persistent90.ptx
// RUN: ptxas -arch=sm_90 -v %t.persistent90.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_persistent.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx -o %t.persistent80.ptx
// RUN: ptxas -arch=sm_80 -v %t.persistent80.ptx -o %t.cubin 2>&1 | FileCheck %s
// The rules' cluster kernel for 65536-element rows (8 CTAs of 8 warps).
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=65536" --blk-to-ptx="num-warps=8 num-ctas=8" --emit=ptx -o %t.cluster90.ptx
// RUN: ptxas -arch=sm_90 -v %t.cluster90.ptx -o %t.cubin 2>&1 | FileCheck %s
