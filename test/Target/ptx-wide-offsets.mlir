// Widened row offsets change only the row's address arithmetic: the
// accesses stay 16-byte vectors with the same uniform masks. The analysis
// sees the stride's divisibility through arith.extsi and the i64 product.
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-widen-offsets --blk-distribute | FileCheck %s --check-prefix=DIST
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-widen-offsets --blk-to-ptx --emit=ptx | FileCheck %s --check-prefix=FUSED --implicit-check-not=mul.lo.s32
// RUN: softmax-opt %examples/softmax_multirow.mlir --blk-specialize="ROWS=8 BLOCK=128" --blk-widen-offsets --blk-to-ptx --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: softmax-opt %examples/softmax_split.mlir --blk-specialize="BLOCK=8192 SPLITS=8" --blk-widen-offsets --blk-to-ptx --emit=ptx | FileCheck %s --check-prefix=PTX

// DIST: blk.addptr {{.*}} : !blk.ptr<f32>, i64
// DIST: blk.load {{.*}} {blk.vector = 4 : i64}
// DIST: blk.addptr {{.*}} : !blk.ptr<f32>, i64
// DIST: blk.store {{.*}} {blk.vector = 4 : i64}

// The input row's start: the stride loaded sign-extended, times the
// program id, in 64 bits (no 32-bit product: see implicit-check-not).
// FUSED: ld.param.s32 %rd{{[0-9]+}}, [softmax_fused_param_2];
// FUSED: mul.lo.s64
// FUSED-COUNT-2: ld.global.v4.b32
// FUSED: mul.lo.s64
// FUSED-COUNT-2: st.global.v4.b32
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
