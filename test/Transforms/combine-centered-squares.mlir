// RUN: softmax-opt %s --blk-combine-centered-squares --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-combine-centered-squares=peeled-min-elements=8 --split-input-file | FileCheck %s --check-prefix=RULE8
// RUN: softmax-opt %s --blk-combine-centered-squares=peeled-min-elements=9 --split-input-file | FileCheck %s --check-prefix=RULE9

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// layer_norm's mean and variance on 8 warps: the sum and the squares about
// sum / n become one blk.sum_centered_squares at the sum; the centered row
// stays for the normalization.
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[X:.*]] = blk.load
// CHECK-NEXT: %[[SUM:.*]], %[[SQUARES:.*]] = blk.sum_centered_squares %[[X]] mask %[[MASK:.*]] divisor %[[N:.*]] axis 0 : tensor<1024xf32, #{{.*}}>, tensor<1024xi1, #{{.*}}>
// CHECK-NEXT: %[[MEAN:.*]] = arith.divf %[[SUM]], %[[N]]
// CHECK: %[[CENTERED:.*]] = arith.select %[[MASK]]
// CHECK: arith.divf %[[SQUARES]], %[[N]]
// CHECK: arith.mulf %[[CENTERED]]
// CHECK-NOT: blk.reduce
// With peeled-min-elements, a row blk-peel-alignment did not version stays.
// RULE8-LABEL: func.func @layer_norm
// RULE8-NOT: blk.sum_centered_squares
func.func @layer_norm(%p: !blk.ptr<f32>, %q: !blk.ptr<f32>, %n_cols: i32) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #l>
  %nb = blk.splat %n_cols : i32 -> tensor<1024xi32, #l>
  %mask = arith.cmpi slt, %cols, %nb : tensor<1024xi32, #l>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero : f32 -> tensor<1024xf32, #l>
  %n = arith.sitofp %n_cols : i32 to f32
  %x = blk.load %p[%cols] mask %mask other %zero : !blk.ptr<f32>, tensor<1024xi32, #l> -> tensor<1024xf32, #l>
  %s = blk.reduce sum %x axis 0 : tensor<1024xf32, #l> -> f32
  %mean = arith.divf %s, %n : f32
  %mb = blk.splat %mean : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %c = arith.select %mask, %d, %zeros : tensor<1024xi1, #l>, tensor<1024xf32, #l>
  %c2 = arith.mulf %c, %c : tensor<1024xf32, #l>
  %q2 = blk.reduce sum %c2 axis 0 : tensor<1024xf32, #l> -> f32
  %var = arith.divf %q2, %n : f32
  %vb = blk.splat %var : f32 -> tensor<1024xf32, #l>
  %y = arith.mulf %c, %vb : tensor<1024xf32, #l>
  blk.store %q[%cols], %y mask %mask : !blk.ptr<f32>, tensor<1024xi32, #l>, tensor<1024xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [4], ctas = [8]>

