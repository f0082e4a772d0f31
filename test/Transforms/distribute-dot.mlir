// RUN: softmax-opt %s --blk-distribute --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-attach-target=chip=sm_75 --blk-distribute --split-input-file | FileCheck %s --check-prefix=SM75
// RUN: softmax-opt %s --blk-attach-target=chip=sm_90a --blk-distribute --split-input-file | FileCheck %s --check-prefix=SM90A

// A kernel whose dot fits mma.sync (bf16, M, N, K multiples of 16, 8, 16,
// sm_80+) gets the layout that holds its accumulator as mma fragments:
// elems [1, 2] x lanes [8, 4] is a fragment's 8 x 8 half, and the warps
// split 64 x 128 as 1 x 4 (24 fragment loads a thread a K step; 2 x 2 ties
// it, 4 x 1 needs 36). The blocks of the accumulator's class take it (the
// stored rows too); A and B, which the dot stores to shared memory from any
// layout, have layouts of their own.
// CHECK-DAG: #[[A:.*]] = #blk.blocked<elems = [1, 4], lanes = [4, 8], warps = [4, 1]>
// CHECK-DAG: #[[B:.*]] = #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>
// CHECK-DAG: #[[MMA:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [1, 4]>
// CHECK-LABEL: func.func @mma_accumulator
// CHECK: blk.dot {{.*}} : tensor<64x32xbf16, #[[A]]>, tensor<32x128xbf16, #[[B]]>, tensor<64x128xf32, #[[MMA]]>
// CHECK: blk.store {{.*}} tensor<64x128xi32, #[[MMA]]>, tensor<64x128xf32, #[[MMA]]>
// On sm_75 (no mma.sync for bf16) the kernel keeps its usual layout.
// SM75-LABEL: func.func @mma_accumulator
// SM75-NOT: lanes = [8, 4]
// SM75: blk.dot
func.func @mma_accumulator(%p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<64x32xbf16>
  %b = blk.splat %x : bf16 -> tensor<32x128xbf16>
  %c = blk.splat %y : f32 -> tensor<64x128xf32>
  %d = blk.dot %a, %b, %c : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32>
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
  return
}

// -----

// f32 inputs do not fit mma.sync: the usual layout.
// CHECK-LABEL: func.func @f32_dot
// CHECK-NOT: lanes = [8, 4]
// CHECK: blk.dot
func.func @f32_dot(%p: !blk.ptr<f32>, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %y : f32 -> tensor<64x32xf32>
  %b = blk.splat %y : f32 -> tensor<32x128xf32>
  %c = blk.splat %y : f32 -> tensor<64x128xf32>
  %d = blk.dot %a, %b, %c : tensor<64x32xf32>, tensor<32x128xf32>, tensor<64x128xf32>
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
  return
}

// -----

// f32 inputs multiplied as tf32 fit mma.sync (m16n8k8) on sm_80+: the
// accumulator held as mma fragments, on sm_90a too (tf32 stays off wgmma);
// on sm_75 the usual layout.
// CHECK-DAG: #[[MMA:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [1, 4]>
// CHECK-LABEL: func.func @tf32_dot
// CHECK: blk.dot {{.*}} precision tf32 : {{.*}}, tensor<64x128xf32, #[[MMA]]>
// SM90A-DAG: #[[MMA:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [1, 4]>
// SM90A-LABEL: func.func @tf32_dot
// SM90A: blk.dot {{.*}} precision tf32 : {{.*}}, tensor<64x128xf32, #[[MMA]]>
// SM75-LABEL: func.func @tf32_dot
// SM75-NOT: lanes = [8, 4]
// SM75: blk.dot
func.func @tf32_dot(%p: !blk.ptr<f32>, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %y : f32 -> tensor<64x32xf32>
  %b = blk.splat %y : f32 -> tensor<32x128xf32>
  %c = blk.splat %y : f32 -> tensor<64x128xf32>
  %d = blk.dot %a, %b, %c precision tf32 : tensor<64x32xf32>, tensor<32x128xf32>, tensor<64x128xf32>
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
  return
}

// -----

// 16 x 32 over 8 warps: no split of whole fragments (1 x 8 needs N = 64,
// 2 x 4 needs M = 32), so the usual layout; the dot then passes its
// accumulator through shared memory.
// CHECK-LABEL: func.func @too_small_for_the_warps
// CHECK-NOT: lanes = [8, 4]
// CHECK: blk.dot
func.func @too_small_for_the_warps(%p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %a = blk.splat %x : bf16 -> tensor<16x16xbf16>
  %b = blk.splat %x : bf16 -> tensor<16x32xbf16>
  %c = blk.splat %y : f32 -> tensor<16x32xf32>
  %d = blk.dot %a, %b, %c : tensor<16x16xbf16>, tensor<16x32xbf16>, tensor<16x32xf32>
  %rows = blk.arange 0 to 16 : tensor<16xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<16xi32> -> tensor<16x1xi32>
  %rb = blk.broadcast %r [16, 32] : tensor<16x1xi32> -> tensor<16x32xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<16x32xi32>, tensor<16x32xf32>
  return
}

