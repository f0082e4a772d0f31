// RUN: softmax-opt %s --blk-attach-target=chip=sm_90a --convert-blk-to-gpu --split-input-file | FileCheck %s

// bf16 128 x 64 times 64 x 128 on sm_90a, 8 warps: two warpgroups, each a
// 64-row tile of the accumulator (laid out for wgmma: every warp along M).
// A (K-major) and B (N-major) are stored as 128-byte-swizzled panels, a
// run of 8 elements one 16-byte store (16 KiB each; two copies of the
// region alternate in the K loop: 64 KiB, aligned to 1024 bytes from the
// start of dynamic shared memory, which is declared so aligned and rounded
// up at run time, 1008 bytes of room for it: after static shared memory
// the declared alignment need not hold). After the stores, a proxy fence (wgmma reads
// through the asynchronous proxy) and a barrier; then four m64n128k16
// products a K step of 64, B transposed (row), committed and waited for.
// CHECK: blk.launch = [#blk.launch<kernel = "wgmma", threads = 256, ctas = 1, staticSharedBytes = 0, dynamicSharedBytes = 66544,
// CHECK: llvm.mlir.global external @blk_dynamic_shared() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: gpu.func @wgmma
// CHECK: scf.for
// CHECK: %[[START:.*]] = llvm.mlir.addressof @blk_dynamic_shared : !llvm.ptr<3>
// CHECK: %[[ADDRESS:.*]] = llvm.ptrtoint %[[START]] : !llvm.ptr<3> to i32
// CHECK: %[[UP:.*]] = arith.subi %{{.*}}, %[[ADDRESS]] : i32
// CHECK: %[[PAD:.*]] = arith.andi %[[UP]], %{{.*}} : i32
// CHECK: llvm.getelementptr %[[START]][%[[PAD]]]
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
#a = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [8, 1]>
#b = #blk.blocked<elems = [1, 8], lanes = [2, 16], warps = [8, 1]>
#acc = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [8, 1]>
func.func @wgmma(%p: !blk.ptr<f32>, %x: bf16, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %a = blk.splat %x : bf16 -> tensor<128x64xbf16, #a>
  %b = blk.splat %x : bf16 -> tensor<64x128xbf16, #b>
  %zero = arith.constant 0.0 : f32
  %c0 = blk.splat %zero : f32 -> tensor<128x128xf32, #acc>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %c = scf.for %k = %i0 to %n step %i1 iter_args(%acc = %c0) -> (tensor<128x128xf32, #acc>) : i32 {
    %next = blk.dot %a, %b, %acc : tensor<128x64xbf16, #a>, tensor<64x128xbf16, #b>, tensor<128x128xf32, #acc>
    scf.yield %next : tensor<128x128xf32, #acc>
  }
  %rows = blk.arange 0 to 128 : tensor<128xi32, #blk.slice<dim = 1, parent = #acc>>
  %r = blk.expand_dims %rows axis 1 : tensor<128xi32, #blk.slice<dim = 1, parent = #acc>> -> tensor<128x1xi32, #acc>
  %rb = blk.broadcast %r [128, 128] : tensor<128x1xi32, #acc> -> tensor<128x128xi32, #acc>
  blk.store %p[%rb], %c : !blk.ptr<f32>, tensor<128x128xi32, #acc>, tensor<128x128xf32, #acc>
  return
}

// -----

// B whose threads hold runs down its columns (K^T loaded from the rows of
// K, 8 consecutive elements of K a thread) is stored K-major, each run one
// 16-byte store into a transposed panel (a column of B is a panel row),
// and wgmma reads it without a transpose (col); A as before. The
// accumulator is a splat of 0: the first K step writes its products
// (scale-d <zero>), nothing sets the registers first.
// CHECK-LABEL: gpu.func @wgmma_k_major_b
// CHECK-COUNT-8: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}} : bf16, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
#a = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [8, 1]>
#bt = #blk.blocked<elems = [8, 1], lanes = [2, 16], warps = [1, 8]>
#acc = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [8, 1]>
func.func @wgmma_k_major_b(%p: !blk.ptr<f32>, %x: bf16) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %a = blk.splat %x : bf16 -> tensor<128x64xbf16, #a>
  %b = blk.splat %x : bf16 -> tensor<64x128xbf16, #bt>
  %zero = arith.constant 0.0 : f32
  %c0 = blk.splat %zero : f32 -> tensor<128x128xf32, #acc>
  %c = blk.dot %a, %b, %c0 : tensor<128x64xbf16, #a>, tensor<64x128xbf16, #bt>, tensor<128x128xf32, #acc>
  %rows = blk.arange 0 to 128 : tensor<128xi32, #blk.slice<dim = 1, parent = #acc>>
  %r = blk.expand_dims %rows axis 1 : tensor<128xi32, #blk.slice<dim = 1, parent = #acc>> -> tensor<128x1xi32, #acc>
  %rb = blk.broadcast %r [128, 128] : tensor<128x1xi32, #acc> -> tensor<128x128xi32, #acc>
  blk.store %p[%rb], %c : !blk.ptr<f32>, tensor<128x128xi32, #acc>, tensor<128x128xf32, #acc>
  return
}
