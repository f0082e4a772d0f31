// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s

#row = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

// The kernel becomes a gpu.func of 128 threads in a gpu.module, and the
// module records its launch contract.
// CHECK: module attributes {blk.launch = [#blk.launch<kernel = "row", threads = 128, ctas = 1, staticSharedBytes = 512, dynamicSharedBytes = 0, grid = rows, args = !blk.ptr<f32>, i32>], gpu.container_module}
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
  // predicated load per element. The mask is `offsets < n` with offsets
  // the thread's first column plus constants, so the run's last column
  // decides (one scalar comparison).
  // CHECK: %[[LAST:.*]] = arith.addi %{{.*}}, %c3_i32{{.*}} overflow<nsw> : i32
  // CHECK: %[[ALLIN:.*]] = arith.cmpi slt, %[[LAST]], %[[N]] : i32
  // CHECK: scf.if %[[ALLIN]] -> (vector<4xf32>)
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
  // exp(x) = ex2.approx.ftz(x * log2(e)), element by element.
  // CHECK: arith.constant 1.44269502 : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
  %e = math.exp %s : tensor<1024xf32, #row>
  // CHECK: scf.if
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  blk.store %rowp[%cols], %e mask %in {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<1024xi32, #row>, tensor<1024xf32, #row>
  // CHECK: gpu.return
  return
}

// -----

#sixteen = #blk.blocked<elems = [8], lanes = [32], warps = [2]>

