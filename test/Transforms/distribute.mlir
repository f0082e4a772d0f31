// RUN: softmax-opt %s --blk-distribute --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-set-launch-shape=num-warps=8 --blk-distribute --split-input-file | FileCheck %s --check-prefix=WARPS8
// RUN: softmax-opt %s --blk-set-launch-shape="num-warps=8 num-ctas=4" --blk-distribute --split-input-file | FileCheck %s --check-prefix=CTAS4
// RUN: not softmax-opt %s --blk-set-launch-shape=num-ctas=3 --blk-distribute 2>&1 | FileCheck %s --check-prefix=CTAS3

// A row of f32 read through aligned, contiguous offsets: 4 elements (16
// bytes) per thread, 32 lanes, the kernel's 4 warps.
// CHECK: #[[L1:.*]] = #blk.blocked<elems = [4], lanes = [32], warps = [4]>
// CHECK-LABEL: func.func @row
// WARPS8: #blk.blocked<elems = [4], lanes = [32], warps = [8]>
// WARPS8-LABEL: func.func @row
// WARPS8-SAME: #blk.kernel<num_warps = 8>
// With a cluster, the CTAs split the row after the warps.
// CTAS4: #blk.blocked<elems = [1], lanes = [32], warps = [8], ctas = [4]>
// CTAS4-LABEL: func.func @row
// CTAS4-SAME: #blk.kernel<num_warps = 8, num_ctas = 4>
// CTAS3: error: num_ctas must be a power of two from 1 to 16, but got 3
func.func @row(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64},
               %stride: i32 {blk.divisibility = 16 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<f32>, i32
  // CHECK: blk.arange 0 to 1024 : tensor<1024xi32, #[[L1]]>
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  // CHECK: blk.load {{.*}} {blk.vector = 4 : i64} {{.*}} -> tensor<1024xf32, #[[L1]]>
  %x = blk.load %rowp[%cols] : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  // CHECK: math.exp %{{.*}} : tensor<1024xf32, #[[L1]]>
  %e = math.exp %x : tensor<1024xf32>
  // CHECK: blk.reduce sum %{{.*}} axis 0 : tensor<1024xf32, #[[L1]]> -> f32
  %s = blk.reduce sum %e axis 0 : tensor<1024xf32> -> f32
  // CHECK: blk.store {{.*}} {blk.vector = 4 : i64}
  blk.store %rowp[%cols], %e : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
  return
}

// -----

// Nothing says the row stride keeps rows 16-byte aligned, but each row is
// consecutive memory: on a row held by a cluster, 16-byte runs all the
// same, aligned at run time.
// CHECK: #blk.blocked<elems = [4], lanes = [32], warps = [4], ctas = [2]>
// CHECK-LABEL: func.func @unaligned_stride
func.func @unaligned_stride(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 2>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %nb = blk.splat %n : i32 -> tensor<1024xi32>
  %in = arith.cmpi slt, %cols, %nb : tensor<1024xi32>
  // CHECK: blk.load {{.*}} {blk.realign, blk.vector = 4 : i64}
  %x = blk.load %rowp[%cols] mask %in : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  // CHECK: blk.store {{.*}} {blk.realign, blk.vector = 4 : i64}
  blk.store %rowp[%cols], %x : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
  return
}

// -----

// On one CTA a row, the same row goes element by element, one element per
// thread so that the scalar accesses of a warp stay contiguous: that was as
// fast as realigning there (see realignsRuns in Distribute.cpp).
// CHECK: #blk.blocked<elems = [1], lanes = [32], warps = [4]>
// CHECK-LABEL: func.func @unaligned_stride_one_cta
func.func @unaligned_stride_one_cta(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %nb = blk.splat %n : i32 -> tensor<1024xi32>
  %in = arith.cmpi slt, %cols, %nb : tensor<1024xi32>
  // CHECK: blk.load {{.*}} {blk.vector = 1 : i64}
  %x = blk.load %rowp[%cols] mask %in : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  // CHECK: blk.store {{.*}} {blk.vector = 1 : i64}
  blk.store %rowp[%cols], %x mask %in : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
  return
}

