// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s

// A causal row shifted by blk-peel-alignment: its load is masked by
// 0 <= cols' < n and `!(cols' > last)`. The negated comparison is
// `cols' <= last`, which, as `cols' < n`, holds on a prefix of the row: a
// run is one 16-byte load where the bounds hold at its ends and `<=`
// holds at its last element; where none of them fails at its better end
// (a run across 0, n or `last`) it goes element by element; else (a
// causal row's masked tail, the padding) it is the fill value at once.
#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// CHECK-LABEL: gpu.func @shifted_causal_row
// CHECK:       %[[FIRST:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r"
// CHECK:       %[[LAST:.*]] = arith.addi %[[FIRST]], %c7_i32 overflow<nsw> : i32
// CHECK:       %[[BELOW:.*]] = arith.cmpi slt, %[[LAST]], %arg2 : i32
// CHECK:       %[[START:.*]] = arith.addi %[[FIRST]], %c0_i32{{.*}} overflow<nsw> : i32
// CHECK:       %[[ABOVE:.*]] = arith.cmpi sge, %[[START]],
// CHECK:       %[[IN_ROW:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK:       %[[UNMASKED:.*]] = arith.cmpi sle, %[[LAST]], %arg3 : i32
// CHECK:       %[[WHOLE:.*]] = arith.andi %[[IN_ROW]], %[[UNMASKED]] : i1
// CHECK:       scf.if %[[WHOLE]] -> (vector<8xbf16>) {
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK:       } else {
// CHECK:         %[[P_START:.*]] = arith.addi %[[FIRST]], %c0_i32{{.*}} overflow<nsw> : i32
// CHECK:         %[[P_BELOW:.*]] = arith.cmpi slt, %[[P_START]], %arg2 : i32
// CHECK:         %[[P_LAST:.*]] = arith.addi %[[FIRST]], %c7_i32{{.*}} overflow<nsw> : i32
// CHECK:         %[[P_ABOVE:.*]] = arith.cmpi sge, %[[P_LAST]],
// CHECK:         %[[P_IN_ROW:.*]] = arith.andi %[[P_ABOVE]], %[[P_BELOW]] : i1
// CHECK:         %[[P_UNMASKED:.*]] = arith.cmpi sle, %[[P_START]], %arg3 : i32
// CHECK:         %[[PARTLY:.*]] = arith.andi %[[P_IN_ROW]], %[[P_UNMASKED]] : i1
// CHECK:         scf.if %[[PARTLY]] -> (vector<8xbf16>) {
// CHECK-COUNT-8:   llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK:         } else {
// CHECK:           vector.broadcast %{{.*}} : bf16 to vector<8xbf16>
// CHECK:       gpu.return
func.func @shifted_causal_row(%p: !blk.ptr<bf16>, %q: !blk.ptr<bf16>, %n: i32, %last: i32, %shift: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #row>
  %c0 = arith.constant 0 : i32
  %neg = arith.subi %c0, %shift : i32
  %negb = blk.splat %neg : i32 -> tensor<1024xi32, #row>
  %shifted = arith.addi %cols, %negb : tensor<1024xi32, #row>
  %zeros = arith.constant dense<0> : tensor<1024xi32, #row>
  %nb = blk.splat %n : i32 -> tensor<1024xi32, #row>
  %above = arith.cmpi sge, %shifted, %zeros : tensor<1024xi32, #row>
  %below = arith.cmpi slt, %shifted, %nb : tensor<1024xi32, #row>
  %in = arith.andi %above, %below : tensor<1024xi1, #row>
  %lasts = blk.splat %last : i32 -> tensor<1024xi32, #row>
  %beyond = arith.cmpi sgt, %shifted, %lasts : tensor<1024xi32, #row>
  %trues = arith.constant dense<true> : tensor<1024xi1, #row>
  %kept = arith.xori %beyond, %trues : tensor<1024xi1, #row>
  %keep = arith.andi %in, %kept : tensor<1024xi1, #row>
  %ninf = arith.constant 0xFF80 : bf16
  %x = blk.load %p[%cols] mask %keep other %ninf {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row> -> tensor<1024xbf16, #row>
  blk.store %q[%cols], %x mask %in {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row>, tensor<1024xbf16, #row>
  return
}

// -----

// The same mask on a row that is not shifted (no lower bound): its runs
// AND their eight bits, which the select after a causal load needs anyway
// (decided at the ends, the kernel took more registers: MemoryOps.cpp's
// matchBoundMask says why).
#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// CHECK-LABEL: gpu.func @aligned_causal_row
// CHECK:       %[[BITS:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<8xi1>
// CHECK-COUNT-8: vector.extract %[[BITS]]
// CHECK:       gpu.return
func.func @aligned_causal_row(%p: !blk.ptr<bf16>, %q: !blk.ptr<bf16>, %n: i32, %last: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
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