// A 16-bit row on a cluster, its load versioned by blk-peel-alignment (an
// scf.if of the shifted load and its fallback) and widened: 0 where masked
// from either branch.
// CHECK-LABEL: func.func @peeled
// CHECK: %[[W:.*]] = arith.extf
// CHECK-NEXT: blk.sum_centered_squares %[[W]] mask
// CHECK-NOT: blk.reduce
// With peeled-min-elements, it combines where a thread holds at least that
// many elements of the row (8 here).
// RULE8-LABEL: func.func @peeled
// RULE8: blk.sum_centered_squares
// RULE9-LABEL: func.func @peeled
// RULE9-NOT: blk.sum_centered_squares
// RULE9: return
func.func @peeled(%p: !blk.ptr<bf16>, %aligned: i1, %n_cols: i32) -> (f32, f32) {
  %cols = blk.arange 0 to 8192 : tensor<8192xi32, #l>
  %nb = blk.splat %n_cols : i32 -> tensor<8192xi32, #l>
  %mask = arith.cmpi slt, %cols, %nb : tensor<8192xi32, #l>
  %zero = arith.constant 0.0 : bf16
  %zeros = arith.constant dense<0.0> : tensor<8192xf32, #l>
  %n = arith.sitofp %n_cols : i32 to f32
  %xs = scf.if %aligned -> (tensor<8192xbf16, #l>) {
    %a = blk.load %p[%cols] mask %mask other %zero : !blk.ptr<bf16>, tensor<8192xi32, #l> -> tensor<8192xbf16, #l>
    scf.yield %a : tensor<8192xbf16, #l>
  } else {
    %b = blk.load %p[%cols] mask %mask other %zero {blk.fallback} : !blk.ptr<bf16>, tensor<8192xi32, #l> -> tensor<8192xbf16, #l>
    scf.yield %b : tensor<8192xbf16, #l>
  }
  %x = arith.extf %xs : tensor<8192xbf16, #l> to tensor<8192xf32, #l>
  %s = blk.reduce sum %x axis 0 : tensor<8192xf32, #l> -> f32
  %mean = arith.divf %s, %n : f32
  %mb = blk.splat %mean : f32 -> tensor<8192xf32, #l>
  %d = arith.subf %x, %mb : tensor<8192xf32, #l>
  %c = arith.select %mask, %d, %zeros : tensor<8192xi1, #l>, tensor<8192xf32, #l>
  %c2 = arith.mulf %c, %c : tensor<8192xf32, #l>
  %q2 = blk.reduce sum %c2 axis 0 : tensor<8192xf32, #l> -> f32
  return %mean, %q2 : f32, f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// Without a select every lane counts: no mask.
// CHECK-LABEL: func.func @unmasked
// CHECK: blk.sum_centered_squares %{{.*}} divisor %{{.*}} axis 0 : tensor<1024xf32, #{{.*}}>
// CHECK-NOT: blk.reduce
func.func @unmasked(%x: tensor<1024xf32, #l>, %n: f32) -> (f32, f32) {
  %s = blk.reduce sum %x axis 0 : tensor<1024xf32, #l> -> f32
  %mean = arith.divf %s, %n : f32
  %mb = blk.splat %mean : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %d2 = arith.mulf %d, %d : tensor<1024xf32, #l>
  %q2 = blk.reduce sum %d2 axis 0 : tensor<1024xf32, #l> -> f32
  return %s, %q2 : f32, f32
}

// -----

#l = #blk.blocked<elems = [32], lanes = [32], warps = [1]>

// One warp reduces with shuffles alone: no barrier to save, left alone.
// CHECK-LABEL: func.func @one_warp
// CHECK-NOT: blk.sum_centered_squares
// CHECK-COUNT-2: blk.reduce sum
func.func @one_warp(%x: tensor<1024xf32, #l>, %n: f32) -> f32 {
  %s = blk.reduce sum %x axis 0 : tensor<1024xf32, #l> -> f32
  %mean = arith.divf %s, %n : f32
  %mb = blk.splat %mean : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %d2 = arith.mulf %d, %d : tensor<1024xf32, #l>
  %q2 = blk.reduce sum %d2 axis 0 : tensor<1024xf32, #l> -> f32
  return %q2 : f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// Masked lanes the load fills with 1.0: the sum counts them and the
// squares do not, which one exchange of the lanes counted cannot give.
// CHECK-LABEL: func.func @not_zero_where_masked
// CHECK-NOT: blk.sum_centered_squares
// CHECK-COUNT-2: blk.reduce sum
func.func @not_zero_where_masked(%p: !blk.ptr<f32>, %mask: tensor<1024xi1, #l>, %n: f32) -> f32 {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #l>
  %one = arith.constant 1.0 : f32
  %zeros = arith.constant dense<0.0> : tensor<1024xf32, #l>
  %x = blk.load %p[%cols] mask %mask other %one : !blk.ptr<f32>, tensor<1024xi32, #l> -> tensor<1024xf32, #l>
  %s = blk.reduce sum %x axis 0 : tensor<1024xf32, #l> -> f32
  %mean = arith.divf %s, %n : f32
  %mb = blk.splat %mean : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %c = arith.select %mask, %d, %zeros : tensor<1024xi1, #l>, tensor<1024xf32, #l>
  %c2 = arith.mulf %c, %c : tensor<1024xf32, #l>
  %q2 = blk.reduce sum %c2 axis 0 : tensor<1024xf32, #l> -> f32
  return %q2 : f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// In a loop (a persistent program's rows): left alone, as
// blk-combine-reductions leaves its pairs.
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT: blk.sum_centered_squares
func.func @in_loop(%x: tensor<1024xf32, #l>, %n: f32, %trips: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %trips step %c1 {
    %s = blk.reduce sum %x axis 0 : tensor<1024xf32, #l> -> f32
    %mean = arith.divf %s, %n : f32
    %mb = blk.splat %mean : f32 -> tensor<1024xf32, #l>
    %d = arith.subf %x, %mb : tensor<1024xf32, #l>
    %d2 = arith.mulf %d, %d : tensor<1024xf32, #l>
    %q2 = blk.reduce sum %d2 axis 0 : tensor<1024xf32, #l> -> f32
  }
  return
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// The second row's mean divides by the first row's squares: the first
// match's rewrite replaces that divisor, and the second is found again
// with it (each match is taken from the IR as it is after the last).
// CHECK-LABEL: func.func @divisor_from_match
// CHECK: %{{.*}}, %[[Q:.*]] = blk.sum_centered_squares %{{.*}} divisor %{{.*}} axis 0
// CHECK: blk.sum_centered_squares %{{.*}} divisor %[[Q]] axis 0
// CHECK-NOT: blk.reduce
func.func @divisor_from_match(%x: tensor<1024xf32, #l>, %y: tensor<1024xf32, #l>, %n: f32) -> (f32, f32) {
  %s = blk.reduce sum %x axis 0 : tensor<1024xf32, #l> -> f32
  %mean = arith.divf %s, %n : f32
  %mb = blk.splat %mean : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %d2 = arith.mulf %d, %d : tensor<1024xf32, #l>
  %q = blk.reduce sum %d2 axis 0 : tensor<1024xf32, #l> -> f32
  %t = blk.reduce sum %y axis 0 : tensor<1024xf32, #l> -> f32
  %m2 = arith.divf %t, %q : f32
  %m2b = blk.splat %m2 : f32 -> tensor<1024xf32, #l>
  %e = arith.subf %y, %m2b : tensor<1024xf32, #l>
  %e2 = arith.mulf %e, %e : tensor<1024xf32, #l>
  %r = blk.reduce sum %e2 axis 0 : tensor<1024xf32, #l> -> f32
  return %q, %r : f32, f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// One i1 for all the lanes selects the centered row, not a mask: left
// alone (the op's mask is a block).
// CHECK-LABEL: func.func @scalar_condition
// CHECK-NOT: blk.sum_centered_squares
func.func @scalar_condition(%x: tensor<1024xf32, #l>, %flag: i1, %n: f32) -> f32 {
  %zeros = arith.constant dense<0.0> : tensor<1024xf32, #l>
  %y = arith.select %flag, %x, %zeros : tensor<1024xf32, #l>
  %s = blk.reduce sum %y axis 0 : tensor<1024xf32, #l> -> f32
  %mean = arith.divf %s, %n : f32
  %mb = blk.splat %mean : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %y, %mb : tensor<1024xf32, #l>
  %c = arith.select %flag, %d, %zeros : tensor<1024xf32, #l>
  %c2 = arith.mulf %c, %c : tensor<1024xf32, #l>
  %q = blk.reduce sum %c2 axis 0 : tensor<1024xf32, #l> -> f32
  return %q : f32
}
