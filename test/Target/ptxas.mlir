// REQUIRES: ptxas
// ptxas accepts every example for sm_90 and sm_80, without spills.
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx --emit=ptx -o %t.fused90.ptx
// RUN: ptxas -arch=sm_90 -v %t.fused90.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx -o %t.fused80.ptx
// RUN: ptxas -arch=sm_80 -v %t.fused80.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_tiled.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx --emit=ptx -o %t.tiled.ptx
// RUN: ptxas -arch=sm_90 -v %t.tiled.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_online.mlir --blk-specialize="BLOCK=4096" --blk-to-ptx --emit=ptx -o %t.online.ptx
// RUN: ptxas -arch=sm_90 -v %t.online.ptx -o %t.cubin 2>&1 | FileCheck %s
// RUN: softmax-opt %examples/softmax_multirow.mlir --blk-specialize="ROWS=8 BLOCK=128" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx -o %t.multirow.ptx
// RUN: ptxas -arch=sm_80 -v %t.multirow.ptx -o %t.cubin 2>&1 | FileCheck %s

// CHECK: Compiling entry function 'softmax_
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
