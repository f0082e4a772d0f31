// RUN: softmax-opt %s --blk-set-launch-shape="num-warps=8 num-ctas=2 num-stages=3" | FileCheck %s
// RUN: softmax-opt %s --blk-set-launch-shape=num-warps=16 | FileCheck %s --check-prefix=WARPS
// RUN: not softmax-opt %s --blk-set-launch-shape=num-stages=5 2>&1 | FileCheck %s --check-prefix=STAGES

// The launch shape lives in #blk.kernel: the pass writes what it is given
// there and keeps the rest of the attribute; functions that are not
// kernels are left alone.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: blk.kernel = #blk.kernel<num_warps = 8, num_ctas = 2, num_stages = 3>
// WARPS-LABEL: func.func @kernel
// WARPS-SAME: blk.kernel = #blk.kernel<num_warps = 16, num_stages = 2>
// STAGES: error: num_stages must be from 1 to 4, but got 5
func.func @kernel() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 2>} {
  return
}

// CHECK-LABEL: func.func @helper
// CHECK-NOT: blk.kernel
func.func @helper() {
  return
}