// -----

// Realigning needs the enabled elements of a run of memory to be a prefix
// of it (`cols < n`); under any other mask an unaligned row keeps one
// element per thread, so that the scalar accesses of a warp stay contiguous.
// CHECK: #blk.blocked<elems = [1], lanes = [32], warps = [4], ctas = [2]>
// CHECK-LABEL: func.func @unaligned_stride_other_mask
func.func @unaligned_stride_other_mask(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 2>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %nb = blk.splat %n : i32 -> tensor<1024xi32>
  %in = arith.cmpi sge, %cols, %nb : tensor<1024xi32>
  // CHECK: blk.load {{.*}} {blk.vector = 1 : i64}
  %x = blk.load %rowp[%cols] mask %in : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  return
}

// -----

// bf16: 8 elements are 16 bytes.
// CHECK: #blk.blocked<elems = [8], lanes = [32], warps = [2]>
// CHECK-LABEL: func.func @bf16_row
func.func @bf16_row(%p: !blk.ptr<bf16> {blk.divisibility = 16 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 2>} {
  %cols = blk.arange 0 to 2048 : tensor<2048xi32>
  // CHECK: blk.load {{.*}} {blk.vector = 8 : i64}
  %x = blk.load %p[%cols] : !blk.ptr<bf16>, tensor<2048xi32> -> tensor<2048xbf16>
  blk.store %p[%cols], %x : !blk.ptr<bf16>, tensor<2048xi32>, tensor<2048xbf16>
  return
}

// -----

// Short rows: 64 columns take 16 lanes of 4 elements, so a warp covers two
// rows and the 4 warps go down the rows. Per-row values are slices of
// dimension 1, column indices slices of dimension 0.
// CHECK-DAG: #[[L2:.*]] = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1]>
// CTAS4: #blk.blocked<elems = [1, 1], lanes = [{{.*}}], warps = [{{.*}}], ctas = [1, 4]>
// CHECK-DAG: #[[ROWS:.*]] = #blk.slice<dim = 1, parent = #[[L2]]>
// CHECK-DAG: #[[COLS:.*]] = #blk.slice<dim = 0, parent = #[[L2]]>
// CHECK-LABEL: func.func @rows
func.func @rows(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // CHECK: blk.arange 0 to 8 : tensor<8xi32, #[[ROWS]]>
  %r = blk.arange 0 to 8 : tensor<8xi32>
  // CHECK: blk.arange 0 to 64 : tensor<64xi32, #[[COLS]]>
  %c = blk.arange 0 to 64 : tensor<64xi32>
  %r2 = blk.expand_dims %r axis 1 : tensor<8xi32> -> tensor<8x1xi32>
  %c64 = arith.constant 64 : i32
  %stride = blk.splat %c64 : i32 -> tensor<8x1xi32>
  %starts = arith.muli %r2, %stride : tensor<8x1xi32>
  %starts2 = blk.broadcast %starts : tensor<8x1xi32> -> tensor<8x64xi32>
  %c2 = blk.expand_dims %c axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cols = blk.broadcast %c2 : tensor<1x64xi32> -> tensor<8x64xi32>
  %offsets = arith.addi %starts2, %cols : tensor<8x64xi32>
  // CHECK: blk.load {{.*}} {blk.vector = 4 : i64} {{.*}} -> tensor<8x64xf32, #[[L2]]>
  %x = blk.load %p[%offsets] : !blk.ptr<f32>, tensor<8x64xi32> -> tensor<8x64xf32>
  // CHECK: blk.reduce max %{{.*}} axis 1 : tensor<8x64xf32, #[[L2]]> -> tensor<8xf32, #[[ROWS]]>
  %m = blk.reduce max %x axis 1 : tensor<8x64xf32> -> tensor<8xf32>
  %m2 = blk.expand_dims %m axis 1 : tensor<8xf32> -> tensor<8x1xf32>
  %mb = blk.broadcast %m2 : tensor<8x1xf32> -> tensor<8x64xf32>
  %y = arith.subf %x, %mb : tensor<8x64xf32>
  blk.store %p[%offsets], %y : !blk.ptr<f32>, tensor<8x64xi32>, tensor<8x64xf32>
  return
}

// -----

// Functions without blk.kernel are left alone.
// CHECK-LABEL: func.func @not_a_kernel
// CHECK: tensor<16xi32>
func.func @not_a_kernel() {
  %c = blk.arange 0 to 16 : tensor<16xi32>
  return
}

// -----

// Row starts are (first_row + r) * stride: with a stride not known to be
// divisible, consecutive rows start at any alignment, so no vectors (one
// CTA: runs are not realigned, see @unaligned_stride_one_cta).
// CHECK-LABEL: func.func @rows_unknown_stride
func.func @rows_unknown_stride(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %pid = blk.program_id x
  %c64 = arith.constant 64 : i32
  %first = arith.muli %pid, %c64 : i32
  %r = blk.arange 0 to 8 : tensor<8xi32>
  %firsts = blk.splat %first : i32 -> tensor<8xi32>
  %rows = arith.addi %r, %firsts : tensor<8xi32>
  %r2 = blk.expand_dims %rows axis 1 : tensor<8xi32> -> tensor<8x1xi32>
  %s = blk.splat %stride : i32 -> tensor<8x1xi32>
  %starts = arith.muli %r2, %s : tensor<8x1xi32>
  %starts2 = blk.broadcast %starts : tensor<8x1xi32> -> tensor<8x64xi32>
  %c = blk.arange 0 to 64 : tensor<64xi32>
  %c2 = blk.expand_dims %c axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cols = blk.broadcast %c2 : tensor<1x64xi32> -> tensor<8x64xi32>
  %offsets = arith.addi %starts2, %cols : tensor<8x64xi32>
  // CHECK: blk.load {{.*}} {blk.vector = 1 : i64}
  %x = blk.load %p[%offsets] : !blk.ptr<f32>, tensor<8x64xi32> -> tensor<8x64xf32>
  blk.store %p[%offsets], %x : !blk.ptr<f32>, tensor<8x64xi32>, tensor<8x64xf32>
  return
}

// -----

// Multiplying the row indices before expanding them: (first_row + r) *
// stride is not divisible by anything when the stride is unknown, so the
// accesses stay scalar (a product keeps no runs of consecutive integers).
// CHECK-LABEL: func.func @rows_multiplied_first
func.func @rows_multiplied_first(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %pid = blk.program_id x
  %c8 = arith.constant 8 : i32
  %first = arith.muli %pid, %c8 : i32
  %r = blk.arange 0 to 8 : tensor<8xi32>
  %firsts = blk.splat %first : i32 -> tensor<8xi32>
  %rows = arith.addi %r, %firsts : tensor<8xi32>
  %s = blk.splat %stride : i32 -> tensor<8xi32>
  %starts = arith.muli %rows, %s : tensor<8xi32>
  %starts2 = blk.expand_dims %starts axis 1 : tensor<8xi32> -> tensor<8x1xi32>
  %startsb = blk.broadcast %starts2 : tensor<8x1xi32> -> tensor<8x64xi32>
  %c = blk.arange 0 to 64 : tensor<64xi32>
  %c2 = blk.expand_dims %c axis 0 : tensor<64xi32> -> tensor<1x64xi32>
  %cols = blk.broadcast %c2 : tensor<1x64xi32> -> tensor<8x64xi32>
  %offsets = arith.addi %startsb, %cols : tensor<8x64xi32>
  // CHECK: blk.load {{.*}} {blk.vector = 1 : i64}
  %x = blk.load %p[%offsets] : !blk.ptr<f32>, tensor<8x64xi32> -> tensor<8x64xf32>
  return
}

// -----

// A select whose condition is a scalar still ties its blocks together.
// CHECK-LABEL: func.func @select_scalar_condition
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32, #[[SLICE:slice[0-9]*]]>
func.func @select_scalar_condition(%flag: i1) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %one = arith.constant 1.0 : f32
  %a = blk.splat %one : f32 -> tensor<8xf32>
  %b = blk.splat %one : f32 -> tensor<8xf32>
  %picked = arith.select %flag, %a, %b : tensor<8xf32>
  %e = blk.expand_dims %picked axis 1 : tensor<8xf32> -> tensor<8x1xf32>
  %w = blk.broadcast %e : tensor<8x1xf32> -> tensor<8x4xf32>
  return
}

