// RUN: softmax-opt %s --blk-attach-target=chip=sm_90a --blk-pipeline-loads --blk-distribute --blk-pipeline-dot-operands --convert-blk-to-gpu | FileCheck %s

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
