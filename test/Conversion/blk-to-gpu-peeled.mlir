// RUN: softmax-opt %s --convert-blk-to-gpu | FileCheck %s

// The accesses of a row shifted by blk-peel-alignment: masked by
// 0 <= cols - shift < n. A run inside the row is one aligned 16-byte load
// (its first and last element checked); a run partly inside goes element
// by element; a run past the row is the fill value, at once. The fallback
// store (blk.fallback, on cols - shift) goes element by element. Offsets
// and mask bounds of both are computed from an opaque copy of their first
// (llvm.inline_asm), so LLVM does not keep the arange's per-element values
// live from the kernel's start.
#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// CHECK-LABEL: gpu.func @shifted_row
// CHECK:       %[[FIRST:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r"
// CHECK:       %[[OFFSET:.*]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r"
// CHECK:       %[[LAST:.*]] = arith.addi %[[FIRST]], %c7_i32
// CHECK:       %[[BELOW:.*]] = arith.cmpi slt, %[[LAST]], %arg2
// CHECK:       %[[START:.*]] = arith.addi %[[FIRST]], %c0_i32
// CHECK:       %[[ABOVE:.*]] = arith.cmpi sge, %[[START]],
// CHECK:       %[[WHOLE:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK:       scf.if %[[WHOLE]] -> (vector<8xbf16>) {
// CHECK:         %[[AT:.*]] = arith.addi %[[OFFSET]], %c0_i32
// CHECK:         %[[ADDRESS:.*]] = llvm.getelementptr inbounds %arg0[%[[AT]]]
// CHECK:         llvm.load %[[ADDRESS]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK:       } else {
// CHECK:         %[[PARTLY:.*]] = arith.andi
// CHECK:         scf.if %[[PARTLY]] -> (vector<8xbf16>) {
// CHECK-COUNT-8:   llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK:         } else {
// CHECK:           vector.broadcast %{{.*}} : bf16 to vector<8xbf16>
// CHECK:       llvm.inline_asm "mov.b32 $0, $1;", "=r,r"
// CHECK:       llvm.inline_asm "mov.b32 $0, $1;", "=r,r"
// CHECK-COUNT-8: llvm.store %{{.*}} : bf16, !llvm.ptr<1>
// CHECK-NOT:   llvm.store
// CHECK:       gpu.return
func.func @shifted_row(%p: !blk.ptr<bf16>, %q: !blk.ptr<bf16>, %n: i32, %shift: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
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
  %zero = arith.constant 0.0 : bf16
  %x = blk.load %p[%cols] mask %in other %zero {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row> -> tensor<1024xbf16, #row>
  blk.store %q[%shifted], %x mask %in {blk.vector = 1 : i64, blk.fallback} : !blk.ptr<bf16>, tensor<1024xi32, #row>, tensor<1024xbf16, #row>
  return
}
