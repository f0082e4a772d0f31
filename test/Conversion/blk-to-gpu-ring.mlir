// RUN: softmax-opt %s --blk-attach-target=chip=sm_90a --blk-pipeline-loads --blk-distribute --blk-pipeline-dot-operands --convert-blk-to-gpu --split-input-file | FileCheck %s

// The rings of blk-pipeline-dot-operands (4 stages: copies 2 K steps
// ahead, products left in flight) in convert-blk-to-gpu: 4 slots of A and
// of B (8 KiB each) in 1024-aligned dynamic shared memory, 1008 bytes of
// room to round its start up; each 16-byte run one cp.async.cg whose
// source size is 16 or 0 (masked off: zeros, no branch); a commit per
// K step; the wait for this step's group, the proxy fence and the barrier
// before the products (m64n64k16, 4 warps: one warpgroup), which stay in
// flight (wait 1) while the next copies start; after the loop, the last
// copies and products waited for, the wait taking the accumulator's
// registers (tied), so nothing reads them before it.
// CHECK: blk.launch = [#blk.launch<kernel = "ring_copies", threads = 128, ctas = 1, staticSharedBytes = 0, dynamicSharedBytes = 66544,
// CHECK-LABEL: gpu.func @ring_copies
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "=f,{{.*}},0,1,
func.func @ring_copies(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 4>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : bf16
  %fzero = arith.constant 0.0 : f32
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %n_col = blk.splat %n : i32 -> tensor<64x1xi32>
  %row_starts = arith.muli %rows_col, %n_col : tensor<64x1xi32>
  %cols = blk.arange 0 to 64 : tensor<64xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ks_a = blk.arange 0 to 64 : tensor<64xi32>
  %ks_row = blk.expand_dims %ks_a axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ks_b = blk.arange 0 to 64 : tensor<64xi32>
  %ks_col = blk.expand_dims %ks_b axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %acc0 = blk.splat %fzero : f32 -> tensor<64x64xf32>
  %acc = scf.for %k0 = %c0 to %n step %c64 iter_args(%acc_in = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0_row = blk.splat %k0 : i32 -> tensor<1x64xi32>
    %a_cols = arith.addi %ks_row, %k0_row : tensor<1x64xi32>
    %n_row = blk.splat %n : i32 -> tensor<1x64xi32>
    %a_col_ok = arith.cmpi slt, %a_cols, %n_row : tensor<1x64xi32>
    %a_mask = blk.broadcast %a_col_ok [64, 64] : tensor<1x64xi1> -> tensor<64x64xi1>
    %a_starts = blk.broadcast %row_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
    %a_cols_2d = blk.broadcast %a_cols [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
    %a_offsets = arith.addi %a_starts, %a_cols_2d : tensor<64x64xi32>
    %a_tile = blk.load %a[%a_offsets] mask %a_mask other %zero : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
    %k0_col = blk.splat %k0 : i32 -> tensor<64x1xi32>
    %b_rows = arith.addi %ks_col, %k0_col : tensor<64x1xi32>
    %b_row_ok = arith.cmpi slt, %b_rows, %n_col : tensor<64x1xi32>
    %b_mask = blk.broadcast %b_row_ok [64, 64] : tensor<64x1xi1> -> tensor<64x64xi1>
    %b_starts = arith.muli %b_rows, %n_col : tensor<64x1xi32>
    %b_starts_2d = blk.broadcast %b_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
    %b_cols_2d = blk.broadcast %cols_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
    %b_offsets = arith.addi %b_starts_2d, %b_cols_2d : tensor<64x64xi32>
    %b_tile = blk.load %b[%b_offsets] mask %b_mask other %zero : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
    %next = blk.dot %a_tile, %b_tile, %acc_in : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %c_starts = blk.broadcast %row_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %c_cols = blk.broadcast %cols_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<64x64xi32>
  blk.store %c[%c_offsets], %acc : !blk.ptr<f32>, tensor<64x64xi32>, tensor<64x64xf32>
  return
}

// -----

// Two products a step (blk-pipeline-dot-operands' attention form, 2
// stages): Q stored once before the loop, 16 bytes a run, into its
// swizzled buffer; the copies of step 0 (8 a thread: K^T's runs down its
// columns and V's along its rows, 16 bytes each); in the loop, the wait for
// this step's group, the proxy fence and barrier, S's m64n64k16 products
// reading K K-major (col), the first writing S (it starts at 0: scale-d
// <zero>), waited for, the next step's 8 copies and their commit; P, in
// the accumulator's layout, stays in registers: O's products take it as
// wgmma's A fragments (inline PTX, 4 registers of bf16 pairs a K step)
// and read V N-major (trans-b 1) with no store, fence or barrier before
// them (V's copies came with K's, published by S's barrier); waited for.
// CHECK-LABEL: gpu.func @two_products
// CHECK-COUNT-4: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-COUNT-8: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-8: nvvm.cp.async.shared.global {{.*}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: gpu.barrier
// CHECK-NOT: llvm.store
// CHECK-NOT: nvvm.fence.proxy
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm has_side_effects {{.*}}"{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "=f,{{.*}},r,r,r,r,l"
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
func.func @two_products(%o: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %q: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %k: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %v: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 2>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : bf16
  %fzero = arith.constant 0.0 : f32
  %stride = arith.constant 64 : i32
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %stride_col = blk.splat %stride : i32 -> tensor<64x1xi32>
  %row_starts = arith.muli %rows_col, %stride_col : tensor<64x1xi32>
  %ds = blk.arange 0 to 64 : tensor<64xi32>
  %ds_row = blk.expand_dims %ds axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %q_starts = blk.broadcast %row_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %q_ds = blk.broadcast %ds_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
  %q_offsets = arith.addi %q_starts, %q_ds : tensor<64x64xi32>
  %q_tile = blk.load %q[%q_offsets] : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
  %kt_ds = blk.arange 0 to 64 : tensor<64xi32>
  %kt_ds_col = blk.expand_dims %kt_ds axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %kt_js = blk.arange 0 to 64 : tensor<64xi32>
  %kt_js_row = blk.expand_dims %kt_js axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %v_js = blk.arange 0 to 64 : tensor<64xi32>
  %v_js_col = blk.expand_dims %v_js axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %v_ds = blk.arange 0 to 64 : tensor<64xi32>
  %v_ds_row = blk.expand_dims %v_ds axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %acc0 = blk.splat %fzero : f32 -> tensor<64x64xf32>
  %s0 = blk.splat %fzero : f32 -> tensor<64x64xf32>
  %acc = scf.for %j0 = %c0 to %n step %c64 iter_args(%acc_in = %acc0) -> (tensor<64x64xf32>) : i32 {
    %j0_row = blk.splat %j0 : i32 -> tensor<1x64xi32>
    %kt_js_abs = arith.addi %kt_js_row, %j0_row : tensor<1x64xi32>
    %n_row = blk.splat %n : i32 -> tensor<1x64xi32>
    %kt_j_ok = arith.cmpi slt, %kt_js_abs, %n_row : tensor<1x64xi32>
    %stride_row = blk.splat %stride : i32 -> tensor<1x64xi32>
    %kt_starts = arith.muli %kt_js_abs, %stride_row : tensor<1x64xi32>
    %kt_starts_2d = blk.broadcast %kt_starts [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
    %kt_ds_2d = blk.broadcast %kt_ds_col [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
    %kt_offsets = arith.addi %kt_starts_2d, %kt_ds_2d : tensor<64x64xi32>
    %kt_mask = blk.broadcast %kt_j_ok [64, 64] : tensor<1x64xi1> -> tensor<64x64xi1>
    %kt = blk.load %k[%kt_offsets] mask %kt_mask other %zero : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
    %s = blk.dot %q_tile, %kt, %s0 : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %j0_col = blk.splat %j0 : i32 -> tensor<64x1xi32>
    %v_js_abs = arith.addi %v_js_col, %j0_col : tensor<64x1xi32>
    %n_col = blk.splat %n : i32 -> tensor<64x1xi32>
    %v_j_ok = arith.cmpi slt, %v_js_abs, %n_col : tensor<64x1xi32>
    %v_starts = arith.muli %v_js_abs, %stride_col : tensor<64x1xi32>
    %v_starts_2d = blk.broadcast %v_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
    %v_ds_2d = blk.broadcast %v_ds_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
    %v_offsets = arith.addi %v_starts_2d, %v_ds_2d : tensor<64x64xi32>
    %v_mask = blk.broadcast %v_j_ok [64, 64] : tensor<64x1xi1> -> tensor<64x64xi1>
    %v_tile = blk.load %v[%v_offsets] mask %v_mask other %zero : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
    %acc_new = blk.dot %p, %v_tile, %acc_in : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %acc_new : tensor<64x64xf32>
  }
  %o_starts = blk.broadcast %row_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %o_ds = blk.broadcast %ds_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
  %o_offsets = arith.addi %o_starts, %o_ds : tensor<64x64xi32>
  blk.store %o[%o_offsets], %acc : !blk.ptr<f32>, tensor<64x64xi32>, tensor<64x64xf32>
  return
}