// A max of bf16: a thread's 8 elements two at a time, the last pair's
// halves, then widened; lanes and warps exchange f32 partials; the result
// narrows back (exactly: it is one of the elements).
// CHECK-LABEL: gpu.func @max_of_sixteens
// CHECK-SAME: workgroup(%{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: arith.maximumf %{{.*}}, %{{.*}} : vector<2xbf16>
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : bf16
// CHECK-NEXT: arith.extf %{{.*}} : bf16 to f32
// CHECK: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: gpu.barrier
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @max_of_sixteens(%p: !blk.ptr<bf16>) attributes {blk.kernel = #blk.kernel<num_warps = 2>} {
  %cols = blk.arange 0 to 512 : tensor<512xi32, #sixteen>
  %x = blk.load %p[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<512xi32, #sixteen> -> tensor<512xbf16, #sixteen>
  %m = blk.reduce max %x axis 0 : tensor<512xbf16, #sixteen> -> bf16
  return
}

// -----

#narrow = #blk.blocked<elems = [4], lanes = [32], warps = [2]>

// A sum of i16: each element sign-extended, i32 shuffles (they move 32
// bits) and an i32 buffer, truncated at the end: the same wrap-around as
// an i16 sum.
// CHECK-LABEL: gpu.func @sum_of_i16
// CHECK-SAME: workgroup(%{{.*}} : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: arith.extsi %{{.*}} : i16 to i32
// CHECK: gpu.shuffle  xor %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: gpu.barrier
// CHECK: arith.trunci %{{.*}} : i32 to i16
func.func @sum_of_i16(%p: !blk.ptr<i32>) attributes {blk.kernel = #blk.kernel<num_warps = 2>} {
  %cols = blk.arange 0 to 256 : tensor<256xi32, #narrow>
  %x32 = blk.load %p[%cols] : !blk.ptr<i32>, tensor<256xi32, #narrow> -> tensor<256xi32, #narrow>
  %x = arith.trunci %x32 : tensor<256xi32, #narrow> to tensor<256xi16, #narrow>
  %s = blk.reduce sum %x axis 0 : tensor<256xi16, #narrow> -> i16
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

// -----

// A program on a cluster of 2 CTAs: the CTAs split the row (ctas = [2]),
// a program is a cluster, and the reduction's last level meets the other
// CTA's partials in distributed shared memory between cluster barriers.
#cluster = #blk.blocked<elems = [4], lanes = [32], warps = [4], ctas = [2]>

// CHECK: #blk.launch<kernel = "clustered", threads = 128, ctas = 2, staticSharedBytes = 1024
// CHECK: gpu.module @kernels
// CHECK: llvm.mlir.global internal @blk_cluster_partials_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x f32>
// CHECK-LABEL: gpu.func @clustered
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
func.func @clustered(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 2>} {
  // CHECK: gpu.cluster_id x
  %row = blk.program_id x
  %rowp = blk.addptr %p, %row : !blk.ptr<f32>, i32
  // CTA r holds columns 512r + 4t.. of each 1024-column tile.
  // CHECK: gpu.cluster_block_id x
  // CHECK: arith.shli %{{.*}}, %c7_i32
  %cols = blk.arange 0 to 2048 : tensor<2048xi32, #cluster>
  %x = blk.load %rowp[%cols] {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<2048xi32, #cluster> -> tensor<2048xf32, #cluster>
  // CHECK: gpu.barrier
  // CHECK: %[[PARTIALS:.*]] = llvm.mlir.addressof @blk_cluster_partials_0 : !llvm.ptr<3>
  // CHECK: %[[MINE:.*]] = llvm.getelementptr %[[PARTIALS]]
  // CHECK: llvm.store %{{.*}}, %[[MINE]] : f32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cluster.arrive {aligned}
  // CHECK-NEXT: nvvm.cluster.wait {aligned}
  // CHECK: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<7> -> f32
  // CHECK: nvvm.mapa
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<7> -> f32
  // CHECK: arith.addf
  // The last reduction across CTAs arrives at the exit barrier once it has
  // read the others' partials; the stores run before the wait.
  // CHECK-NEXT: nvvm.cluster.arrive {aligned}
  %s = blk.reduce sum %x axis 0 : tensor<2048xf32, #cluster> -> f32
  %sb = blk.splat %s : f32 -> tensor<2048xf32, #cluster>
  // CHECK-NOT: nvvm.cluster
  // CHECK: llvm.store
  blk.store %rowp[%cols], %sb {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<2048xi32, #cluster>, tensor<2048xf32, #cluster>
  // No CTA leaves while the others may still read its partials.
  // CHECK-NOT: nvvm.cluster.arrive
  // CHECK: nvvm.cluster.wait {aligned}
  // CHECK-NEXT: gpu.return
  return
}

// -----

// A reduction across CTAs in a loop: before the next iteration overwrites the
// partials, every CTA must be done reading them, so the reads end with a full
// cluster barrier, and so does the kernel.
#cluster = #blk.blocked<elems = [4], lanes = [32], warps = [4], ctas = [2]>

// CHECK-LABEL: gpu.func @clustered_loop
func.func @clustered_loop(%p: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 2>} {
  %c0 = arith.constant 0 : i32
  %c2048 = arith.constant 2048 : i32
  %cols = blk.arange 0 to 2048 : tensor<2048xi32, #cluster>
  // CHECK: scf.for
  // CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.cluster.arrive {aligned}
  // CHECK-NEXT: nvvm.cluster.wait {aligned}
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<7> -> f32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<7> -> f32
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: nvvm.cluster.arrive {aligned}
  // CHECK-NEXT: nvvm.cluster.wait {aligned}
  scf.for %start = %c0 to %n step %c2048 : i32 {
    %tile = blk.addptr %p, %start : !blk.ptr<f32>, i32
    %x = blk.load %tile[%cols] {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<2048xi32, #cluster> -> tensor<2048xf32, #cluster>
    %s = blk.reduce sum %x axis 0 : tensor<2048xf32, #cluster> -> f32
    %sb = blk.splat %s : f32 -> tensor<2048xf32, #cluster>
    blk.store %tile[%cols], %sb {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<2048xi32, #cluster>, tensor<2048xf32, #cluster>
  }
  // CHECK: nvvm.cluster.arrive {aligned}
  // CHECK-NEXT: nvvm.cluster.wait {aligned}
  // CHECK-NEXT: gpu.return
  return
}

// -----

// On clusters of 16 CTAs (kMinSharedReadClusterCtas) the lanes share the
// reads of the other CTAs' partials: a row spans 16 lanes, lane i reads CTA
// (i mod 16)'s slot, and a butterfly over those lanes (offsets 1 to 8)
// combines the 16: one mapa and one load a lane.
#rows16 = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1], ctas = [1, 16]>
#per_row16 = #blk.slice<dim = 1, parent = #rows16>

// CHECK-LABEL: gpu.func @cluster_of_16
func.func @cluster_of_16(%x: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 16>} {
  %c = arith.constant dense<1.0> : tensor<8x1024xf32, #rows16>
  // CHECK: nvvm.cluster.wait {aligned}
  // CHECK: %[[SOURCE:.*]] = arith.andi %{{.*}}, %c15_i32
  // CHECK: arith.muli %[[SOURCE]]
  // CHECK: %[[REMOTE:.*]] = nvvm.mapa
  // CHECK-NEXT: %[[THEIRS:.*]] = llvm.load %[[REMOTE]] {{.*}} : !llvm.ptr<7> -> f32
  // CHECK-NOT: nvvm.mapa
  // CHECK: gpu.shuffle  xor %[[THEIRS]], %c1_i32
  // CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32
  // CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32
  // CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32
  // CHECK-NOT: gpu.shuffle
  // CHECK: nvvm.cluster.arrive {aligned}
  %m = blk.reduce max %c axis 1 : tensor<8x1024xf32, #rows16> -> tensor<8xf32, #per_row16>
  return
}

// -----

// A row length that is a multiple of 16 (`blk.divisibility`, as softmax-run
// specializes it) ends between two runs of 4: each run moves whole or not at
// all, with no element-by-element path to keep addresses live for.
#row = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

// CHECK-LABEL: gpu.func @row_of_sixteens
func.func @row_of_sixteens(%p: !blk.ptr<f32>, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #row>
  %nb = blk.splat %n : i32 -> tensor<1024xi32, #row>
  %in = arith.cmpi slt, %cols, %nb : tensor<1024xi32, #row>
  %ninf = arith.constant 0xFF800000 : f32
  // CHECK: %[[ALLIN:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: scf.if %[[ALLIN]] -> (vector<4xf32>)
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  // CHECK: } else {
  // CHECK-NEXT: vector.broadcast %{{.*}} : f32 to vector<4xf32>
  // CHECK-NOT: -> f32
  %x = blk.load %p[%cols] mask %in other %ninf {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<1024xi32, #row> -> tensor<1024xf32, #row>
  // CHECK: scf.if %{{.*}} {
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  // CHECK-NEXT: }
  // CHECK-NOT: } else {
  // CHECK-NOT: llvm.store %{{.*}} : f32
  blk.store %p[%cols], %x mask %in {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<1024xi32, #row>, tensor<1024xf32, #row>
  return
}

// -----

// Several rows per program: the mask is (row < n_rows) & (column < n_cols).
// The row bit is the same along a row, so with n_cols a multiple of 16 the
// runs are uniform too, and one bit (the run's first) decides each run.
#rows = #blk.blocked<elems = [1, 4], lanes = [4, 8], warps = [4, 1]>
#col_slice = #blk.slice<dim = 0, parent = #rows>
#row_slice = #blk.slice<dim = 1, parent = #rows>

// CHECK-LABEL: gpu.func @rows_of_sixteens
func.func @rows_of_sixteens(%p: !blk.ptr<f32>, %n_rows: i32, %n_cols: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %r = blk.arange 0 to 16 : tensor<16xi32, #row_slice>
  %nr = blk.splat %n_rows : i32 -> tensor<16xi32, #row_slice>
  %row_ok = arith.cmpi slt, %r, %nr : tensor<16xi32, #row_slice>
  %row_ok_2d = blk.expand_dims %row_ok axis 1 : tensor<16xi1, #row_slice> -> tensor<16x1xi1, #rows>
  %row_ok_b = blk.broadcast %row_ok_2d : tensor<16x1xi1, #rows> -> tensor<16x32xi1, #rows>
  %c = blk.arange 0 to 32 : tensor<32xi32, #col_slice>
  %c_2d = blk.expand_dims %c axis 0 : tensor<32xi32, #col_slice> -> tensor<1x32xi32, #rows>
  %cols = blk.broadcast %c_2d : tensor<1x32xi32, #rows> -> tensor<16x32xi32, #rows>
  %nc = blk.splat %n_cols : i32 -> tensor<16x32xi32, #rows>
  %col_ok = arith.cmpi slt, %cols, %nc : tensor<16x32xi32, #rows>
  %mask = arith.andi %row_ok_b, %col_ok : tensor<16x32xi1, #rows>
  %zero = arith.constant 0.0 : f32
  // CHECK: %[[BITS:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<4xi1>
  // CHECK: %[[FIRST:.*]] = vector.extract %[[BITS]][0] : i1 from vector<4xi1>
  // CHECK: scf.if %[[FIRST]] -> (vector<4xf32>)
  // CHECK: } else {
  // CHECK-NEXT: vector.broadcast
  %x = blk.load %p[%cols] mask %mask other %zero {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<16x32xi32, #rows> -> tensor<16x32xf32, #rows>
  blk.store %p[%cols], %x mask %mask {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<16x32xi32, #rows>, tensor<16x32xf32, #rows>
  return
}

// -----

// A 64-bit row offset (blk-widen-offsets) goes into the row's GEP as it is;
// the accesses from that row keep their 32-bit offsets and 16-byte vectors.
#wide = #blk.blocked<elems = [4], lanes = [32], warps = [1]>

// CHECK-LABEL: gpu.func @wide_row
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[STRIDE:.*]]: i32)
func.func @wide_row(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  // CHECK: %[[STRIDE64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
  // CHECK: %[[START:.*]] = arith.muli %{{.*}}, %[[STRIDE64]] : i64
  // CHECK: %[[ROW:.*]] = llvm.getelementptr %[[P]][%[[START]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr inbounds %[[ROW]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK: llvm.load %[[ADDR]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
  %stride64 = arith.extsi %stride : i32 to i64
  %row = blk.program_id x
  %row64 = arith.extsi %row : i32 to i64
  %start = arith.muli %row64, %stride64 : i64
  %rowp = blk.addptr %p, %start : !blk.ptr<f32>, i64
  %cols = blk.arange 0 to 128 : tensor<128xi32, #wide>
  %x = blk.load %rowp[%cols] {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<128xi32, #wide> -> tensor<128xf32, #wide>
  blk.store %rowp[%cols], %x {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<128xi32, #wide>, tensor<128xf32, #wide>
  return
}

// -----

#row = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

// f32 log, log2 and rsqrt without libdevice (MathOps.cpp), and a min
// reduction (arith.minimumf, which keeps NaN).
// CHECK-LABEL: gpu.func @row_math
func.func @row_math(%s: f32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %i = blk.arange 0 to 512 : tensor<512xi32, #row>
  %x = arith.sitofp %i : tensor<512xi32, #row> to tensor<512xf32, #row>
  // log: the exponent and mantissa split with integer ops, the polynomial
  // in s = f / (2 + f), then the special cases; no intrinsic.
  // CHECK: arith.bitcast %{{.*}} : f32 to i32
  // CHECK: arith.shrsi
  // CHECK: arith.divf
  // CHECK: arith.constant 0.693138123 : f32
  // CHECK: arith.select
  // CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.lg2
  %l = math.log %x : tensor<512xf32, #row>
  // log2 = k + log(m) log2(e).
  // CHECK: arith.sitofp
  // CHECK: arith.constant 1.44269502 : f32
  %l2 = math.log2 %s : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
  %r = math.rsqrt %l2 : f32
  // CHECK: arith.minimumf
  // CHECK: gpu.shuffle  xor
  %m = blk.reduce min %l axis 0 : tensor<512xf32, #row> -> f32
  return
}

// -----

// tanh, erf, powf, absf and sqrt without libdevice: rational functions,
// C's special cases around exp2(y log2|x|), the sign bit, sqrt.rn.
// CHECK-LABEL: gpu.func @more_math
func.func @more_math(%x: f32, %y: f32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // tanh: x itself under 0.0004, else the clamped quotient.
  // CHECK: arith.constant 7.90531111 : f32
  // CHECK: arith.divf
  // CHECK: arith.constant 4.000000e-04 : f32
  // CHECK: arith.select
  %t = math.tanh %x : f32
  // CHECK: arith.constant 4.000000e+00 : f32
  // CHECK: arith.divf
  %e = math.erf %t : f32
  // powf: the magnitude from ex2, the parity of y from two truncations.
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
  // CHECK: llvm.intr.trunc
  // CHECK: llvm.intr.trunc
  // CHECK: arith.negf
  %p = math.powf %e, %y : f32
  // CHECK: arith.constant 2147483647 : i32
  // CHECK: arith.andi
  %a = math.absf %p : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
  // CHECK-NOT: math.
  // CHECK: gpu.return
  %s = math.sqrt %a : f32
  return
}

// -----

#held = #blk.blocked<elems = [1], lanes = [32], warps = [4]>

// A block of one element over 128 threads (a row's loss): every thread
// holds it, and only the first stores it (thread index < 1); a block as
// large as the tile is stored by all.
// CHECK-LABEL: gpu.func @replicated_store
func.func @replicated_store(%p: !blk.ptr<f32>, %v: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %at = blk.splat %row : i32 -> tensor<1xi32, #held>
  %value = blk.splat %v : f32 -> tensor<1xf32, #held>
  // CHECK: %[[FIRST:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: scf.if %[[FIRST]] {
  // CHECK: llvm.store
  blk.store %p[%at], %value : !blk.ptr<f32>, tensor<1xi32, #held>, tensor<1xf32, #held>
  %all = blk.arange 0 to 128 : tensor<128xi32, #held>
  %values = blk.splat %v : f32 -> tensor<128xf32, #held>
  // CHECK-NOT: scf.if
  // CHECK: llvm.store
  blk.store %p[%all], %values : !blk.ptr<f32>, tensor<128xi32, #held>, tensor<128xf32, #held>
  return
}

// -----

// Programs meet at a counter: the CTA's threads meet, thread 0 arrives
// (fence, atomic add) and spins until the round of 4 is full (fence), and
// the threads meet again. The launch record asks for 4 resident programs.
// CHECK: #blk.launch<kernel = "meet", threads = 128, ctas = 1, {{.*}}grid = persistent, residentPrograms = 4,
// CHECK-LABEL: gpu.func @meet
func.func @meet(%arrivals: !blk.ptr<i64>) attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent>} {
  %four = arith.constant 4 : i32
  // CHECK: gpu.barrier
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]]
  // CHECK: scf.if %[[FIRST]] {
  // CHECK: llvm.fence syncscope("device") seq_cst
  // CHECK: %[[OLD:.*]] = llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic
  // CHECK: scf.while
  // CHECK: llvm.load %{{.*}} atomic syncscope("device") monotonic
  // CHECK: arith.cmpi ult
  // CHECK: scf.condition
  // CHECK: llvm.fence syncscope("device") seq_cst
  // CHECK: }
  // CHECK-NEXT: gpu.barrier
  blk.program_barrier %arrivals, %four : !blk.ptr<i64>, i32
  return
}
