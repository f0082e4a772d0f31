// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>
#rows = #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>

// A 64 x 128 f32 accumulator held as mma fragments (2 columns a run) goes
// to rows of 16 bytes a thread through shared memory: rows of 512 bytes get
// 16 bytes of padding (528), so the scratch takes 64 x 528 bytes. Each
// thread writes its 32 pairs (the next 8 columns 32 bytes on, the second
// 32-row repetition 32 x 528 bytes on), the CTA meets at a barrier, and each
// thread reads its 16 runs of 4 (a warp a row, 4 rows apart: 2112 bytes).
// CHECK: blk.launch = [#blk.launch<kernel = "fragments_to_rows", threads = 128, ctas = 1, staticSharedBytes = 0, dynamicSharedBytes = 33792,
// CHECK-LABEL: gpu.func @fragments_to_rows
// CHECK: gpu.barrier
// CHECK: %[[W:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[W0:.*]] = llvm.getelementptr %[[W]][0]
// CHECK: llvm.store %{{.*}}, %[[W0]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: %[[W1:.*]] = llvm.getelementptr %[[W]][32]
// CHECK: llvm.store %{{.*}}, %[[W1]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-COUNT-14: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: %[[W16:.*]] = llvm.getelementptr %[[W]][16896]
// CHECK: llvm.store %{{.*}}, %[[W16]] {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-COUNT-15: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK: %[[C528:.*]] = arith.constant 528 : i32
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %[[C528]] : i32
// CHECK: %[[R:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[R0:.*]] = llvm.getelementptr %[[R]][0]
// CHECK: llvm.load %[[R0]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: %[[R1:.*]] = llvm.getelementptr %[[R]][2112]
// CHECK: llvm.load %[[R1]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-14: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: vector.from_elements {{.*}} : vector<64xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @fragments_to_rows(%out: !blk.ptr<f32>, %x: f32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %c = blk.splat %x : f32 -> tensor<64x128xf32, #mma>
  %r = blk.convert_layout %c : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #rows>
  %o = arith.constant dense<0> : tensor<64x128xi32, #rows>
  blk.store %out[%o], %r : !blk.ptr<f32>, tensor<64x128xi32, #rows>, tensor<64x128xf32, #rows>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>
#rows = #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>

// The scratch lies over a ring no op reads after the conversion (at 0: the
// kernel needs the larger of the two, 33792 bytes, and 1008 to round its
// start up to the ring's 1024-byte alignment), and after a kept block read
// after it (4096 bytes: the scratch at 4096).
// CHECK: blk.launch = [#blk.launch<kernel = "over_the_ring", {{.*}} dynamicSharedBytes = 34800,
// CHECK-SAME: #blk.launch<kernel = "after_the_kept_block", {{.*}} dynamicSharedBytes = 37888,
// CHECK-LABEL: gpu.func @over_the_ring
// CHECK: vector.broadcast
// CHECK: arith.andi %{{.*}}, %c1023
// CHECK-NEXT: %[[START:.*]] = llvm.getelementptr
// CHECK-NEXT: %[[AT0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: llvm.getelementptr %[[START]][%[[AT0]]]
// CHECK: gpu.barrier
// CHECK-LABEL: gpu.func @after_the_kept_block
// CHECK: %[[AT:.*]] = arith.constant 4096 : i32
// CHECK-NEXT: llvm.getelementptr %{{.*}}[%[[AT]]]
// CHECK: gpu.barrier
func.func @over_the_ring(%out: !blk.ptr<f32>, %x: f32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %ring = blk.local_alloc -> !blk.shared<2x64x64xbf16, #blk.swizzled<>>
  %c = blk.splat %x : f32 -> tensor<64x128xf32, #mma>
  %r = blk.convert_layout %c : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #rows>
  %o = arith.constant dense<0> : tensor<64x128xi32, #rows>
  blk.store %out[%o], %r : !blk.ptr<f32>, tensor<64x128xi32, #rows>, tensor<64x128xf32, #rows>
  return
}

func.func @after_the_kept_block(%out: !blk.ptr<f32>, %x: f32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %v = blk.splat %x : f32 -> tensor<1024xf32, #blk.blocked<elems = [4], lanes = [32], warps = [4]>>
  %kept = blk.local_alloc %v : tensor<1024xf32, #blk.blocked<elems = [4], lanes = [32], warps = [4]>> -> !blk.shared<1024xf32>
  %c = blk.splat %x : f32 -> tensor<64x128xf32, #mma>
  %r = blk.convert_layout %c : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #rows>
  %o = arith.constant dense<0> : tensor<64x128xi32, #rows>
  blk.store %out[%o], %r : !blk.ptr<f32>, tensor<64x128xi32, #rows>, tensor<64x128xf32, #rows>
  %back = blk.local_load %kept : !blk.shared<1024xf32> -> tensor<1024xf32, #blk.blocked<elems = [4], lanes = [32], warps = [4]>>
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #blk.blocked<elems = [4], lanes = [32], warps = [4]>>
  blk.store %out[%cols], %back : !blk.ptr<f32>, tensor<1024xi32, #blk.blocked<elems = [4], lanes = [32], warps = [4]>>, tensor<1024xf32, #blk.blocked<elems = [4], lanes = [32], warps = [4]>>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>
#flat = #blk.blocked<elems = [1], lanes = [32], warps = [4]>

// A mask of 64 rows, a slice of the fragments' layout (each of a row's 4
// lanes holds it), to one element a thread: i1 passes as a byte; a 1-D
// block is one row, without padding.
// CHECK: dynamicSharedBytes = 64,
// CHECK-LABEL: gpu.func @row_mask
// CHECK: gpu.barrier
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: llvm.store %{{.*}} {alignment = 1 : i64} : vector<1xi8>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> vector<1xi8>
// CHECK: arith.trunci %{{.*}} : i8 to i1
func.func @row_mask(%out: !blk.ptr<f32>, %x: f32, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %rows = blk.arange 0 to 64 : tensor<64xi32, #blk.slice<dim = 1, parent = #mma>>
  %bound = blk.splat %n : i32 -> tensor<64xi32, #blk.slice<dim = 1, parent = #mma>>
  %in = arith.cmpi slt, %rows, %bound : tensor<64xi32, #blk.slice<dim = 1, parent = #mma>>
  %m = blk.convert_layout %in : tensor<64xi1, #blk.slice<dim = 1, parent = #mma>> -> tensor<64xi1, #flat>
  %offsets = blk.arange 0 to 64 : tensor<64xi32, #flat>
  %v = blk.splat %x : f32 -> tensor<64xf32, #flat>
  blk.store %out[%offsets], %v mask %m : !blk.ptr<f32>, tensor<64xi32, #flat>, tensor<64xf32, #flat>
  return
}
