// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s

// A row masked by its length and by a causal mask, `cols < n` and
// `!(cols > last)` (softmax_scaled_masked.mlir): the negated comparison is
// `cols <= last`, which, as `cols < n`, holds on a prefix of the row. A
// run is one 16-byte load where both hold at its last element; where
// neither fails at its first (a run across `n` or `last`) it goes element
// by element; else (a causal row's masked tail, the padding) it is the
// fill value at once. The store, masked by the length alone, keeps the
// code of a plain bound mask.
#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// CHECK-LABEL: gpu.func @causal_row
// CHECK:       %[[FIRST:.*]] = arith.addi %{{.*}}, %c0_i32 overflow<nsw, nuw> : i32
// CHECK:       %[[LAST:.*]] = arith.addi %[[FIRST]], %c7_i32 overflow<nsw> : i32
// CHECK:       %[[IN_ROW:.*]] = arith.cmpi slt, %[[LAST]], %arg2 : i32
// CHECK:       %[[UNMASKED:.*]] = arith.cmpi sle, %[[LAST]], %arg3 : i32
// CHECK:       %[[WHOLE:.*]] = arith.andi %[[IN_ROW]], %[[UNMASKED]] : i1
// CHECK:       scf.if %[[WHOLE]] -> (vector<8xbf16>) {
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK:       } else {
// CHECK:         %[[START:.*]] = arith.addi %[[FIRST]], %c0_i32{{.*}} overflow<nsw> : i32
// CHECK:         %[[STARTS_IN_ROW:.*]] = arith.cmpi slt, %[[START]], %arg2 : i32
// CHECK:         %[[STARTS_UNMASKED:.*]] = arith.cmpi sle, %[[START]], %arg3 : i32
// CHECK:         %[[PARTLY:.*]] = arith.andi %[[STARTS_IN_ROW]], %[[STARTS_UNMASKED]] : i1
// CHECK:         scf.if %[[PARTLY]] -> (vector<8xbf16>) {
// CHECK-COUNT-8:   llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK:         } else {
// CHECK:           vector.broadcast %{{.*}} : bf16 to vector<8xbf16>
// CHECK:       %[[STORE_LAST:.*]] = arith.addi %[[FIRST]], %c7_i32{{.*}} overflow<nsw> : i32
// CHECK:       %[[STORE_WHOLE:.*]] = arith.cmpi slt, %[[STORE_LAST]], %arg2 : i32
// CHECK-NEXT:  scf.if %[[STORE_WHOLE]] {
// CHECK:         llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
// CHECK:       gpu.return
func.func @causal_row(%p: !blk.ptr<bf16>, %q: !blk.ptr<bf16>, %n: i32, %last: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #row>
  %nb = blk.splat %n : i32 -> tensor<1024xi32, #row>
  %lasts = blk.splat %last : i32 -> tensor<1024xi32, #row>
  %in_bounds = arith.cmpi slt, %cols, %nb : tensor<1024xi32, #row>
  %beyond = arith.cmpi sgt, %cols, %lasts : tensor<1024xi32, #row>
  %trues = arith.constant dense<true> : tensor<1024xi1, #row>
  %kept = arith.xori %beyond, %trues : tensor<1024xi1, #row>
  %keep = arith.andi %in_bounds, %kept : tensor<1024xi1, #row>
  %ninf = arith.constant 0xFF80 : bf16
  %x = blk.load %p[%cols] mask %keep other %ninf {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row> -> tensor<1024xbf16, #row>
  blk.store %q[%cols], %x mask %in_bounds {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row>, tensor<1024xbf16, #row>
  return
}

// -----

// A further term that is no comparison of the row's offsets with a
// uniform scalar (here a load's values) leaves the load's mask a block of
// bits: each run checks its eight.
#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// CHECK-LABEL: gpu.func @other_term
// CHECK:       %[[BITS:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<8xi1>
// CHECK-COUNT-8: vector.extract %[[BITS]]
// CHECK:       gpu.return
func.func @other_term(%p: !blk.ptr<bf16>, %q: !blk.ptr<i32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #row>
  %nb = blk.splat %n : i32 -> tensor<1024xi32, #row>
  %in_bounds = arith.cmpi slt, %cols, %nb : tensor<1024xi32, #row>
  %labels = blk.load %q[%cols] mask %in_bounds {blk.vector = 4 : i64} : !blk.ptr<i32>, tensor<1024xi32, #row> -> tensor<1024xi32, #row>
  %hit = arith.cmpi eq, %labels, %cols : tensor<1024xi32, #row>
  %keep = arith.andi %in_bounds, %hit : tensor<1024xi1, #row>
  %zero = arith.constant 0.0 : bf16
  %x = blk.load %p[%cols] mask %keep other %zero {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row> -> tensor<1024xbf16, #row>
  blk.store %p[%cols], %x mask %in_bounds {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row>, tensor<1024xbf16, #row>
  return
}
