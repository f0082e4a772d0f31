// Not MLIR: blk-peel-alignment's rewrite checked for what it computes, on
// the CPU (the pass runs only on the way to PTX; test/GPU/peel-alignment.mlir
// checks the GPU's kernels, test/Transforms/peel-alignment.mlir its IR).
// An example whose row strides drop their divisibility is specialized and
// peeled by softmax-opt, and the peeled program, a valid block program,
// runs on the CPU against the float64 reference. Rows of 50257 f32 start at
// every place on the 16-byte grid, so each row takes the aligned access or
// its fallback by its own start: both versions of every access run.
// RUN: %drop-stride-divisibility %examples/softmax_fused.mlir > %t.fused.mlir
// RUN: softmax-opt %t.fused.mlir --blk-specialize=BLOCK=53248 --blk-peel-alignment -o %t.fused.peeled.mlir
// RUN: FileCheck %s --check-prefix=PEELED < %t.fused.peeled.mlir
// RUN: softmax-run %t.fused.peeled.mlir --target cpu --check --reference softmax --rows 64 --cols 50257 --special
// An output on another part of the grid (its own stride) takes its
// fallback on the rows where the input's shift is not its own.
// RUN: softmax-run %t.fused.peeled.mlir --target cpu --check --reference softmax --rows 33 --cols 50257 --in-stride 50261 --out-stride 50263 --special
// A row one element short of BLOCK: only rows at most one element past
// the grid are shifted; the others take every fallback.
// RUN: softmax-opt %t.fused.mlir --blk-specialize=BLOCK=4096 --blk-peel-alignment -o %t.short.peeled.mlir
// RUN: softmax-run %t.short.peeled.mlir --target cpu --check --reference softmax --rows 40 --cols 4095 --in-stride 4097 --out-stride 4099 --special
// A norm's weight and bias, read at the same columns of every row, are
// aligned only where the shift is 0.
// RUN: %drop-stride-divisibility %examples/layer_norm.mlir > %t.norm.mlir
// RUN: softmax-opt %t.norm.mlir --blk-specialize=BLOCK=53248 --blk-peel-alignment -o %t.norm.peeled.mlir
// RUN: FileCheck %s --check-prefix=PEELED < %t.norm.peeled.mlir
// RUN: softmax-run %t.norm.peeled.mlir --target cpu --check --reference layer_norm --param eps=1e-5 --rows 64 --cols 50257 --special
// A row start computed after the mask (cross_entropy's) moves up.
// RUN: %drop-stride-divisibility %examples/cross_entropy.mlir > %t.loss.mlir
// RUN: softmax-opt %t.loss.mlir --blk-specialize=BLOCK=53248 --blk-peel-alignment -o %t.loss.peeled.mlir
// RUN: FileCheck %s --check-prefix=PEELED < %t.loss.peeled.mlir
// RUN: softmax-run %t.loss.peeled.mlir --target cpu --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 50257 --special
// A causal mask (softmax_scaled_masked.mlir's `cols > last`) moves with
// the shifted columns: the peeled program writes what the unpeeled one
// does, checked against the float64 reference, on rows at every place on
// the grid (the offsets put the masked tail on all of them).
// RUN: %drop-stride-divisibility %examples/softmax_scaled_masked.mlir > %t.causal.mlir
// RUN: softmax-opt %t.causal.mlir --blk-specialize="BLOCK=53248 CAUSAL=1" --blk-peel-alignment -o %t.causal.peeled.mlir
// RUN: FileCheck %s --check-prefix=PEELED < %t.causal.peeled.mlir
// RUN: softmax-run %t.causal.mlir --target cpu --check --reference scaled_softmax --const BLOCK=53248,CAUSAL=1 --param scale=-0.5,offset=5 --rows 33 --cols 50257 --in-stride 50261 --out-stride 50263 --special --output y=%t.causal.npy
// RUN: softmax-run %t.causal.peeled.mlir --target cpu --param scale=-0.5,offset=5 --rows 33 --cols 50257 --in-stride 50261 --out-stride 50263 --special --expect y=%t.causal.npy
// RUN: softmax-run %t.causal.mlir --target cpu --check --reference scaled_softmax --const BLOCK=53248,CAUSAL=1 --param scale=0.125,offset=49000 --rows 40 --cols 50257 --special --output y=%t.causal-tail.npy
// RUN: softmax-run %t.causal.peeled.mlir --target cpu --param scale=0.125,offset=49000 --rows 40 --cols 50257 --special --expect y=%t.causal-tail.npy
// PEELED: scf.if
// PEELED: blk.fallback
