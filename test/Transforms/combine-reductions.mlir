// RUN: softmax-opt %s --blk-combine-reductions --split-input-file | FileCheck %s

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// softmax on 8 warps: the max, exp(x - max) and its sum become one
// blk.max_exp_sum, whose exps give e / sum.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[X:.*]] = blk.load
// CHECK-NEXT: %[[MAX:.*]], %[[SUM:.*]], %[[E:.*]] = blk.max_exp_sum %[[X]] axis 0 : tensor<1024xf32, #{{.*}}> -> f32, f32, tensor<1024xf32, #{{.*}}>
// CHECK-NEXT: %[[SB:.*]] = blk.splat %[[SUM]]
// CHECK-NEXT: arith.divf %[[E]], %[[SB]]
// CHECK-NOT: blk.reduce
// CHECK-NOT: math.exp
func.func @softmax(%p: !blk.ptr<f32>, %q: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #l>
  %x = blk.load %p[%cols] : !blk.ptr<f32>, tensor<1024xi32, #l> -> tensor<1024xf32, #l>
  %m = blk.reduce max %x axis 0 : tensor<1024xf32, #l> -> f32
  %mb = blk.splat %m : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %e = math.exp %d : tensor<1024xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<1024xf32, #l> -> f32
  %sb = blk.splat %s : f32 -> tensor<1024xf32, #l>
  %y = arith.divf %e, %sb : tensor<1024xf32, #l>
  blk.store %q[%cols], %y : !blk.ptr<f32>, tensor<1024xi32, #l>, tensor<1024xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// log_softmax needs exp(x - max) only for the sum; x - max stays.
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[MAX:.*]], %[[SUM:.*]], %{{.*}} = blk.max_exp_sum
// CHECK-NEXT: %[[MB:.*]] = blk.splat %[[MAX]]
// CHECK-NEXT: %[[D:.*]] = arith.subf %{{.*}}, %[[MB]]
// CHECK-NOT: math.exp
// CHECK: %[[LS:.*]] = math.log %[[SUM]]
// CHECK: %[[LB:.*]] = blk.splat %[[LS]]
// CHECK: arith.subf %[[D]], %[[LB]]
func.func @log_softmax(%p: !blk.ptr<f32>, %q: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #l>
  %x = blk.load %p[%cols] : !blk.ptr<f32>, tensor<1024xi32, #l> -> tensor<1024xf32, #l>
  %m = blk.reduce max %x axis 0 : tensor<1024xf32, #l> -> f32
  %mb = blk.splat %m : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %e = math.exp %d : tensor<1024xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<1024xf32, #l> -> f32
  %ls = math.log %s : f32
  %lb = blk.splat %ls : f32 -> tensor<1024xf32, #l>
  %y = arith.subf %d, %lb : tensor<1024xf32, #l>
  blk.store %q[%cols], %y : !blk.ptr<f32>, tensor<1024xi32, #l>, tensor<1024xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [4, 4], lanes = [1, 32], warps = [2, 4]>
#r = #blk.slice<dim = 1, parent = #l>

// Rows of a 2-D block, each over 4 warps: the max comes back as a column
// (expand_dims, broadcast).
// CHECK-LABEL: func.func @rows
// CHECK: blk.max_exp_sum %{{.*}} axis 1 : tensor<8x512xf32, #{{.*}}> -> tensor<8xf32, #{{.*}}>, tensor<8xf32, #{{.*}}>, tensor<8x512xf32, #{{.*}}>
// CHECK-NOT: blk.reduce
func.func @rows(%x: tensor<8x512xf32, #l>) -> (tensor<8xf32, #r>, tensor<8xf32, #r>) {
  %m = blk.reduce max %x axis 1 : tensor<8x512xf32, #l> -> tensor<8xf32, #r>
  %mc = blk.expand_dims %m axis 1 : tensor<8xf32, #r> -> tensor<8x1xf32, #l>
  %mb = blk.broadcast %mc : tensor<8x1xf32, #l> -> tensor<8x512xf32, #l>
  %d = arith.subf %x, %mb : tensor<8x512xf32, #l>
  %e = math.exp %d : tensor<8x512xf32, #l>
  %s = blk.reduce sum %e axis 1 : tensor<8x512xf32, #l> -> tensor<8xf32, #r>
  return %m, %s : tensor<8xf32, #r>, tensor<8xf32, #r>
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [1]>

// One warp reduces with shuffles alone: no barrier to save, left alone.
// CHECK-LABEL: func.func @one_warp
// CHECK-NOT: blk.max_exp_sum
// CHECK: blk.reduce max
// CHECK: blk.reduce sum
func.func @one_warp(%x: tensor<128xf32, #l>) -> (f32, f32) {
  %m = blk.reduce max %x axis 0 : tensor<128xf32, #l> -> f32
  %mb = blk.splat %m : f32 -> tensor<128xf32, #l>
  %d = arith.subf %x, %mb : tensor<128xf32, #l>
  %e = math.exp %d : tensor<128xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<128xf32, #l> -> f32
  return %m, %s : f32, f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// Not the pattern: the sum of exp against another value than the max of
// the same block (softmax_split_resident's shift), and a max of another
// block.
// CHECK-LABEL: func.func @other_shifts
// CHECK-NOT: blk.max_exp_sum
// CHECK-COUNT-2: blk.reduce max
// CHECK-COUNT-2: blk.reduce sum
func.func @other_shifts(%x: tensor<1024xf32, #l>, %y: tensor<1024xf32, #l>, %c: f32) -> (f32, f32, f32, f32) {
  %m = blk.reduce max %x axis 0 : tensor<1024xf32, #l> -> f32
  %my = blk.reduce max %y axis 0 : tensor<1024xf32, #l> -> f32
  %shift = arith.maximumf %m, %c : f32
  %sb = blk.splat %shift : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %sb : tensor<1024xf32, #l>
  %e = math.exp %d : tensor<1024xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<1024xf32, #l> -> f32
  %myb = blk.splat %my : f32 -> tensor<1024xf32, #l>
  %d2 = arith.subf %x, %myb : tensor<1024xf32, #l>
  %e2 = math.exp %d2 : tensor<1024xf32, #l>
  %s2 = blk.reduce sum %e2 axis 0 : tensor<1024xf32, #l> -> f32
  return %m, %my, %s, %s2 : f32, f32, f32, f32
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// A row kept in shared memory (blk-stage-held-loads ran before): the exp
// for the sum comes from a reload, not from the block the max reduced, and
// the two reductions stay apart.
// CHECK-LABEL: func.func @kept_row
// CHECK-NOT: blk.max_exp_sum
func.func @kept_row(%p: !blk.ptr<bf16>) -> (f32, f32) {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = blk.load %p[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %buf = blk.local_alloc %x : tensor<32768xbf16, #l> -> !blk.shared<32768xbf16>
  %w = arith.extf %x : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %m = blk.reduce max %w axis 0 : tensor<32768xf32, #l> -> f32
  %x1 = blk.local_load %buf : !blk.shared<32768xbf16> -> tensor<32768xbf16, #l>
  %w1 = arith.extf %x1 : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %mb = blk.splat %m : f32 -> tensor<32768xf32, #l>
  %d = arith.subf %w1, %mb : tensor<32768xf32, #l>
  %e = math.exp %d : tensor<32768xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<32768xf32, #l> -> f32
  return %m, %s : f32, f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// In a loop (the persistent program) the exps would live beside the next
// iteration's row: left alone.
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT: blk.max_exp_sum
func.func @in_loop(%x: tensor<1024xf32, #l>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %m = blk.reduce max %x axis 0 : tensor<1024xf32, #l> -> f32
    %mb = blk.splat %m : f32 -> tensor<1024xf32, #l>
    %d = arith.subf %x, %mb : tensor<1024xf32, #l>
    %e = math.exp %d : tensor<1024xf32, #l>
    %s = blk.reduce sum %e axis 0 : tensor<1024xf32, #l> -> f32
    %next = arith.addf %acc, %s : f32
    scf.yield %next : f32
  }
  return %total : f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// Two sums of the same exps: the first combines, the second stays a sum of
// the pair's exps.
// CHECK-LABEL: func.func @two_sums
// CHECK: %[[M:.*]], %[[S:.*]], %[[E:.*]] = blk.max_exp_sum
// CHECK-NEXT: %[[S2:.*]] = blk.reduce sum %[[E]] axis 0
// CHECK-NEXT: return %[[M]], %[[S]], %[[S2]]
func.func @two_sums(%x: tensor<1024xf32, #l>) -> (f32, f32, f32) {
  %m = blk.reduce max %x axis 0 : tensor<1024xf32, #l> -> f32
  %mb = blk.splat %m : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %e = math.exp %d : tensor<1024xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<1024xf32, #l> -> f32
  %s2 = blk.reduce sum %e axis 0 : tensor<1024xf32, #l> -> f32
  return %m, %s, %s2 : f32, f32, f32
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8]>

// One max, two chains of exp(x - max) and their sums: the first chain
// combines; the second keeps its own exp and sum, against the pair's max.
// CHECK-LABEL: func.func @two_chains
// CHECK: %[[M:.*]], %[[S:.*]], %{{.*}} = blk.max_exp_sum
// CHECK: %[[MB:.*]] = blk.splat %[[M]]
// CHECK: %[[D:.*]] = arith.subf %{{.*}}, %[[MB]]
// CHECK: %[[E:.*]] = math.exp %[[D]]
// CHECK: blk.reduce sum %[[E]]
func.func @two_chains(%x: tensor<1024xf32, #l>) -> (f32, f32, f32) {
  %m = blk.reduce max %x axis 0 : tensor<1024xf32, #l> -> f32
  %mb = blk.splat %m : f32 -> tensor<1024xf32, #l>
  %d = arith.subf %x, %mb : tensor<1024xf32, #l>
  %e = math.exp %d : tensor<1024xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<1024xf32, #l> -> f32
  %mb2 = blk.splat %m : f32 -> tensor<1024xf32, #l>
  %d2 = arith.subf %x, %mb2 : tensor<1024xf32, #l>
  %e2 = math.exp %d2 : tensor<1024xf32, #l>
  %s2 = blk.reduce sum %e2 axis 0 : tensor<1024xf32, #l> -> f32
  return %m, %s, %s2 : f32, f32, f32
}

// -----

#l = #blk.blocked<elems = [4, 4], lanes = [1, 32], warps = [2, 4]>
#r = #blk.slice<dim = 1, parent = #l>
#c = #blk.slice<dim = 0, parent = #l>

// The max along the rows, the sum down the columns: not the pattern.
// CHECK-LABEL: func.func @other_axis
// CHECK-NOT: blk.max_exp_sum
func.func @other_axis(%x: tensor<8x512xf32, #l>) -> (tensor<8xf32, #r>, tensor<512xf32, #c>) {
  %m = blk.reduce max %x axis 1 : tensor<8x512xf32, #l> -> tensor<8xf32, #r>
  %mc = blk.expand_dims %m axis 1 : tensor<8xf32, #r> -> tensor<8x1xf32, #l>
  %mb = blk.broadcast %mc : tensor<8x1xf32, #l> -> tensor<8x512xf32, #l>
  %d = arith.subf %x, %mb : tensor<8x512xf32, #l>
  %e = math.exp %d : tensor<8x512xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<8x512xf32, #l> -> tensor<512xf32, #c>
  return %m, %s : tensor<8xf32, #r>, tensor<512xf32, #c>
}