// -----

// A shifted row (blk-peel-alignment): the aligned access decides the
// vector width; its fallback (blk.fallback, on unknown alignment) does not,
// and goes element by element in that layout.
// CHECK-LABEL: func.func @peeled_fallback
// CHECK: blk.load {{.*}} {blk.vector = 4 : i64}
// CHECK: blk.load {{.*}} {blk.fallback, blk.vector = 1 : i64}
func.func @peeled_fallback(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %start: i32, %aligned: i1)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %c = arith.constant -4 : i32
  %down = arith.andi %start, %c : i32
  %base = blk.addptr %p, %down : !blk.ptr<f32>, i32
  %row = blk.addptr %p, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %x = scf.if %aligned -> (tensor<1024xf32>) {
    %v = blk.load %base[%cols] : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
    scf.yield %v : tensor<1024xf32>
  } else {
    %v = blk.load %row[%cols] {blk.fallback} : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
    scf.yield %v : tensor<1024xf32>
  }
  return
}

// -----

// One arange as row indices and as column indices: each use gets its own
// copy of it (index arithmetic from scalars is recomputed rather than
// moved between layouts), a slice of each dimension.
// CHECK-LABEL: func.func @arange_both_ways
// CHECK-DAG: %[[ROWS:.*]] = blk.arange 0 to 8 : tensor<8xi32, #[[R:slice[0-9]*]]>
// CHECK-DAG: %[[COLS:.*]] = blk.arange 0 to 8 : tensor<8xi32, #[[C:slice[0-9]*]]>
// CHECK-DAG: blk.expand_dims %[[ROWS]] axis 1 : tensor<8xi32, #[[R]]>
// CHECK-DAG: blk.expand_dims %[[COLS]] axis 0 : tensor<8xi32, #[[C]]>
func.func @arange_both_ways(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %i = blk.arange 0 to 8 : tensor<8xi32>
  %r = blk.expand_dims %i axis 1 : tensor<8xi32> -> tensor<8x1xi32>
  %c = blk.expand_dims %i axis 0 : tensor<8xi32> -> tensor<1x8xi32>
  %rb = blk.broadcast %r [8, 8] : tensor<8x1xi32> -> tensor<8x8xi32>
  %cb = blk.broadcast %c [8, 8] : tensor<1x8xi32> -> tensor<8x8xi32>
  %offsets = arith.addi %rb, %cb : tensor<8x8xi32>
  %x = blk.load %p[%offsets] : !blk.ptr<f32>, tensor<8x8xi32> -> tensor<8x8xf32>
  blk.store %p[%offsets], %x : !blk.ptr<f32>, tensor<8x8xi32>, tensor<8x8xf32>
  return
}

