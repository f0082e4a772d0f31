// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s

#row = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

// The kernel becomes a gpu.func of 128 threads in a gpu.module, and the
// module records its launch contract.
// CHECK: module attributes {blk.launch = [#blk.launch<kernel = "row", threads = 128, staticSharedBytes = 512, dynamicSharedBytes = 0, grid = "rows", args = !blk.ptr<f32>, i32>], gpu.container_module}
// CHECK: gpu.module @kernels
// CHECK: gpu.func @row(%[[P:.*]]: !llvm.ptr<1>, %[[N:.*]]: i32) workgroup(%[[SMEM:.*]] : memref<128xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
func.func @row(%p: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // CHECK: gpu.block_id x
  %row = blk.program_id x
  // CHECK: llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  %rowp = blk.addptr %p, %row : !blk.ptr<f32>, i32
  // Thread t holds columns 4t..4t+3 and 512+4t..512+4t+3.
  // CHECK: gpu.thread_id x
  // CHECK: arith.constant dense<[0, 1, 2, 3, 512, 513, 514, 515]> : vector<8xi32>
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #row>
  %nb = blk.splat %n : i32 -> tensor<1024xi32, #row>
  // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : vector<8xi32>
  %in = arith.cmpi slt, %cols, %nb : tensor<1024xi32, #row>
  %ninf = arith.constant 0xFF800000 : f32
  // Each run of 4: one 16-byte load when its mask is all true, else one
  // predicated load per element.
  // CHECK: scf.if %{{.*}} -> (vector<4xf32>)
  // CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK: } else {
  // CHECK:   scf.if %{{.*}} -> (f32)
  // CHECK:     llvm.load %{{.*}} : !llvm.ptr<1> -> f32
  %x = blk.load %rowp[%cols] mask %in other %ninf {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<1024xi32, #row> -> tensor<1024xf32, #row>
  // In-thread maximum, a 5-step butterfly over the lanes, then the 4 warps
  // meet in workgroup memory.
  // CHECK-COUNT-7: arith.maximumf %{{.*}}, %{{.*}} : f32
  // CHECK: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
  // CHECK: gpu.shuffle  xor
  // CHECK: gpu.shuffle  xor
  // CHECK: gpu.shuffle  xor
  // CHECK: gpu.shuffle  xor
  // CHECK-NOT: gpu.shuffle
  // CHECK: memref.store %{{.*}}, %[[SMEM]]
  // CHECK-NEXT: gpu.barrier
  // CHECK-COUNT-4: memref.load %[[SMEM]]
  %m = blk.reduce max %x axis 0 : tensor<1024xf32, #row> -> f32
  %mb = blk.splat %m : f32 -> tensor<1024xf32, #row>
  %s = arith.subf %x, %mb : tensor<1024xf32, #row>
  // exp(x) = ex2.approx(x * log2(e)), element by element.
  // CHECK: arith.constant 1.44269502 : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
  %e = math.exp %s : tensor<1024xf32, #row>
  // CHECK: scf.if
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  blk.store %rowp[%cols], %e mask %in {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<1024xi32, #row>, tensor<1024xf32, #row>
  // CHECK: gpu.return
  return
}

// -----

#small = #blk.blocked<elems = [4], lanes = [32], warps = [1]>

// A block that fits one warp reduces with shuffles alone; an unmasked access
// with vector width 4 needs no branch.
// CHECK-LABEL: gpu.func @one_warp
// CHECK-NOT: workgroup
func.func @one_warp(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %cols = blk.arange 0 to 128 : tensor<128xi32, #small>
  // CHECK-NOT: scf.if
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  %x = blk.load %p[%cols] {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<128xi32, #small> -> tensor<128xf32, #small>
  // CHECK-COUNT-5: gpu.shuffle  xor
  // CHECK-NOT: gpu.barrier
  %s = blk.reduce sum %x axis 0 : tensor<128xf32, #small> -> f32
  return
}

// -----

#rows = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1]>
#per_row = #blk.slice<dim = 1, parent = #rows>

// A row of 64 spans 16 lanes: the butterfly stops after 4 steps (offsets
// 1, 2, 4, 8) and no workgroup memory is needed.
// CHECK-LABEL: gpu.func @rows
// CHECK-NOT: workgroup
func.func @rows(%x: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %c = arith.constant dense<1.0> : tensor<8x64xf32, #rows>
  // CHECK: arith.constant dense<1.000000e+00> : vector<4xf32>
  // CHECK: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK: gpu.shuffle  xor %{{.*}}, %[[C1]]
  // CHECK: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK: gpu.shuffle  xor %{{.*}}, %[[C2]]
  // CHECK: %[[C4:.*]] = arith.constant 4 : i32
  // CHECK: gpu.shuffle  xor %{{.*}}, %[[C4]]
  // CHECK: %[[C8:.*]] = arith.constant 8 : i32
  // CHECK: gpu.shuffle  xor %{{.*}}, %[[C8]]
  // CHECK-NOT: gpu.shuffle
  // CHECK: vector.from_elements %{{.*}} : vector<1xf32>
  %m = blk.reduce max %c axis 1 : tensor<8x64xf32, #rows> -> tensor<8xf32, #per_row>
  // expand_dims moves nothing; broadcast repeats the row value 4 times.
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 0, 0] : vector<1xf32>, vector<1xf32>
  %m2 = blk.expand_dims %m axis 1 : tensor<8xf32, #per_row> -> tensor<8x1xf32, #rows>
  %mb = blk.broadcast %m2 : tensor<8x1xf32, #rows> -> tensor<8x64xf32, #rows>
  return
}
