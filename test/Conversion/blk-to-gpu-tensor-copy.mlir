// RUN: softmax-opt %s --blk-attach-target=chip=sm_90a --blk-pipeline-loads --blk-distribute --blk-pipeline-dot-operands --convert-blk-to-gpu | FileCheck %s

// TMA's copies of blk-pipeline-dot-operands (Transforms/
// pipeline-dot-operands.mlir, @tensor_map_copies) in convert-blk-to-gpu.
// The launch record lists the kernel's tensor maps, after its declared
// arguments, for the launcher to encode; the gpu.func names them for
// blk-pass-tensor-maps-by-value (Conversion/
// pass-tensor-maps-by-value.mlir). The rings'
// three barriers are a static shared global; thread 0 initializes each
// for one arrival, then a fence for the asynchronous proxy and a barrier.
// A K step's copies: thread 0 announces 24 KiB, A's tile goes as one 4-D
// box (column; group row 0; 64-row block; group 0) or as 8-row boxes
// issued side by side, B as its panel; every copy predicated, no branch.
// In the loop every thread waits for its slot's phase (the loop carries
// it) before the products, which make no barrier; the barrier after them
// comes before the next copies.
// CHECK: blk.launch = [#blk.launch<kernel = "tensor_map_copies", threads = 256, {{.*}}, tensorMaps = [#blk.tensor_map<"a", box = [8, 64]>, #blk.tensor_map<"b", box = [64, 64]>, #blk.tensor_map<"a", box = [128, 64], rotation = [3, 4]>], args = {{.*}}, !blk.tensor_map<8x64xbf16>, !blk.tensor_map<64x64xbf16>, !blk.tensor_map<128x64xbf16, rotation = [3, 4]>>]
// CHECK: llvm.mlir.global internal @blk_barriers_0() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<3 x i64>
// CHECK-LABEL: gpu.func @tensor_map_copies
// CHECK-SAME: %[[AMAP:[^:]*]]: !llvm.ptr, %[[BMAP:[^:]*]]: !llvm.ptr, %[[AWHOLE:[^:]*]]: !llvm.ptr)
// CHECK-SAME: blk.tensor_map_params = array<i32: 9, 10, 11>
// CHECK: %[[BARS:.*]] = llvm.mlir.addressof @blk_barriers_0 : !llvm.ptr<3>
// CHECK-COUNT-3: nvvm.mbarrier.init %{{.*}}, %{{.*}}, predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32, predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[AWHOLE]], %{{.*}}, box[%{{.*}}, %[[ZERO:.*]], %{{.*}}, %[[ZERO]]] predicate = %{{.*}} : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[AMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] predicate = %{{.*}} : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[BMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] predicate = %{{.*}} : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK-NOT: nvvm.fence.proxy
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: gpu.barrier
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-NOT: nvvm.cp.async.shared.global
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