// -----

// A block carried by an scf.while is in one class with what the loop
// passes to and from its regions (a review found invalid IR here).
// CHECK-LABEL: func.func @while_loop
// CHECK: scf.while ({{.*}}) : (i32, tensor<64x128xf32, #[[L:blocked[0-9]*]]>) -> (i32, tensor<64x128xf32, #[[L]]>)
// CHECK: scf.condition({{.*}}) {{.*}} : i32, tensor<64x128xf32, #[[L]]>
// CHECK: math.exp {{.*}} : tensor<64x128xf32, #[[L]]>
func.func @while_loop(%p: !blk.ptr<f32>, %n: i32, %s: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 128] : tensor<64x1xi32> -> tensor<64x128xi32>
  %sb = blk.splat %s : i32 -> tensor<64x128xi32>
  %ro = arith.muli %rb, %sb : tensor<64x128xi32>
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %c = blk.expand_dims %cols axis 0 : tensor<128xi32> -> tensor<1x128xi32>
  %cb = blk.broadcast %c [64, 128] : tensor<1x128xi32> -> tensor<64x128xi32>
  %off = arith.addi %ro, %cb : tensor<64x128xi32>
  %x = blk.load %p[%off] : !blk.ptr<f32>, tensor<64x128xi32> -> tensor<64x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res:2 = scf.while (%i = %c0, %acc = %x) : (i32, tensor<64x128xf32>) -> (i32, tensor<64x128xf32>) {
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i, %acc : i32, tensor<64x128xf32>
  } do {
  ^bb0(%j: i32, %a: tensor<64x128xf32>):
    %e = math.exp %a : tensor<64x128xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1, %e : i32, tensor<64x128xf32>
  }
  blk.store %p[%off], %res#1 : !blk.ptr<f32>, tensor<64x128xi32>, tensor<64x128xf32>
  return
}

