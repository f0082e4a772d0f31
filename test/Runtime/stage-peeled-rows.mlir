// Not MLIR: blk-stage-held-loads' `peeled-rows` (a row blk-peel-alignment
// versioned, kept in shared memory from its scf.if and recomputed after
// each reduction) checked for what it computes, on the CPU (the pass runs
// only on the way to PTX; the CPU lowering keeps a blk.local_alloc's block
// as it is). An example whose row strides drop their divisibility is
// specialized to bf16, peeled, distributed on 8-warp CTAs (where rows are
// kept) and staged; its layouts are then taken off again (the CPU path
// takes programs before blk-distribute; a layout only says which thread
// holds which element) and it runs against the float64 reference. Rows of
// 50257 start at every place on the 16-byte grid: both versions run.
// RUN: %drop-stride-divisibility %examples/softmax_fused.mlir > %t.fused.mlir
// RUN: softmax-opt %t.fused.mlir --blk-storage-type=type=bf16 --blk-specialize=bind=BLOCK=53248 --blk-set-launch-shape="num-warps=8 num-ctas=2" --blk-attach-target --blk-peel-alignment --canonicalize --blk-distribute --blk-stage-held-loads=peeled-rows=true -o %t.fused.staged.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused.staged.mlir
// RUN: %drop-layouts %t.fused.staged.mlir > %t.fused.cpu.mlir
// RUN: softmax-run %t.fused.cpu.mlir --target cpu --check --reference softmax --rows 64 --cols 50257 --special
// RUN: softmax-run %t.fused.cpu.mlir --target cpu --check --reference softmax --rows 33 --cols 50257 --in-stride 50261 --out-stride 50263 --special
// The max and the sum each read the row back:
// FUSED: %[[ROW:.*]] = scf.if
// FUSED: blk.fallback
// FUSED: %[[BUF:.*]] = blk.local_alloc %[[ROW]]
// FUSED: blk.reduce max
// FUSED-NEXT: blk.local_load %[[BUF]]
// FUSED: blk.reduce sum
// FUSED-NEXT: blk.local_load %[[BUF]]
// One reduction, and a weight read after it (one row, though versioned):
// RUN: %drop-stride-divisibility %examples/rms_norm.mlir > %t.rms.mlir
// RUN: softmax-opt %t.rms.mlir --blk-storage-type=type=bf16 --blk-specialize=bind=BLOCK=57344 --blk-set-launch-shape="num-warps=8 num-ctas=4" --blk-attach-target --blk-peel-alignment --canonicalize --blk-distribute --blk-stage-held-loads=peeled-rows=true -o %t.rms.staged.mlir
// RUN: FileCheck %s --check-prefix=RMS < %t.rms.staged.mlir
// RUN: %drop-layouts %t.rms.staged.mlir > %t.rms.cpu.mlir
// RUN: softmax-run %t.rms.cpu.mlir --target cpu --check --reference rms_norm --param eps=1e-5 --rows 64 --cols 50257 --special
// RMS: %[[ROW:.*]] = scf.if
// RMS: %[[BUF:.*]] = blk.local_alloc %[[ROW]]
// RMS: blk.reduce sum
// RMS-NEXT: blk.local_load %[[BUF]]
