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
