// RUN: softmax-opt %s --pass-pipeline='builtin.module(gpu.module(blk-pass-tensor-maps-by-value))' | FileCheck %s

// The parameters blk.tensor_map_params lists (convert-blk-to-gpu's, which
// convert-gpu-to-nvvm keeps on the llvm.func, unlike the parameters'
// byval) become 128-byte grid constants passed by value, 64-byte aligned, so that TMA
// reads the launcher's CUtensorMap where it lies; the list goes. Another
// function is left as it is.
// CHECK-LABEL: llvm.func @matmul
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NOT: blk.tensor_map_params
// CHECK-LABEL: llvm.func @other
// CHECK-SAME: (%{{.*}}: !llvm.ptr)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @matmul(%c: !llvm.ptr<1>, %n: i32, %a_map: !llvm.ptr, %b_map: !llvm.ptr) attributes {blk.tensor_map_params = array<i32: 2, 3>, gpu.kernel, nvvm.kernel} {
      llvm.return
    }
    llvm.func @other(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