// -----

// An arange both loaded along (a 1-D chain) and expanded to rows: the copy
// for the chain would be a class without a 2-D block to be a slice of, so
// it stays with the original (a slice of dimension 1).
// CHECK-LABEL: func.func @oned_and_expanded
// CHECK: blk.load {{.*}} : !blk.ptr<f32>, tensor<64xi32, #[[S:slice[0-9]*]]> -> tensor<64xf32, #[[S]]>
func.func @oned_and_expanded(%p: !blk.ptr<f32>, %q: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %v = blk.load %q[%rows] : !blk.ptr<f32>, tensor<64xi32> -> tensor<64xf32>
  blk.store %q[%rows], %v : !blk.ptr<f32>, tensor<64xi32>, tensor<64xf32>
  %r = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rb = blk.broadcast %r [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %x = blk.load %p[%rb] : !blk.ptr<f32>, tensor<64x64xi32> -> tensor<64x64xf32>
  blk.store %p[%rb], %x : !blk.ptr<f32>, tensor<64x64xi32>, tensor<64x64xf32>
  return
}

// -----

// x + x at every step doubles the tree each use would copy: past 64 ops
// nothing is copied (the count saturates rather than overflow at 2^63).
// CHECK-LABEL: func.func @deep_shared_arithmetic
// CHECK-COUNT-70: arith.addi
// CHECK-NOT: arith.addi
func.func @deep_shared_arithmetic(%p: !blk.ptr<i32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %x0 = blk.arange 0 to 128 : tensor<128xi32>
  %x1 = arith.addi %x0, %x0 : tensor<128xi32>
  %x2 = arith.addi %x1, %x1 : tensor<128xi32>
  %x3 = arith.addi %x2, %x2 : tensor<128xi32>
  %x4 = arith.addi %x3, %x3 : tensor<128xi32>
  %x5 = arith.addi %x4, %x4 : tensor<128xi32>
  %x6 = arith.addi %x5, %x5 : tensor<128xi32>
  %x7 = arith.addi %x6, %x6 : tensor<128xi32>
  %x8 = arith.addi %x7, %x7 : tensor<128xi32>
  %x9 = arith.addi %x8, %x8 : tensor<128xi32>
  %x10 = arith.addi %x9, %x9 : tensor<128xi32>
  %x11 = arith.addi %x10, %x10 : tensor<128xi32>
  %x12 = arith.addi %x11, %x11 : tensor<128xi32>
  %x13 = arith.addi %x12, %x12 : tensor<128xi32>
  %x14 = arith.addi %x13, %x13 : tensor<128xi32>
  %x15 = arith.addi %x14, %x14 : tensor<128xi32>
  %x16 = arith.addi %x15, %x15 : tensor<128xi32>
  %x17 = arith.addi %x16, %x16 : tensor<128xi32>
  %x18 = arith.addi %x17, %x17 : tensor<128xi32>
  %x19 = arith.addi %x18, %x18 : tensor<128xi32>
  %x20 = arith.addi %x19, %x19 : tensor<128xi32>
  %x21 = arith.addi %x20, %x20 : tensor<128xi32>
  %x22 = arith.addi %x21, %x21 : tensor<128xi32>
  %x23 = arith.addi %x22, %x22 : tensor<128xi32>
  %x24 = arith.addi %x23, %x23 : tensor<128xi32>
  %x25 = arith.addi %x24, %x24 : tensor<128xi32>
  %x26 = arith.addi %x25, %x25 : tensor<128xi32>
  %x27 = arith.addi %x26, %x26 : tensor<128xi32>
  %x28 = arith.addi %x27, %x27 : tensor<128xi32>
  %x29 = arith.addi %x28, %x28 : tensor<128xi32>
  %x30 = arith.addi %x29, %x29 : tensor<128xi32>
  %x31 = arith.addi %x30, %x30 : tensor<128xi32>
  %x32 = arith.addi %x31, %x31 : tensor<128xi32>
  %x33 = arith.addi %x32, %x32 : tensor<128xi32>
  %x34 = arith.addi %x33, %x33 : tensor<128xi32>
  %x35 = arith.addi %x34, %x34 : tensor<128xi32>
  %x36 = arith.addi %x35, %x35 : tensor<128xi32>
  %x37 = arith.addi %x36, %x36 : tensor<128xi32>
  %x38 = arith.addi %x37, %x37 : tensor<128xi32>
  %x39 = arith.addi %x38, %x38 : tensor<128xi32>
  %x40 = arith.addi %x39, %x39 : tensor<128xi32>
  %x41 = arith.addi %x40, %x40 : tensor<128xi32>
  %x42 = arith.addi %x41, %x41 : tensor<128xi32>
  %x43 = arith.addi %x42, %x42 : tensor<128xi32>
  %x44 = arith.addi %x43, %x43 : tensor<128xi32>
  %x45 = arith.addi %x44, %x44 : tensor<128xi32>
  %x46 = arith.addi %x45, %x45 : tensor<128xi32>
  %x47 = arith.addi %x46, %x46 : tensor<128xi32>
  %x48 = arith.addi %x47, %x47 : tensor<128xi32>
  %x49 = arith.addi %x48, %x48 : tensor<128xi32>
  %x50 = arith.addi %x49, %x49 : tensor<128xi32>
  %x51 = arith.addi %x50, %x50 : tensor<128xi32>
  %x52 = arith.addi %x51, %x51 : tensor<128xi32>
  %x53 = arith.addi %x52, %x52 : tensor<128xi32>
  %x54 = arith.addi %x53, %x53 : tensor<128xi32>
  %x55 = arith.addi %x54, %x54 : tensor<128xi32>
  %x56 = arith.addi %x55, %x55 : tensor<128xi32>
  %x57 = arith.addi %x56, %x56 : tensor<128xi32>
  %x58 = arith.addi %x57, %x57 : tensor<128xi32>
  %x59 = arith.addi %x58, %x58 : tensor<128xi32>
  %x60 = arith.addi %x59, %x59 : tensor<128xi32>
  %x61 = arith.addi %x60, %x60 : tensor<128xi32>
  %x62 = arith.addi %x61, %x61 : tensor<128xi32>
  %x63 = arith.addi %x62, %x62 : tensor<128xi32>
  %x64 = arith.addi %x63, %x63 : tensor<128xi32>
  %x65 = arith.addi %x64, %x64 : tensor<128xi32>
  %x66 = arith.addi %x65, %x65 : tensor<128xi32>
  %x67 = arith.addi %x66, %x66 : tensor<128xi32>
  %x68 = arith.addi %x67, %x67 : tensor<128xi32>
  %x69 = arith.addi %x68, %x68 : tensor<128xi32>
  %x70 = arith.addi %x69, %x69 : tensor<128xi32>
  blk.store %p[%x0], %x70 : !blk.ptr<i32>, tensor<128xi32>, tensor<128xi32>
  return
}
