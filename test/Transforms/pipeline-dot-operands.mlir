// RUN: softmax-opt %s --blk-attach-target=chip=sm_90a --blk-pipeline-loads --blk-distribute --blk-pipeline-dot-operands --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-attach-target=chip=sm_90 --blk-pipeline-loads --blk-distribute --blk-pipeline-dot-operands --split-input-file | FileCheck %s --check-prefix=SM90
// RUN: softmax-opt %s --blk-attach-target=chip=sm_90a --blk-pipeline-loads --blk-distribute --blk-pipeline-dot-operands=tensor-maps=false --split-input-file | FileCheck %s --check-prefix=NOTMA

// A K loop's blk.dot on wgmma (sm_90a, 4 warps: one warpgroup, 64 x 64 x
// 64), A and B loaded in whole 16-byte runs (the row length divisible by
// 16), num_stages = 3: A and B are copied into rings of 3 swizzled buffers
// (A's rows rotated as the accumulator's: bits 3..5 for 4 warps), the
// copies of iterations 0 and 1 before the loop, a group each; each
// iteration waits until at most one group is in flight, multiplies from
// slot i mod 3 leaving the products in flight (the loop chains the
// accumulator), meets the other warps at a barrier (their products of i - 1
// read slot (i + 2) mod 3), then copies iteration i + 2 there, masked where
// that iteration does not run. blk-pipeline-loads left these loads alone
// (no loop-carried block).
// CHECK-LABEL: func.func @ring_copies
// CHECK: %[[RING_A:.*]] = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
// CHECK: %[[RING_B:.*]] = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<>>
// CHECK: %[[S0:.*]] = blk.local_index %[[RING_A]][%{{.*}}]
// CHECK: blk.async_copy_into %{{.*}}[%{{.*}}] mask %{{.*}} into %[[S0]] {blk.vector = 8 : i64}
// CHECK: blk.async_copy_into
// CHECK-NEXT: blk.async_commit_group
// CHECK: blk.async_copy_into
// CHECK: blk.async_copy_into
// CHECK-NEXT: blk.async_commit_group
// The loop carries the slot it reads (from 0) and the slot it writes (from
// 2), each stepped round the ring of 3.
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %c0_i32{{.*}}, %[[NEXT:.*]] = %c2_i32{{.*}}) -> (tensor<64x64xf32, #{{.*}}>, i32, i32)  : i32 {
// CHECK-NOT: blk.load
// CHECK: blk.async_wait_group 1
// CHECK-DAG: %[[B:.*]] = blk.local_index %[[RING_B]][%[[SLOT]]]
// CHECK-DAG: %[[A:.*]] = blk.local_index %[[RING_A]][%[[SLOT]]]
// CHECK: %[[C:.*]] = blk.warpgroup_dot %[[A]], %[[B]], %[[ACC]] {pending = 1 : i64}
// CHECK-NEXT: blk.barrier
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[K]], %{{.*}} : i32
// CHECK: blk.local_index %[[RING_A]][%[[NEXT]]]
// CHECK: blk.splat %[[RUNS]]
// CHECK: blk.async_copy_into
// CHECK: blk.local_index %[[RING_B]][%[[NEXT]]]
// CHECK: blk.async_copy_into
// CHECK-NEXT: blk.async_commit_group
// CHECK: %[[SLOT_UP:.*]] = arith.addi %[[SLOT]], %c1_i32
// CHECK: %[[SLOT_WRAPS:.*]] = arith.cmpi eq, %[[SLOT_UP]], %c3_i32
// CHECK: %[[SLOT_ON:.*]] = arith.select %[[SLOT_WRAPS]], %c0_i32{{.*}}, %[[SLOT_UP]] : i32
// CHECK: %[[NEXT_UP:.*]] = arith.addi %[[NEXT]], %c1_i32
// CHECK: %[[NEXT_WRAPS:.*]] = arith.cmpi eq, %[[NEXT_UP]], %c3_i32
// CHECK: %[[NEXT_ON:.*]] = arith.select %[[NEXT_WRAPS]], %c0_i32{{.*}}, %[[NEXT_UP]] : i32
// CHECK-NEXT: scf.yield %[[C]], %[[SLOT_ON]], %[[NEXT_ON]]
// CHECK: blk.async_wait_group 0
// CHECK: blk.warpgroup_wait 0
// CHECK: blk.store
// On sm_90 the dot takes mma.sync: the loads stay loads, pipelined into
// registers by blk-pipeline-loads.
// SM90-LABEL: func.func @ring_copies
// SM90-NOT: blk.local_alloc
// SM90: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}, %[[B0:.*]] = %{{.*}}, %[[B1:.*]] = %{{.*}})
// SM90: blk.dot %[[A0]], %[[B0]]
func.func @ring_copies(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 3>} {
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

// B read K-major (a Linear layer's x W^T: B[k][n] = W[n][k], each column of
// B a row of W, consecutive down the column): its loads run down the
// columns, 16 bytes a thread (blk-distribute), and its ring is transposed,
// a column of B a panel row, which the copies fill run by run; the mask on
// K is the same over each run down a column. A as before.
// CHECK-DAG: #[[DOWN:.*]] = #blk.blocked<elems = [8, 1], lanes = [2, 16], warps = [1, 4]>
// CHECK-LABEL: func.func @ring_copies_k_major_b
// CHECK: blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
// CHECK: %[[RING_B:.*]] = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<transposed = true>>
// CHECK: scf.for
// CHECK-NOT: blk.load
// CHECK: blk.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} {pending = 1 : i64} : {{.*}}, !blk.shared<64x64xbf16, #blk.swizzled<transposed = true>>
// CHECK: %[[SLOT_B:.*]] = blk.local_index %[[RING_B]]
// CHECK: blk.async_copy_into %{{.*}}[%{{.*}}] mask %{{.*}} into %[[SLOT_B]] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<64x64xi32, #[[DOWN]]>
func.func @ring_copies_k_major_b(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %w: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 3>} {
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
  %ns = blk.arange 0 to 64 : tensor<64xi32>
  %ns_row = blk.expand_dims %ns axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %n_row = blk.splat %n : i32 -> tensor<1x64xi32>
  %w_starts = arith.muli %ns_row, %n_row : tensor<1x64xi32>
  %ks_a = blk.arange 0 to 64 : tensor<64xi32>
  %ks_row = blk.expand_dims %ks_a axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ks_b = blk.arange 0 to 64 : tensor<64xi32>
  %ks_col = blk.expand_dims %ks_b axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %acc0 = blk.splat %fzero : f32 -> tensor<64x64xf32>
  %acc = scf.for %k0 = %c0 to %n step %c64 iter_args(%acc_in = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0_row = blk.splat %k0 : i32 -> tensor<1x64xi32>
    %a_cols = arith.addi %ks_row, %k0_row : tensor<1x64xi32>
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
    %b_starts_2d = blk.broadcast %w_starts [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
    %b_rows_2d = blk.broadcast %b_rows [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
    %b_offsets = arith.addi %b_starts_2d, %b_rows_2d : tensor<64x64xi32>
    %b_tile = blk.load %w[%b_offsets] mask %b_mask other %zero : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
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

// Two products a step (attention's S = Q K^T, then O += P V; 4 warps, 64
// query rows, 64 keys a step, head_dim 64), num_stages = 2: K^T (K-major,
// a transposed ring) and V get rings of 2, copied one step ahead, the
// copies of step 0 before the loop; Q, loaded before the loop, is stored
// once where wgmma reads it (its rows rotated); each step waits for its
// group, makes S, starts the next step's copies of K and V in one group;
// P, computed from S in the accumulator's layout, is O's A in registers
// (wgmma's fragments of A), and O's product needs no barrier of its own
// (synchronize = false): V's copies came in S's group, which S's barrier
// published. Both products are waited for where they are made.
// CHECK-LABEL: func.func @two_products
// CHECK: %[[Q:.*]] = blk.load
// CHECK: %[[QBUF:.*]] = blk.local_alloc %[[Q]] : {{.*}} -> !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
// CHECK: %[[RING_K:.*]] = blk.local_alloc -> !blk.shared<2x64x64xbf16, #blk.swizzled<transposed = true>>
// CHECK: %[[RING_V:.*]] = blk.local_alloc -> !blk.shared<2x64x64xbf16, #blk.swizzled<>>
// CHECK: blk.async_copy_into
// CHECK: blk.async_copy_into
// CHECK-NEXT: blk.async_commit_group
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %c0_i32{{.*}}, %[[NEXT:.*]] = %c1_i32{{.*}})
// CHECK-NOT: blk.load
// CHECK: blk.async_wait_group 0
// CHECK: %[[K:.*]] = blk.local_index %[[RING_K]][%[[SLOT]]]
// CHECK: %[[S:.*]] = blk.warpgroup_dot %[[QBUF]], %[[K]], %{{.*}} :
// CHECK-NOT: pending
// CHECK: blk.local_index %[[RING_K]][%[[NEXT]]]
// CHECK: blk.async_copy_into
// CHECK: blk.local_index %[[RING_V]][%[[NEXT]]]
// CHECK: blk.async_copy_into
// CHECK-NEXT: blk.async_commit_group
// CHECK-NOT: blk.barrier
// CHECK-NOT: blk.local_alloc
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[MMA:.*]]> to tensor<64x64xbf16, #[[MMA]]>
// CHECK: %[[V:.*]] = blk.local_index %[[RING_V]][%[[SLOT]]]
// CHECK: blk.warpgroup_dot %[[P]], %[[V]], %[[ACC]] {synchronize = false} : tensor<64x64xbf16, #[[MMA]]>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #[[MMA]]>
// CHECK: blk.async_wait_group 0
// CHECK-NOT: blk.warpgroup_wait
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

// -----

// Two stages: the rings would copy one K step ahead and wait for each
// copy before the next product, slower than the operands carried in
// registers, which blk-pipeline-loads makes instead.
// CHECK-LABEL: func.func @two_stages
// CHECK-NOT: blk.local_alloc
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[A0:.*]] = %{{.*}}, %[[B0:.*]] = %{{.*}})
// CHECK: blk.dot %[[A0]], %[[B0]]
func.func @two_stages(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 2>} {
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

// Rows of a length not known to be a multiple of 8 elements: the loads
// move element by element, cp.async cannot take them; blk-pipeline-loads
// carries them in registers instead.
// CHECK-LABEL: func.func @unaligned_rows
// CHECK-NOT: blk.local_alloc
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}, %[[B0:.*]] = %{{.*}}, %[[B1:.*]] = %{{.*}})
// CHECK: blk.dot %[[A0]], %[[B0]]
func.func @unaligned_rows(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 3>} {
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

// Four stages: the product is left in flight too, and the copies run two
// iterations ahead, not three, into the slot iteration i - 2 read (every
// warpgroup's products of i - 2 are done): no second barrier; after the
// loop the last product is waited for before the accumulator is stored.
// CHECK-LABEL: func.func @products_in_flight
// CHECK: blk.local_alloc -> !blk.shared<4x64x64xbf16
// CHECK: blk.async_commit_group
// CHECK: blk.async_commit_group
// CHECK-NOT: blk.async_commit_group
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %c0_i32{{.*}}, %{{.*}} = %c2_i32{{.*}})
// CHECK: blk.async_wait_group 1
// CHECK: %[[C:.*]] = blk.warpgroup_dot {{.*}} {pending = 1 : i64}
// CHECK-NOT: blk.barrier
// CHECK: blk.async_commit_group
// CHECK: arith.cmpi eq, %{{.*}}, %c4_i32
// CHECK: scf.yield %[[C]], %{{.*}}, %{{.*}} :
// CHECK: blk.async_wait_group 0
// CHECK-NEXT: %[[DONE:.*]] = blk.warpgroup_wait 0 %{{.*}} : tensor<64x64xf32, #{{.*}}>
// CHECK: %[[STORED:.*]] = blk.convert_layout %[[DONE]]
// CHECK: blk.store %{{.*}}[%{{.*}}], %[[STORED]]
func.func @products_in_flight(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 4>} {
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

// A K loop inside another loop (attention backward's walk over key tiles):
// its operands are copied into rings as in any K loop, and after it, once
// the copies and products are waited for, a barrier keeps the next entry's
// first copies from overwriting slots another warpgroup's last products
// may still read. The outer loop's own loads are not carried (its
// iterations are whole inner loops).
// CHECK-LABEL: func.func @nested_loop
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK-SAME: {
// CHECK: blk.local_alloc
// CHECK: scf.for
// CHECK: blk.warpgroup_dot
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: blk.async_wait_group 0
// CHECK-NEXT: blk.warpgroup_wait 0
// CHECK-NEXT: blk.barrier
func.func @nested_loop(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 3>} {
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
  %c2 = arith.constant 2 : i32
  %c1 = arith.constant 1 : i32
  scf.for %t = %c0 to %c2 step %c1 : i32 {
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
  }
  return
}

// -----

// Four stages, but the loop also carries the accumulator it received (the
// previous step's product): a product left in flight would be read by
// that copy, so the products are waited for (no pending) and the copies
// run three steps ahead.
// CHECK-LABEL: func.func @accumulator_read
// CHECK: blk.local_alloc -> !blk.shared<4x64x64xbf16
// CHECK: scf.for
// CHECK: blk.async_wait_group 2
// CHECK-NOT: pending
// CHECK: blk.warpgroup_dot
// CHECK-NOT: blk.warpgroup_wait
func.func @accumulator_read(%c: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %a: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %b: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 4>} {
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
  %acc:2 = scf.for %k0 = %c0 to %n step %c64 iter_args(%acc_in = %acc0, %prev = %acc0) -> (tensor<64x64xf32>, tensor<64x64xf32>) : i32 {
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
    scf.yield %next, %acc_in : tensor<64x64xf32>, tensor<64x64xf32>
  }
  %c_starts = blk.broadcast %row_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %c_cols = blk.broadcast %cols_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<64x64xi32>
  blk.store %c[%c_offsets], %acc#1 : !blk.ptr<f32>, tensor<64x64xi32>, tensor<64x64xf32>
  return
}

// -----

// One product whose A the threads compute in the loop: not copied (the
// rings pay beside other products, or with both operands in them).
// CHECK-LABEL: func.func @one_product_computed_a
// CHECK-NOT: blk.local_alloc
// CHECK: blk.dot
func.func @one_product_computed_a(%o: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %v: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}, %x: bf16) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 3>} {
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
  %v_js = blk.arange 0 to 64 : tensor<64xi32>
  %v_js_col = blk.expand_dims %v_js axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %v_ds = blk.arange 0 to 64 : tensor<64xi32>
  %v_ds_row = blk.expand_dims %v_ds axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %acc0 = blk.splat %fzero : f32 -> tensor<64x64xf32>
  %acc = scf.for %j0 = %c0 to %n step %c64 iter_args(%acc_in = %acc0) -> (tensor<64x64xf32>) : i32 {
    %j0_bf = arith.sitofp %j0 : i32 to bf16
    %a_value = arith.addf %j0_bf, %x : bf16
    %a = blk.splat %a_value : bf16 -> tensor<64x64xbf16>
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
    %acc_new = blk.dot %a, %v_tile, %acc_in : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %acc_new : tensor<64x64xf32>
  }
  %o_starts = blk.broadcast %row_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %o_ds = blk.broadcast %ds_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
  %o_offsets = arith.addi %o_starts, %o_ds : tensor<64x64xi32>
  blk.store %o[%o_offsets], %acc : !blk.ptr<f32>, tensor<64x64xi32>, tensor<64x64xf32>
  return
}

