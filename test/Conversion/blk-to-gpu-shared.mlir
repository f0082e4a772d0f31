// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// A block kept in shared memory lies in the kernel's dynamic shared memory
// (an external array of no elements, `.extern .shared` in PTX), which the
// launch record counts: 32768 bf16 elements, 64 a thread of 512, in 8
// chunks of 16 bytes at (chunk * 512 + thread) * 16. Each thread reads back
// its own chunks through the same address; no barrier is added.
// CHECK: blk.launch = [#blk.launch<kernel = "staged", threads = 512, ctas = 1, staticSharedBytes = 0, dynamicSharedBytes = 65536,
// CHECK: llvm.mlir.global external @blk_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @staged
// CHECK: %[[START:.*]] = llvm.mlir.addressof @blk_dynamic_shared : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[T:.*]] = arith.index_castui %[[TID]] : index to i32
// CHECK: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: %[[OFF:.*]] = arith.muli %[[T]], %[[C16]] : i32
// CHECK: %[[AT:.*]] = arith.addi %[[OFF]], %{{.*}} : i32
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[START]][%[[AT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %[[BASE]] {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: %[[C1:.*]] = llvm.getelementptr %[[BASE]][8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %[[C1]] {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-COUNT-6: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %[[BASE]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK: %[[R1:.*]] = llvm.getelementptr %[[BASE]][8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.load %[[R1]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-COUNT-6: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK: vector.from_elements {{.*}} : vector<64xbf16>
func.func @staged(%in: !blk.ptr<bf16>, %out: !blk.ptr<bf16>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = blk.load %in[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %buf = blk.local_alloc %x : tensor<32768xbf16, #l> -> !blk.shared<32768xbf16>
  %y = blk.local_load %buf : !blk.shared<32768xbf16> -> tensor<32768xbf16, #l>
  blk.store %out[%cols], %y {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<32768xi32, #l>, tensor<32768xbf16, #l>
  return
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

// Two blocks of one kernel lie one after the other (16-byte aligned); a
// thread's 6 f16 elements make chunks of 2 (the largest power of two
// dividing 6 within 16 bytes).
// CHECK: dynamicSharedBytes = 7680
// CHECK-LABEL: gpu.func @two_blocks
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: arith.addi %{{.*}}, %[[C0]] : i32
// CHECK-COUNT-3: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: %[[C1536:.*]] = arith.constant 1536 : i32
// CHECK: arith.addi %{{.*}}, %[[C1536]] : i32
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
func.func @two_blocks(%in: !blk.ptr<f16>)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = arith.constant dense<1.0> : tensor<768xf16, #blk.blocked<elems = [2], lanes = [32], warps = [4]>>
  %buf_a = blk.local_alloc %a : tensor<768xf16, #blk.blocked<elems = [2], lanes = [32], warps = [4]>> -> !blk.shared<768xf16>
  %b = arith.constant dense<2.0> : tensor<1536xf32, #l>
  %buf_b = blk.local_alloc %b : tensor<1536xf32, #l> -> !blk.shared<1536xf32>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [8]>

// blk.async_copy fills its buffer where blk.local_alloc would store it:
// run c of a thread (16 bytes) with one cp.async.cg from its global address
// to (c * 256 + thread) * 16; a run past `n` gets -inf stored instead. The
// thread's copies are one commit group, blk.async_wait waits for it, and no
// barrier is added (each thread reads back its own chunks).
// CHECK: blk.launch = [#blk.launch<kernel = "copied", threads = 256, ctas = 1, staticSharedBytes = 0, dynamicSharedBytes = 53248,
// CHECK-LABEL: gpu.func @copied
// CHECK: %[[START:.*]] = llvm.mlir.addressof @blk_dynamic_shared : !llvm.ptr<3>
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[START]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: scf.if %{{.*}} {
// CHECK: nvvm.cp.async.shared.global %[[BASE]], %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.store %{{.*}}, %[[BASE]] {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: }
// CHECK: %[[C1:.*]] = llvm.getelementptr %[[BASE]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: nvvm.cp.async.shared.global %[[C1]], %{{.*}}, 16, cache = cg
// CHECK-COUNT-11: nvvm.cp.async.shared.global
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %[[BASE]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
func.func @copied(%in: !blk.ptr<bf16>, %out: !blk.ptr<bf16>, %n: i32 {blk.divisibility = 8 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 26624 : tensor<26624xi32, #l>
  %bound = blk.splat %n : i32 -> tensor<26624xi32, #l>
  %inrow = arith.cmpi slt, %cols, %bound : tensor<26624xi32, #l>
  %ninf = arith.constant 0xFF80 : bf16
  %buf = blk.async_copy %in[%cols] mask %inrow other %ninf {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l> -> !blk.shared<26624xbf16>
  blk.async_wait %buf : !blk.shared<26624xbf16>
  %x = blk.local_load %buf : !blk.shared<26624xbf16> -> tensor<26624xbf16, #l>
  blk.store %out[%cols], %x mask %inrow {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l>, tensor<26624xbf16, #l>
  return
}

// -----

// A conversion's scratch and a swizzled buffer written after it never
// share bytes: the conversion ends reading its scratch without a barrier,
// and threads ahead would store A over it. A (8 KiB) and B (8 KiB) from the
// 1024-aligned start, the scratch (64 rows of 144 bytes) after them: 16384
// + 9216 + 1008 bytes of room for the alignment.
// CHECK: dynamicSharedBytes = 26608
// CHECK-LABEL: gpu.func @scratch_before_swizzled
#a = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>
#b = #blk.blocked<elems = [1, 8], lanes = [8, 4], warps = [4, 1]>
#acc = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>
func.func @scratch_before_swizzled(%p: !blk.ptr<f32>, %q: !blk.ptr<bf16> {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %r = blk.arange 0 to 64 : tensor<64xi32, #blk.slice<dim = 1, parent = #b>>
  %rc = blk.expand_dims %r axis 1 : tensor<64xi32, #blk.slice<dim = 1, parent = #b>> -> tensor<64x1xi32, #b>
  %c64 = arith.constant 64 : i32
  %s = blk.splat %c64 : i32 -> tensor<64x1xi32, #b>
  %rs = arith.muli %rc, %s : tensor<64x1xi32, #b>
  %rb = blk.broadcast %rs [64, 64] : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
  %cc = blk.arange 0 to 64 : tensor<64xi32, #blk.slice<dim = 0, parent = #b>>
  %cr = blk.expand_dims %cc axis 0 : tensor<64xi32, #blk.slice<dim = 0, parent = #b>> -> tensor<1x64xi32, #b>
  %cb = blk.broadcast %cr [64, 64] : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
  %off = arith.addi %rb, %cb : tensor<64x64xi32, #b>
  %x = blk.load %q[%off] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<64x64xi32, #b> -> tensor<64x64xbf16, #b>
  %a = blk.convert_layout %x : tensor<64x64xbf16, #b> -> tensor<64x64xbf16, #a>
  %abuf = blk.local_alloc %a : tensor<64x64xbf16, #a> -> !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  %bbuf = blk.local_alloc -> !blk.shared<64x64xbf16, #blk.swizzled<transposed = true>>
  %zero = arith.constant 0.0 : f32
  %c0 = blk.splat %zero : f32 -> tensor<64x64xf32, #acc>
  %c = blk.warpgroup_dot %abuf, %bbuf, %c0 : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<transposed = true>>, tensor<64x64xf32, #acc>
  %rows = blk.arange 0 to 64 : tensor<64xi32, #blk.slice<dim = 1, parent = #acc>>
  %r2 = blk.expand_dims %rows axis 1 : tensor<64xi32, #blk.slice<dim = 1, parent = #acc>> -> tensor<64x1xi32, #acc>
  %rb2 = blk.broadcast %r2 [64, 64] : tensor<64x1xi32, #acc> -> tensor<64x64xi32, #acc>
  blk.store %p[%rb2], %c : !blk.ptr<f32>, tensor<64x64xi32, #acc>, tensor<64x64xf32, #acc>
  return
}
