// RUN: softmax-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @all_true_mask_dropped
func.func @all_true_mask_dropped(%p: !blk.ptr<f32>) {
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %c256 = arith.constant 256 : i32
  %n = blk.splat %c256 : i32 -> tensor<256xi32>
  %in = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %ninf = arith.constant 0xFF800000 : f32
  // CHECK: %[[V:.*]] = blk.load %{{.*}}[%{{.*}}] : !blk.ptr<f32>
  %v = blk.load %p[%cols] mask %in other %ninf : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  // CHECK: blk.store %{{.*}}[%{{.*}}], %[[V]] : !blk.ptr<f32>
  blk.store %p[%cols], %v mask %in : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// CHECK-LABEL: func.func @partial_mask_kept
func.func @partial_mask_kept(%p: !blk.ptr<f32>, %n_cols: i32) {
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in = arith.cmpi slt, %cols, %n : tensor<256xi32>
  // CHECK: blk.load {{.*}} mask
  %v = blk.load %p[%cols] mask %in : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  // CHECK: blk.store {{.*}} mask
  blk.store %p[%cols], %v mask %in : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// CHECK-LABEL: func.func @all_false
func.func @all_false(%p: !blk.ptr<f32>, %v: tensor<256xf32>) -> tensor<256xf32> {
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %false = arith.constant false
  %none = blk.splat %false : i1 -> tensor<256xi1>
  %zero = arith.constant 0.0 : f32
  // CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32>
  // CHECK-NOT: blk.load
  %x = blk.load %p[%cols] mask %none other %zero : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  // CHECK-NOT: blk.store
  blk.store %p[%cols], %v mask %none : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  // CHECK: return %[[Z]]
  return %x : tensor<256xf32>
}

// -----

// CHECK-LABEL: func.func @range_below_bound
func.func @range_below_bound(%p: !blk.ptr<f32>, %v: tensor<128xf32>) {
  %cols = blk.arange 128 to 256 : tensor<128xi32>
  %c100 = arith.constant 100 : i32
  %n = blk.splat %c100 : i32 -> tensor<128xi32>
  %in = arith.cmpi slt, %cols, %n : tensor<128xi32>
  // CHECK-NOT: blk.store
  blk.store %p[%cols], %v mask %in : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
  return
}

// -----

// CHECK-LABEL: func.func @addptr_zero
// CHECK-SAME: (%[[P:.*]]: !blk.ptr<f32>)
func.func @addptr_zero(%p: !blk.ptr<f32>) -> !blk.ptr<f32> {
  %c0 = arith.constant 0 : i32
  %q = blk.addptr %p, %c0 : !blk.ptr<f32>, i32
  // CHECK: return %[[P]]
  return %q : !blk.ptr<f32>
}

// -----

// CHECK-LABEL: func.func @splat_of_constant
func.func @splat_of_constant() -> tensor<4x8xf32> {
  %one = arith.constant 1.0 : f32
  %s = blk.splat %one : f32 -> tensor<4xf32>
  %e = blk.expand_dims %s axis 1 : tensor<4xf32> -> tensor<4x1xf32>
  %b = blk.broadcast %e : tensor<4x1xf32> -> tensor<4x8xf32>
  // CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<4x8xf32>
  // CHECK: return %[[C]]
  return %b : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_splat
func.func @reshape_of_splat(%x: f32) -> tensor<4x8xf32> {
  // CHECK: %[[S:.*]] = blk.splat %{{.*}} : f32 -> tensor<4x8xf32>
  // CHECK-NOT: blk.expand_dims
  // CHECK-NOT: blk.broadcast
  %s = blk.splat %x : f32 -> tensor<4xf32>
  %e = blk.expand_dims %s axis 1 : tensor<4xf32> -> tensor<4x1xf32>
  %b = blk.broadcast %e : tensor<4x1xf32> -> tensor<4x8xf32>
  // CHECK: return %[[S]]
  return %b : tensor<4x8xf32>
}

// -----

// A dot of inputs widened from bf16 takes the bf16 blocks: the products are
// the same in f32, and 16-bit inputs are what tensor cores multiply.
// CHECK-LABEL: func.func @dot_of_widened
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xbf16>, %[[B:.*]]: tensor<16x8xbf16>, %[[C:.*]]: tensor<16x8xf32>)
func.func @dot_of_widened(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // CHECK: %[[D:.*]] = blk.dot %[[A]], %[[B]], %[[C]] : tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>
  %wa = arith.extf %a : tensor<16x16xbf16> to tensor<16x16xf32>
  %wb = arith.extf %b : tensor<16x8xbf16> to tensor<16x8xf32>
  %d = blk.dot %wa, %wb, %c : tensor<16x16xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  // CHECK: return %[[D]]
  return %d : tensor<16x8xf32>
}

// -----

// A tf32 dot of inputs widened from f16 takes the f16 blocks and multiplies
// them as they are: an f16 value is a tf32 value already.
// CHECK-LABEL: func.func @tf32_dot_of_widened
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x8xf16>, %[[C:.*]]: tensor<16x8xf32>)
func.func @tf32_dot_of_widened(%a: tensor<16x16xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // CHECK: %[[D:.*]] = blk.dot %[[A]], %[[B]], %[[C]] : tensor<16x16xf16>, tensor<16x8xf16>, tensor<16x8xf32>
  %wa = arith.extf %a : tensor<16x16xf16> to tensor<16x16xf32>
  %wb = arith.extf %b : tensor<16x8xf16> to tensor<16x8xf32>
  %d = blk.dot %wa, %wb, %c precision tf32 : tensor<16x16xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  // CHECK: return %[[D]]
  return %d : tensor<16x8xf32>
}

// -----

// Inputs widened from two types, or only one widened, stay f32.
// CHECK-LABEL: func.func @dot_of_mixed
func.func @dot_of_mixed(%a: tensor<16x16xbf16>, %b: tensor<16x8xf16>, %f: tensor<16x8xf32>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  // CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  // CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  %wa = arith.extf %a : tensor<16x16xbf16> to tensor<16x16xf32>
  %wb = arith.extf %b : tensor<16x8xf16> to tensor<16x8xf32>
  %d = blk.dot %wa, %wb, %c : tensor<16x16xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  %e = blk.dot %wa, %f, %c : tensor<16x16xf32>, tensor<16x8xf32>, tensor<16x8xf32>
  return %d, %e : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// A conversion to the layout a block has is none, and one back to where a
// conversion started gives its source; without layouts a conversion stays
// (it separates two layout classes for blk-distribute).
// CHECK-LABEL: func.func @convert_layout_folds
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xf32, #{{.*}}>, %[[Y:.*]]: tensor<64x128xf32>)
func.func @convert_layout_folds(%x: tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>, %y: tensor<64x128xf32>)
    -> (tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>, tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>, tensor<64x128xf32>) {
  %same = blk.convert_layout %x : tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>> -> tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>
  %rows = blk.convert_layout %x : tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>> -> tensor<64x128xf32, #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>>
  %back = blk.convert_layout %rows : tensor<64x128xf32, #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>> -> tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>
  // CHECK: %[[KEPT:.*]] = blk.convert_layout %[[Y]] : tensor<64x128xf32> -> tensor<64x128xf32>
  %kept = blk.convert_layout %y : tensor<64x128xf32> -> tensor<64x128xf32>
  // CHECK: return %[[X]], %[[X]], %[[KEPT]]
  return %same, %back, %kept : tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>, tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>, tensor<64x128xf32>
}