// -----

// A K loop of one product whose A and B each read a box of a matrix
// argument (offsets (r0 + i) * stride + (c0 + j), masked by exactly the
// matrix's rows and columns, rows 16-byte aligned), as the tiled matmul of
// python-free-examples/ reads them, with A's tile of 128 rows (8 warps; a
// 64-row tile keeps cp.async: kMinTensorMapTileRows): TMA copies them. The
// kernel gets a tensor map of each (after its arguments), A's in boxes of
// 8 rows (its rows rotated in groups of 8) and B's of 64 x 64; the rings
// one barrier a slot. Each copy is one thread's announcement of the slot's
// bytes (128 x 64 x 2 and 64 x 64 x 2) and a blk.tensor_copy_into per
// operand at the box's first row and column; each iteration waits at its slot's barrier for the
// phase the loop carries (flipped as the slot wraps), and its product
// makes no barrier of its own (every thread waited for the copies). No
// group of cp.async is left.
// A's tile, its first row a multiple of 128 (the program's), goes as one
// box of a rotated map (4 dimensions: its 16 groups of 8 rows land
// rotated) where it lies inside the matrix, else in its 16 boxes of 8 rows.
// CHECK-LABEL: func.func @tensor_map_copies
// CHECK-SAME: %[[AMAP:[^:]*]]: !blk.tensor_map<8x64xbf16> {blk.arg = #blk.arg<tensor_map "a">}, %[[BMAP:[^:]*]]: !blk.tensor_map<64x64xbf16> {blk.arg = #blk.arg<tensor_map "b">}, %[[AWHOLE:[^:]*]]: !blk.tensor_map<128x64xbf16, rotation = [3, 4]> {blk.arg = #blk.arg<tensor_map "a">})
// CHECK: %[[RING_A:.*]] = blk.local_alloc -> !blk.shared<3x128x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 4>>
// CHECK: %[[RING_B:.*]] = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<>>
// CHECK: %[[BARS:.*]] = blk.init_barriers : !blk.barriers<3>
// CHECK: blk.barrier_expect %[[BARS]][%{{.*}}], 24576 if %{{.*}} : !blk.barriers<3>
// CHECK: blk.tensor_copy_into %[[AWHOLE]][%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%{{.*}}] if %{{.*}}
// CHECK: blk.tensor_copy_into %[[AMAP]][%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%{{.*}}] if %{{.*}}
// CHECK: blk.tensor_copy_into %[[BMAP]][%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%{{.*}}] if %{{.*}}
// CHECK: blk.barrier_expect %[[BARS]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %c0_i32{{.*}}, %[[NEXT:.*]] = %c2_i32{{.*}}, %[[PHASE:.*]] = %c0_i32{{.*}}) -> (tensor<128x64xf32, #{{.*}}>, i32, i32, i32)  : i32 {
// CHECK-NOT: blk.load
// CHECK: blk.wait_barrier %[[BARS]][%[[SLOT]]], %[[PHASE]] : !blk.barriers<3>
// CHECK: %[[C:.*]] = blk.warpgroup_dot %{{.*}}, %{{.*}}, %[[ACC]] {pending = 1 : i64, synchronize = false}
// CHECK-NEXT: blk.barrier
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[K]], %{{.*}} : i32
// CHECK: %[[INSIDE:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// CHECK: %[[OUTSIDE:.*]] = arith.xori %[[INSIDE]], %true
// CHECK: %[[WHOLE:.*]] = arith.andi %[[RUNS]], %[[INSIDE]] : i1
// CHECK: blk.barrier_expect %[[BARS]][%[[NEXT]]], 24576 if %[[RUNS]]
// CHECK: blk.tensor_copy_into %[[AWHOLE]][%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%[[NEXT]]] if %[[WHOLE]]
// CHECK: %[[GROUPS:.*]] = arith.andi %[[RUNS]], %[[OUTSIDE]] : i1
// CHECK: blk.tensor_copy_into %[[AMAP]][%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%[[NEXT]]] if %[[GROUPS]]
// CHECK: blk.tensor_copy_into %[[BMAP]][%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%[[NEXT]]] if %[[RUNS]]
// CHECK: %[[WRAPS:.*]] = arith.cmpi eq, %{{.*}}, %c3_i32
// CHECK: %[[FLIP:.*]] = arith.extui %[[WRAPS]] : i1 to i32
// CHECK: %[[PHASE_ON:.*]] = arith.xori %[[PHASE]], %[[FLIP]] : i32
// CHECK: scf.yield %[[C]], %{{.*}}, %{{.*}}, %[[PHASE_ON]]
// CHECK-NOT: blk.async_wait_group
// CHECK: blk.warpgroup_wait 0
// With tensor-maps=false the same loop is copied by cp.async.
// NOTMA-LABEL: func.func @tensor_map_copies
// NOTMA-NOT: blk.tensor_map
// NOTMA: blk.async_copy_into
// NOTMA-NOT: blk.tensor_copy_into
// NOTMA: blk.async_wait_group 0
func.func @tensor_map_copies(%c: !blk.ptr<f32> {blk.arg = #blk.arg<output "c">, blk.divisibility = 16 : i64},
                             %a: !blk.ptr<bf16> {blk.arg = #blk.arg<input "a", rows_by_inner>, blk.divisibility = 16 : i64},
                             %b: !blk.ptr<bf16> {blk.arg = #blk.arg<input "b", inner_by_cols>, blk.divisibility = 16 : i64},
                             %a_stride: i32 {blk.arg = #blk.arg<row_stride "a">, blk.divisibility = 16 : i64},
                             %b_stride: i32 {blk.arg = #blk.arg<row_stride "b">, blk.divisibility = 16 : i64},
                             %c_stride: i32 {blk.arg = #blk.arg<row_stride "c">, blk.divisibility = 16 : i64},
                             %m: i32 {blk.arg = #blk.arg<rows>},
                             %n: i32 {blk.arg = #blk.arg<cols>, blk.divisibility = 16 : i64},
                             %k: i32 {blk.arg = #blk.arg<inner>, blk.divisibility = 16 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, num_stages = 3>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant 0.0 : bf16
  %fzero = arith.constant 0.0 : f32
  %pid = blk.program_id x
  %first_row = arith.muli %pid, %c128 : i32
  %local_rows = blk.arange 0 to 128 : tensor<128xi32>
  %first = blk.splat %first_row : i32 -> tensor<128xi32>
  %rows = arith.addi %local_rows, %first : tensor<128xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<128xi32> -> tensor<128x1xi32>
  %m_col = blk.splat %m : i32 -> tensor<128x1xi32>
  %row_ok = arith.cmpi slt, %rows_col, %m_col : tensor<128x1xi32>
  %cols = blk.arange 0 to 64 : tensor<64xi32>
  %cols_row = blk.expand_dims %cols axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %n_row = blk.splat %n : i32 -> tensor<1x64xi32>
  %col_ok = arith.cmpi slt, %cols_row, %n_row : tensor<1x64xi32>
  %a_stride_col = blk.splat %a_stride : i32 -> tensor<128x1xi32>
  %a_row_starts = arith.muli %rows_col, %a_stride_col : tensor<128x1xi32>
  %ks_a = blk.arange 0 to 64 : tensor<64xi32>
  %ks_row = blk.expand_dims %ks_a axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %ks_b = blk.arange 0 to 64 : tensor<64xi32>
  %ks_col = blk.expand_dims %ks_b axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %acc0 = blk.splat %fzero : f32 -> tensor<128x64xf32>
  %acc = scf.for %k0 = %c0 to %k step %c64 iter_args(%acc_in = %acc0) -> (tensor<128x64xf32>) : i32 {
    %k0_row = blk.splat %k0 : i32 -> tensor<1x64xi32>
    %a_cols = arith.addi %ks_row, %k0_row : tensor<1x64xi32>
    %k_row = blk.splat %k : i32 -> tensor<1x64xi32>
    %a_col_ok = arith.cmpi slt, %a_cols, %k_row : tensor<1x64xi32>
    %a_col_ok_2d = blk.broadcast %a_col_ok [128, 64] : tensor<1x64xi1> -> tensor<128x64xi1>
    %a_row_ok_2d = blk.broadcast %row_ok [128, 64] : tensor<128x1xi1> -> tensor<128x64xi1>
    %a_mask = arith.andi %a_row_ok_2d, %a_col_ok_2d : tensor<128x64xi1>
    %a_starts = blk.broadcast %a_row_starts [128, 64] : tensor<128x1xi32> -> tensor<128x64xi32>
    %a_cols_2d = blk.broadcast %a_cols [128, 64] : tensor<1x64xi32> -> tensor<128x64xi32>
    %a_offsets = arith.addi %a_starts, %a_cols_2d : tensor<128x64xi32>
    %a_tile = blk.load %a[%a_offsets] mask %a_mask other %zero : !blk.ptr<bf16>, tensor<128x64xi32> -> tensor<128x64xbf16>
    %k0_col = blk.splat %k0 : i32 -> tensor<64x1xi32>
    %b_rows = arith.addi %ks_col, %k0_col : tensor<64x1xi32>
    %k_col = blk.splat %k : i32 -> tensor<64x1xi32>
    %b_row_ok = arith.cmpi slt, %b_rows, %k_col : tensor<64x1xi32>
    %b_row_ok_2d = blk.broadcast %b_row_ok [64, 64] : tensor<64x1xi1> -> tensor<64x64xi1>
    %b_col_ok_2d = blk.broadcast %col_ok [64, 64] : tensor<1x64xi1> -> tensor<64x64xi1>
    %b_mask = arith.andi %b_row_ok_2d, %b_col_ok_2d : tensor<64x64xi1>
    %b_stride_col = blk.splat %b_stride : i32 -> tensor<64x1xi32>
    %b_starts = arith.muli %b_rows, %b_stride_col : tensor<64x1xi32>
    %b_starts_2d = blk.broadcast %b_starts [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
    %b_cols_2d = blk.broadcast %cols_row [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
    %b_offsets = arith.addi %b_starts_2d, %b_cols_2d : tensor<64x64xi32>
    %b_tile = blk.load %b[%b_offsets] mask %b_mask other %zero : !blk.ptr<bf16>, tensor<64x64xi32> -> tensor<64x64xbf16>
    %next = blk.dot %a_tile, %b_tile, %acc_in : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    scf.yield %next : tensor<128x64xf32>
  }
  %c_stride_col = blk.splat %c_stride : i32 -> tensor<128x1xi32>
  %c_row_starts = arith.muli %rows_col, %c_stride_col : tensor<128x1xi32>
  %c_starts = blk.broadcast %c_row_starts [128, 64] : tensor<128x1xi32> -> tensor<128x64xi32>
  %c_cols = blk.broadcast %cols_row [128, 64] : tensor<1x64xi32> -> tensor<128x64xi32>
  %c_offsets = arith.addi %c_starts, %c_cols : tensor<128x64xi32>
  %c_row_ok = blk.broadcast %row_ok [128, 64] : tensor<128x1xi1> -> tensor<128x64xi1>
  %c_col_ok = blk.broadcast %col_ok [128, 64] : tensor<1x64xi1> -> tensor<128x64xi1>
  %c_mask = arith.andi %c_row_ok, %c_col_ok : tensor<128x64xi1>
  blk.store %c[%c_offsets], %acc mask %c_mask : !blk.ptr<f32>, tensor<128x64xi32>, tensor<128x64xf32>
  return
}