// -----

// A tile of a matmul: A's rows and C's rows come from the same index
// arithmetic. Each class gets its own copy of it, so A's tile is loaded in
// a coalesced layout (16 bytes a thread, 8 lanes along a row of 64 bf16)
// while C is held in mma fragments; B's columns and C's columns likewise.
// C's rows are 16-byte aligned: it is stored from a layout of its own (a
// warp a row, 16 bytes a thread), converted to from the fragments.
// CHECK: // -----
// CHECK-DAG: #[[A:.*]] = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>
// CHECK-DAG: #[[B:.*]] = #blk.blocked<elems = [1, 8], lanes = [2, 16], warps = [4, 1]>
// CHECK-DAG: #[[MMA:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [1, 4]>
// CHECK-DAG: #[[C:.*]] = #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>
// CHECK-DAG: #[[AROWS:.*]] = #blk.slice<dim = 1, parent = #[[A]]>
// CHECK-DAG: #[[CROWS:.*]] = #blk.slice<dim = 1, parent = #[[C]]>
// CHECK-LABEL: func.func @matmul_tile
// CHECK-DAG: blk.arange 0 to 64 : tensor<64xi32, #[[AROWS]]>
// CHECK-DAG: blk.arange 0 to 64 : tensor<64xi32, #[[CROWS]]>
// CHECK: blk.load %{{.*}} {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<64x64xi32, #[[A]]> -> tensor<64x64xbf16, #[[A]]>
// CHECK: blk.load %{{.*}} {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<64x128xi32, #[[B]]> -> tensor<64x128xbf16, #[[B]]>
// CHECK: %[[D:.*]] = blk.dot {{.*}} : tensor<64x64xbf16, #[[A]]>, tensor<64x128xbf16, #[[B]]>, tensor<64x128xf32, #[[MMA]]>
// CHECK: %[[STORED:.*]] = blk.convert_layout %[[D]] : tensor<64x128xf32, #[[MMA]]> -> tensor<64x128xf32, #[[C]]>
// CHECK: blk.store %{{.*}}, %[[STORED]] {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<64x128xi32, #[[C]]>, tensor<64x128xf32, #[[C]]>
// On sm_90a the tile fits wgmma (4 warps: one warpgroup, M 64, N 128, K
// 64): the accumulator's warps all go along M.
// SM90A-COUNT-3: // -----
// SM90A-DAG: #[[WG:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>
// SM90A-LABEL: func.func @matmul_tile
// SM90A: blk.dot {{.*}}, tensor<64x128xf32, #[[WG]]>
func.func @matmul_tile(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                       %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64},
                       %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %n = arith.constant 1024 : i32
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %n_col = blk.splat %n [64, 1] : i32 -> tensor<64x1xi32>
  %row_starts = arith.muli %rows_col, %n_col : tensor<64x1xi32>
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<128xi32> -> tensor<1x128xi32>
  %ks = blk.arange 0 to 64 : tensor<64xi32>
  %ks_row = blk.expand_dims %ks axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ks_col = blk.expand_dims %ks axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %a_starts = blk.broadcast %row_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %a_cols = blk.broadcast %ks_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
  %a_offsets = arith.addi %a_starts, %a_cols : tensor<64x64xi32>
  %a_tile = blk.load %a[%a_offsets] : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
  %n_k = blk.splat %n [64, 1] : i32 -> tensor<64x1xi32>
  %b_starts = arith.muli %ks_col, %n_k : tensor<64x1xi32>
  %b_starts_2d = blk.broadcast %b_starts [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  %b_cols = blk.broadcast %cols_row [64, 128] : tensor<1x128xi32> -> tensor<64x128xi32>
  %b_offsets = arith.addi %b_starts_2d, %b_cols : tensor<64x128xi32>
  %b_tile = blk.load %b[%b_offsets] : !blk.ptr<bf16>, tensor<64x128xi32> -> tensor<64x128xbf16>
  %zero = arith.constant 0.0 : f32
  %acc = blk.splat %zero [64, 128] : f32 -> tensor<64x128xf32>
  %d = blk.dot %a_tile, %b_tile, %acc : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
  %c_starts = blk.broadcast %row_starts [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  %c_cols = blk.broadcast %cols_row [64, 128] : tensor<1x128xi32> -> tensor<64x128xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<64x128xi32>
  blk.store %c[%c_offsets], %d : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
  return
}

// -----

// A store in a loop keeps the fragments' layout: a conversion there would
// need its scratch beside the loop's own buffers.
// CHECK: // -----
// CHECK-LABEL: func.func @stored_in_a_loop
// CHECK: %[[D:.*]] = blk.dot {{.*}}, tensor<64x128xf32, #[[MMA:.*]]>
// CHECK-NOT: blk.convert_layout
// CHECK: blk.store %{{.*}}[%{{.*}}], %[[D]] {{.*}}: !blk.ptr<f32>, tensor<64x128xi32, #[[MMA]]>, tensor<64x128xf32, #[[MMA]]>
func.func @stored_in_a_loop(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %x: bf16, %steps: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %n = arith.constant 1024 : i32
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %n_col = blk.splat %n [64, 1] : i32 -> tensor<64x1xi32>
  %row_starts = arith.muli %rows_col, %n_col : tensor<64x1xi32>
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<128xi32> -> tensor<1x128xi32>
  %c_starts = blk.broadcast %row_starts [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  %c_cols = blk.broadcast %cols_row [64, 128] : tensor<1x128xi32> -> tensor<64x128xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<64x128xi32>
  %a = blk.splat %x : bf16 -> tensor<64x64xbf16>
  %b = blk.splat %x : bf16 -> tensor<64x128xbf16>
  %zero = arith.constant 0.0 : f32
  %acc = blk.splat %zero [64, 128] : f32 -> tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = scf.for %i = %c0 to %steps step %c1 iter_args(%acc_in = %acc) -> (tensor<64x128xf32>) : i32 {
    %d = blk.dot %a, %b, %acc_in : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
    blk.store %c[%c_offsets], %d : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
    scf.yield %d : tensor<64x128xf32>
  }
  return
}

// -----

// Two products whose accumulators meet (attention's S = Q K^T and O += P V
// share their rows' max and sum): one mma layout holds both, the warps
// split as suits them together. Alone, 128 x 128 would split 2 x 4 and
// 128 x 64 4 x 2; together 4 x 2 (40 fragment loads a K step, 2 x 4: 44).
// With wgmma (sm_90a) every warp lies along M for both.
// CHECK-DAG: #[[SHARED:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 2]>
// CHECK-LABEL: func.func @two_products
// CHECK: blk.dot {{.*}} tensor<128x64xf32, #[[SHARED]]>
// CHECK: blk.reduce max {{.*}} : tensor<128x64xf32, #[[SHARED]]>
// CHECK: blk.dot {{.*}} tensor<128x128xf32, #[[SHARED]]>
// SM90A-DAG: #[[WG:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [8, 1]>
// SM90A-LABEL: func.func @two_products
// SM90A: blk.dot {{.*}} tensor<128x64xf32, #[[WG]]>
// SM90A: blk.dot {{.*}} tensor<128x128xf32, #[[WG]]>
func.func @two_products(%p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %q = blk.splat %x : bf16 -> tensor<128x64xbf16>
  %kt = blk.splat %x : bf16 -> tensor<64x64xbf16>
  %s0 = blk.splat %y : f32 -> tensor<128x64xf32>
  %s = blk.dot %q, %kt, %s0 : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
  %m = blk.reduce max %s axis 1 : tensor<128x64xf32> -> tensor<128xf32>
  %mc = blk.expand_dims %m axis 1 : tensor<128xf32> -> tensor<128x1xf32>
  %ms = blk.broadcast %mc [128, 64] : tensor<128x1xf32> -> tensor<128x64xf32>
  %ps = arith.subf %s, %ms : tensor<128x64xf32>
  %p16 = arith.truncf %ps : tensor<128x64xf32> to tensor<128x64xbf16>
  %v = blk.splat %x : bf16 -> tensor<64x128xbf16>
  %mo = blk.broadcast %mc [128, 128] : tensor<128x1xf32> -> tensor<128x128xf32>
  %o = blk.dot %p16, %v, %mo : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
  %rows = blk.arange 0 to 128 : tensor<128xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<128xi32> -> tensor<128x1xi32>
  %rb = blk.broadcast %r [128, 128] : tensor<128x1xi32> -> tensor<128x128xi32>
  blk.store %p[%rb], %o : !blk.ptr<f32>, tensor<128x128xi32>, tensor<128x128xf32>
  return
}

// -----

// A transposed tile (K^T read from K's rows: consecutive down its columns,
// one element at a time along its rows) runs down its columns: each thread
// holds one column in runs of 8 (16 bytes, one load: K's rows start at
// multiples of 16 elements), two lanes down a column, so that a warp's
// loads fill whole 32-byte sectors; the layout of its rows would spread
// every lane over a line of its own.
// CHECK-DAG: #[[DOWN:.*]] = #blk.blocked<elems = [8, 1], lanes = [2, 16], warps = [2, 2]>
// CHECK-LABEL: func.func @transposed_tile
// CHECK: blk.load {{.*}} {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<64x32xi32, #[[DOWN]]> -> tensor<64x32xbf16, #[[DOWN]]>
func.func @transposed_tile(%k: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %stride: i32 {blk.divisibility = 16 : i64}, %p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %ds = blk.arange 0 to 64 : tensor<64xi32>
  %dcol = blk.expand_dims %ds axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %d2 = blk.broadcast %dcol [64, 32] : tensor<64x1xi32> -> tensor<64x32xi32>
  %js = blk.arange 0 to 32 : tensor<32xi32>
  %jrow = blk.expand_dims %js axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %s = blk.splat %stride [1, 32] : i32 -> tensor<1x32xi32>
  %starts = arith.muli %jrow, %s : tensor<1x32xi32>
  %starts2 = blk.broadcast %starts [64, 32] : tensor<1x32xi32> -> tensor<64x32xi32>
  %offsets = arith.addi %starts2, %d2 : tensor<64x32xi32>
  %kt = blk.load %k[%offsets] : !blk.ptr<bf16>, tensor<64x32xi32> -> tensor<64x32xbf16>
  %a = blk.splat %x : bf16 -> tensor<64x64xbf16>
  %c = blk.splat %y : f32 -> tensor<64x32xf32>
  %d = blk.dot %a, %kt, %c : tensor<64x64xbf16>, tensor<64x32xbf16>, tensor<64x32xf32>
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 32] : tensor<64x1xi32> -> tensor<64x32xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<64x32xi32>, tensor<64x32xf32>
  return
}

// -----

// Where the rows of K may start anywhere (no divisibility on the stride),
// runs down a column are single elements: the lanes go down the columns,
// one element each, so that a warp still reads whole sectors.
// CHECK-DAG: #[[DOWN:.*]] = #blk.blocked<elems = [1, 1], lanes = [32, 1], warps = [1, 4]>
// CHECK-LABEL: func.func @transposed_tile_unaligned
// CHECK: blk.load {{.*}} {blk.vector = 1 : i64} : !blk.ptr<bf16>, tensor<64x32xi32, #[[DOWN]]> -> tensor<64x32xbf16, #[[DOWN]]>
func.func @transposed_tile_unaligned(%k: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %stride: i32, %p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %ds = blk.arange 0 to 64 : tensor<64xi32>
  %dcol = blk.expand_dims %ds axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %d2 = blk.broadcast %dcol [64, 32] : tensor<64x1xi32> -> tensor<64x32xi32>
  %js = blk.arange 0 to 32 : tensor<32xi32>
  %jrow = blk.expand_dims %js axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  %s = blk.splat %stride [1, 32] : i32 -> tensor<1x32xi32>
  %starts = arith.muli %jrow, %s : tensor<1x32xi32>
  %starts2 = blk.broadcast %starts [64, 32] : tensor<1x32xi32> -> tensor<64x32xi32>
  %offsets = arith.addi %starts2, %d2 : tensor<64x32xi32>
  %kt = blk.load %k[%offsets] : !blk.ptr<bf16>, tensor<64x32xi32> -> tensor<64x32xbf16>
  %a = blk.splat %x : bf16 -> tensor<64x64xbf16>
  %c = blk.splat %y : f32 -> tensor<64x32xf32>
  %d = blk.dot %a, %kt, %c : tensor<64x64xbf16>, tensor<64x32xbf16>, tensor<64x32xf32>
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 32] : tensor<64x1xi32> -> tensor<64x32xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<64x32xi32>, tensor<64x32xf32>
  return
}

// -----

// A narrow block read down its columns (2048 x 1 f32, 16-byte runs down
// the one column): every lane down it, none across (lanes there would hold
// copies), 16 elements a thread in 4 runs of 4.
// CHECK-DAG: #[[NARROW:.*]] = #blk.blocked<elems = [4, 1], lanes = [32, 1], warps = [4, 1]>
// CHECK-LABEL: func.func @narrow_column
// CHECK: blk.load {{.*}} {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<2048x1xi32, #[[NARROW]]>
func.func @narrow_column(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %r = blk.arange 0 to 2048 : tensor<2048xi32>
  %rc = blk.expand_dims %r axis 1 : tensor<2048xi32> -> tensor<2048x1xi32>
  %x = blk.load %in[%rc] : !blk.ptr<f32>, tensor<2048x1xi32> -> tensor<2048x1xf32>
  %y = arith.addf %x, %x : tensor<2048x1xf32>
  blk.store %out[%rc], %y : !blk.ptr<f32>, tensor<2048x1xi32>, tensor<2048x1xf32>
  return
}
