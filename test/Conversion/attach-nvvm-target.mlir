// RUN: softmax-opt %s --blk-attach-nvvm-target --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-attach-nvvm-target=opt-level=1 --split-input-file | FileCheck %s --check-prefix=O1

// Each gpu.module gets the #nvvm.target of the module's #blk.target.
// CHECK: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// O1: gpu.module @kernels [#nvvm.target<O = 1, chip = "sm_80", features = "+ptx80">]
module attributes {blk.target = #blk.target<chip = "sm_80", features = "+ptx80">} {
  gpu.module @kernels {
  }
}

// -----

// Without a #blk.target: the default chip.
// CHECK: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
module {
  gpu.module @kernels {
  }
}
