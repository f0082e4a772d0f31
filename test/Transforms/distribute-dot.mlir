// RUN: softmax-opt %s --blk-distribute --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-attach-target=chip=sm_75 --blk-distribute --split-input-file | FileCheck %s --check-prefix=SM75

// A kernel whose dot fits mma.sync (bf16, M, N, K multiples of 16, 8, 16,
// sm_80+) gets the layout that holds its accumulator as mma fragments:
// elems [1, 2] x lanes [8, 4] is a fragment's 8 x 8 half, and the warps
// split 64 x 128 as 1 x 4 (24 fragment loads a thread a K step; 2 x 2 ties
// it, 4 x 1 needs 36). Every 2-D block of the kernel takes it.
// CHECK: #[[MMA:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [1, 4]>
// CHECK-LABEL: func.func @mma_accumulator
// CHECK: blk.dot {{.*}} : tensor<64x32xbf16, #[[MMA]]>, tensor<32x128xbf16, #[[MMA]]>, tensor<64x128xf32, #[[MMA]]>
// On sm_75 (no mma.sync for bf16) the kernel keeps its usual layout.
// SM75-LABEL: func.func @mma_accumulator
// SM75-NOT: lanes = [8, 4]
// SM75: blk.dot
func.func @mma_accumulator(%p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<64x32xbf16>
  %b = blk.splat %x : bf16 -> tensor<32x128xbf16>
  %c = blk.splat %y : f32 -> tensor<64x128xf32>
  %d = blk.dot %a, %b, %c : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32>
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
  return
}

// -----

// f32 inputs do not fit mma.sync: the usual layout.
// CHECK-LABEL: func.func @f32_dot
// CHECK-NOT: lanes = [8, 4]
// CHECK: blk.dot
func.func @f32_dot(%p: !blk.ptr<f32>, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %y : f32 -> tensor<64x32xf32>
  %b = blk.splat %y : f32 -> tensor<32x128xf32>
  %c = blk.splat %y : f32 -> tensor<64x128xf32>
  %d = blk.dot %a, %b, %c : tensor<64x32xf32>, tensor<32x128xf32>, tensor<64x128xf32>
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
  return
}

// -----

// 16 x 32 over 8 warps: no split of whole fragments (1 x 8 needs N = 64,
// 2 x 4 needs M = 32), so the usual layout; the dot then passes its
// accumulator through shared memory.
// CHECK-LABEL: func.func @too_small_for_the_warps
// CHECK-NOT: lanes = [8, 4]
// CHECK: blk.dot
func.func @too_small_for_the_warps(%p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %a = blk.splat %x : bf16 -> tensor<16x16xbf16>
  %b = blk.splat %x : bf16 -> tensor<16x32xbf16>
  %c = blk.splat %y : f32 -> tensor<16x32xf32>
  %d = blk.dot %a, %b, %c : tensor<16x16xbf16>, tensor<16x32xbf16>, tensor<16x32xf32>
  %rows = blk.arange 0 to 16 : tensor<16xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<16xi32> -> tensor<16x1xi32>
  %rb = blk.broadcast %r [16, 32] : tensor<16x1xi32> -> tensor<16x32xi32>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<16x32xi32>, tensor<16x32xf32>
  return
}
