// RUN: softmax-opt %s --blk-stage-held-loads --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-stage-held-loads=min-registers=0 --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: softmax-opt %s --blk-attach-target=chip=sm_75 --blk-stage-held-loads --split-input-file | FileCheck %s --check-prefix=SM75
// RUN: softmax-opt %s --blk-stage-held-loads=wide-min-runs=12 --split-input-file | FileCheck %s --check-prefix=WIDE
// RUN: softmax-opt %s --blk-attach-target=chip=sm_75 --blk-stage-held-loads=wide-min-runs=12 --split-input-file | FileCheck %s --check-prefix=WIDE-SM75
// RUN: softmax-opt %s --blk-stage-held-loads=peeled-rows=true --split-input-file | FileCheck %s --check-prefix=PEELED
// RUN: not softmax-opt %s --blk-stage-held-loads=wide-min-runs=-1 --split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: blk-stage-held-loads: wide-min-runs must be 0 (never) or more, but got -1

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// A bf16 softmax row of 32768 on 16 warps holds 64 f32 registers a thread
// across each reduction. The row is kept in shared memory right after its
// load; after the max, exp(x - max) is computed from a reload; after the
// sum, again from a reload: the exp before the sum is not held.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[X:.*]] = blk.load
// CHECK-NEXT: %[[BUF:.*]] = blk.local_alloc %[[X]] : tensor<32768xbf16, #{{.*}}> -> !blk.shared<32768xbf16>
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[X]]
// CHECK-NEXT: %[[MAX:.*]] = blk.reduce max %[[W]]
// CHECK-NEXT: %[[X1:.*]] = blk.local_load %[[BUF]] : !blk.shared<32768xbf16> -> tensor<32768xbf16, #{{.*}}>
// CHECK-NEXT: %[[W1:.*]] = arith.extf %[[X1]]
// CHECK-NEXT: %[[MAX1:.*]] = blk.splat %[[MAX]]
// CHECK-NEXT: %[[D1:.*]] = arith.subf %[[W1]], %[[MAX1]]
// CHECK-NEXT: %[[E1:.*]] = math.exp %[[D1]]
// CHECK-NEXT: %[[SUM:.*]] = blk.reduce sum %[[E1]]
// CHECK-NEXT: %[[X2:.*]] = blk.local_load %[[BUF]]
// CHECK: %[[W2:.*]] = arith.extf %[[X2]]
// CHECK-NEXT: %[[MAX2:.*]] = blk.splat %[[MAX]]
// CHECK-NEXT: %[[D2:.*]] = arith.subf %[[W2]], %[[MAX2]]
// CHECK-NEXT: %[[E2:.*]] = math.exp %[[D2]]
// CHECK: %[[Y:.*]] = arith.divf %[[E2]],
// CHECK: %[[YB:.*]] = arith.truncf %[[Y]]
// CHECK: blk.store %{{.*}}[%{{.*}}], %[[YB]]
// CHECK-NOT: blk.local_load
// CHECK: return
// OFF-LABEL: func.func @softmax
// OFF-NOT: blk.local
// OFF: return
// SM75-LABEL: func.func @softmax
// SM75-NOT: blk.local
// SM75: return
func.func @softmax(%in: !blk.ptr<bf16>, %out: !blk.ptr<bf16>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %w = arith.extf %x : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %max = blk.reduce max %w axis 0 : tensor<32768xf32, #l> -> f32
  %max_block = blk.splat %max : f32 -> tensor<32768xf32, #l>
  %d = arith.subf %w, %max_block : tensor<32768xf32, #l>
  %e = math.exp %d : tensor<32768xf32, #l>
  %sum = blk.reduce sum %e axis 0 : tensor<32768xf32, #l> -> f32
  %sum_block = blk.splat %sum : f32 -> tensor<32768xf32, #l>
  %y = arith.divf %e, %sum_block : tensor<32768xf32, #l>
  %y16 = arith.truncf %y : tensor<32768xf32, #l> to tensor<32768xbf16, #l>
  blk.store %out[%cols], %y16 : !blk.ptr<bf16>, tensor<32768xi32, #l>, tensor<32768xbf16, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// 32 registers held (bf16 16384 on 16 warps): below the threshold, the
// row stays in registers.
// CHECK-LABEL: func.func @few_registers
// CHECK-NOT: blk.local
// CHECK: return
func.func @few_registers(%in: !blk.ptr<bf16>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 16384 : tensor<16384xi32, #l>
  %x = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<16384xi32, #l> -> tensor<16384xbf16, #l>
  %w = arith.extf %x : tensor<16384xbf16, #l> to tensor<16384xf32, #l>
  %max = blk.reduce max %w axis 0 : tensor<16384xf32, #l> -> f32
  %max_block = blk.splat %max : f32 -> tensor<16384xf32, #l>
  %d = arith.subf %w, %max_block : tensor<16384xf32, #l>
  blk.store %out[%cols], %d : !blk.ptr<f32>, tensor<16384xi32, #l>, tensor<16384xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [16]>

// A row of 32-bit elements stays in registers (it would cost shared memory
// what it saves).
// CHECK-LABEL: func.func @f32_row
// CHECK-NOT: blk.local
// CHECK: return
func.func @f32_row(%in: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = blk.load %in[%cols] : !blk.ptr<f32>, tensor<32768xi32, #l> -> tensor<32768xf32, #l>
  %max = blk.reduce max %x axis 0 : tensor<32768xf32, #l> -> f32
  %max_block = blk.splat %max : f32 -> tensor<32768xf32, #l>
  %d = arith.subf %x, %max_block : tensor<32768xf32, #l>
  blk.store %out[%cols], %d : !blk.ptr<f32>, tensor<32768xi32, #l>, tensor<32768xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [4], ctas = [8]>

// Kernels on clusters keep their rows in registers.
// CHECK-LABEL: func.func @cluster
// CHECK-NOT: blk.local
// CHECK: return
func.func @cluster(%in: !blk.ptr<bf16>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 8>} {
  %cols = blk.arange 0 to 65536 : tensor<65536xi32, #l>
  %x = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<65536xi32, #l> -> tensor<65536xbf16, #l>
  %w = arith.extf %x : tensor<65536xbf16, #l> to tensor<65536xf32, #l>
  %max = blk.reduce max %w axis 0 : tensor<65536xf32, #l> -> f32
  %max_block = blk.splat %max : f32 -> tensor<65536xf32, #l>
  %d = arith.subf %w, %max_block : tensor<65536xf32, #l>
  blk.store %out[%cols], %d : !blk.ptr<f32>, tensor<65536xi32, #l>, tensor<65536xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [1, 8], lanes = [1, 32], warps = [16, 1]>

// Each row is reduced by one warp's shuffles: no barrier would keep LLVM
// from forwarding the stored row to the reload, so nothing is staged.
// CHECK-LABEL: func.func @warp_rows
// CHECK-NOT: blk.local
// CHECK: return
func.func @warp_rows(%in: !blk.ptr<bf16>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %offsets = arith.constant dense<0> : tensor<16x2048xi32, #l>
  %x = blk.load %in[%offsets] : !blk.ptr<bf16>, tensor<16x2048xi32, #l> -> tensor<16x2048xbf16, #l>
  %w = arith.extf %x : tensor<16x2048xbf16, #l> to tensor<16x2048xf32, #l>
  %max = blk.reduce max %w axis 1 : tensor<16x2048xf32, #l> -> tensor<16xf32, #blk.slice<dim = 1, parent = #l>>
  %max2 = blk.expand_dims %max axis 1 : tensor<16xf32, #blk.slice<dim = 1, parent = #l>> -> tensor<16x1xf32, #l>
  %max_block = blk.broadcast %max2 : tensor<16x1xf32, #l> -> tensor<16x2048xf32, #l>
  %d = arith.subf %w, %max_block : tensor<16x2048xf32, #l>
  blk.store %out[%offsets], %d : !blk.ptr<f32>, tensor<16x2048xi32, #l>, tensor<16x2048xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// A block carried by a loop cannot be recomputed: it stays held; the
// loop's own load is kept and recomputed.
// CHECK-LABEL: func.func @carried
// CHECK: scf.for
// CHECK: %[[X:.*]] = blk.load
// CHECK-NEXT: %[[BUF:.*]] = blk.local_alloc %[[X]]
// CHECK: blk.reduce max
// CHECK-NEXT: blk.local_load %[[BUF]]
// CHECK: scf.yield %[[ACC:.*]] :
func.func @carried(%in: !blk.ptr<bf16>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %zero = arith.constant dense<0.0> : tensor<32768xf32, #l>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %zero) -> (tensor<32768xf32, #l>) : i32 {
    %x = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
    %w = arith.extf %x : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
    %max = blk.reduce max %w axis 0 : tensor<32768xf32, #l> -> f32
    %max_block = blk.splat %max : f32 -> tensor<32768xf32, #l>
    %d = arith.subf %w, %max_block : tensor<32768xf32, #l>
    %next = arith.addf %carried, %d : tensor<32768xf32, #l>
    scf.yield %next : tensor<32768xf32, #l>
  }
  blk.store %out[%cols], %acc : !blk.ptr<f32>, tensor<32768xi32, #l>, tensor<32768xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// A row needed only until the last reduction (a cross-entropy writes one
// value per row) stays in registers, though 64 registers are held across
// the max.
// CHECK-LABEL: func.func @row_ends_at_last_reduction
// CHECK-NOT: blk.local
// CHECK: return
func.func @row_ends_at_last_reduction(%in: !blk.ptr<bf16>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %w = arith.extf %x : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %max = blk.reduce max %w axis 0 : tensor<32768xf32, #l> -> f32
  %max_block = blk.splat %max : f32 -> tensor<32768xf32, #l>
  %d = arith.subf %w, %max_block : tensor<32768xf32, #l>
  %e = math.exp %d : tensor<32768xf32, #l>
  %sum = blk.reduce sum %e axis 0 : tensor<32768xf32, #l> -> f32
  %one = arith.constant dense<0> : tensor<1xi32, #blk.blocked<elems = [1], lanes = [32], warps = [16]>>
  %sum_block = blk.splat %sum : f32 -> tensor<1xf32, #blk.blocked<elems = [1], lanes = [32], warps = [16]>>
  blk.store %out[%one], %sum_block : !blk.ptr<f32>, tensor<1xi32, #blk.blocked<elems = [1], lanes = [32], warps = [16]>>, tensor<1xf32, #blk.blocked<elems = [1], lanes = [32], warps = [16]>>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// Weight and bias read after the last reduction (a LayerNorm): that phase
// sets the registers, and the rows stay held.
// CHECK-LABEL: func.func @streams_two_rows
// CHECK-NOT: blk.local
// CHECK: return
func.func @streams_two_rows(%in: !blk.ptr<bf16>, %weight: !blk.ptr<bf16>, %bias: !blk.ptr<bf16>, %out: !blk.ptr<bf16>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %w = arith.extf %x : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %sum = blk.reduce sum %w axis 0 : tensor<32768xf32, #l> -> f32
  %sum_block = blk.splat %sum : f32 -> tensor<32768xf32, #l>
  %d = arith.subf %w, %sum_block : tensor<32768xf32, #l>
  %g = blk.load %weight[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %b = blk.load %bias[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %gw = arith.extf %g : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %bw = arith.extf %b : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %scaled = arith.mulf %d, %gw : tensor<32768xf32, #l>
  %y = arith.addf %scaled, %bw : tensor<32768xf32, #l>
  %y16 = arith.truncf %y : tensor<32768xf32, #l> to tensor<32768xbf16, #l>
  blk.store %out[%cols], %y16 : !blk.ptr<bf16>, tensor<32768xi32, #l>, tensor<32768xbf16, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// blk-pipeline-loads' next row, which the loop body only yields: it is the
// next iteration's (loop-carried) row, and stays in registers.
// CHECK-LABEL: func.func @next_row_yielded
// CHECK-NOT: blk.local
// CHECK: return
func.func @next_row_yielded(%in: !blk.ptr<bf16>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 16, grid = persistent, num_stages = 2>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %first = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%x = %first) -> (tensor<32768xbf16, #l>) : i32 {
    %next = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
    %w = arith.extf %x : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
    %max = blk.reduce max %w axis 0 : tensor<32768xf32, #l> -> f32
    %max_block = blk.splat %max : f32 -> tensor<32768xf32, #l>
    %d = arith.subf %w, %max_block : tensor<32768xf32, #l>
    blk.store %out[%cols], %d : !blk.ptr<f32>, tensor<32768xi32, #l>, tensor<32768xf32, #l>
    scf.yield %next : tensor<32768xbf16, #l>
  }
  return
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [8], ctas = [4]>

// An f32 row of 65536 on 4 CTAs of 8 warps: 64 elements, 16 runs of 16
// bytes a thread, which blk-async-fill copies with min-runs 12. With
// wide-min-runs=12 the row is kept (64 KiB a CTA); by default, and on a
// chip without cp.async, it stays in registers.
// CHECK-LABEL: func.func @f32_copied_row
// CHECK-NOT: blk.local
// CHECK: return
// WIDE-LABEL: func.func @f32_copied_row
// WIDE: %[[X:.*]] = blk.load
// WIDE-NEXT: blk.local_alloc %[[X]] : tensor<65536xf32, #{{.*}}> -> !blk.shared<65536xf32>
// WIDE: blk.reduce max
// WIDE-NEXT: blk.local_load
// WIDE-SM75-LABEL: func.func @f32_copied_row
// WIDE-SM75-NOT: blk.local
// WIDE-SM75: return
func.func @f32_copied_row(%in: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 8, num_ctas = 4>} {
  %cols = blk.arange 0 to 65536 : tensor<65536xi32, #l>
  %x = blk.load %in[%cols] {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<65536xi32, #l> -> tensor<65536xf32, #l>
  %max = blk.reduce max %x axis 0 : tensor<65536xf32, #l> -> f32
  %max_block = blk.splat %max : f32 -> tensor<65536xf32, #l>
  %d = arith.subf %x, %max_block : tensor<65536xf32, #l>
  blk.store %out[%cols], %d {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<65536xi32, #l>, tensor<65536xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [4], lanes = [32], warps = [16]>

// On one CTA an f32 row stays in registers even where it would be copied
// (24576 on 16 warps: 12 runs a thread).
// WIDE-LABEL: func.func @f32_one_cta
// WIDE-NOT: blk.local
// WIDE: return
func.func @f32_one_cta(%in: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 24576 : tensor<24576xi32, #l>
  %x = blk.load %in[%cols] {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<24576xi32, #l> -> tensor<24576xf32, #l>
  %max = blk.reduce max %x axis 0 : tensor<24576xf32, #l> -> f32
  %max_block = blk.splat %max : f32 -> tensor<24576xf32, #l>
  %d = arith.subf %x, %max_block : tensor<24576xf32, #l>
  blk.store %out[%cols], %d {blk.vector = 4 : i64} : !blk.ptr<f32>, tensor<24576xi32, #l>, tensor<24576xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// A row blk-peel-alignment versioned: an scf.if of the shifted row's load
// and its fallback. With peeled-rows it is kept from the scf.if's result,
// whichever branch ran, and read back after each reduction; without, it is
// held (an op with regions is not recomputed). The weight loaded after
// the reduction is one row (its fallback is the same row): the row is
// still kept.
// CHECK-LABEL: func.func @versioned
// CHECK-NOT: blk.local
// CHECK: return
// PEELED-LABEL: func.func @versioned
// PEELED: %[[X:.*]] = scf.if
// PEELED: %[[BUF:.*]] = blk.local_alloc %[[X]] : tensor<32768xbf16, #{{.*}}> -> !blk.shared<32768xbf16>
// PEELED: blk.reduce sum
// PEELED-NEXT: %[[X1:.*]] = blk.local_load %[[BUF]]
// PEELED: %[[W1:.*]] = arith.extf %[[X1]]
// PEELED: scf.if
// PEELED: arith.mulf %[[W1]],
// PEELED: return
func.func @versioned(%in: !blk.ptr<bf16>, %weight: !blk.ptr<bf16>, %out: !blk.ptr<bf16>, %aligned: i1)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = scf.if %aligned -> (tensor<32768xbf16, #l>) {
    %v = blk.load %in[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
    scf.yield %v : tensor<32768xbf16, #l>
  } else {
    %v = blk.load %in[%cols] {blk.fallback} : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
    scf.yield %v : tensor<32768xbf16, #l>
  }
  %w = arith.extf %x : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %squares = arith.mulf %w, %w : tensor<32768xf32, #l>
  %sum = blk.reduce sum %squares axis 0 : tensor<32768xf32, #l> -> f32
  %sum_block = blk.splat %sum : f32 -> tensor<32768xf32, #l>
  %g = scf.if %aligned -> (tensor<32768xbf16, #l>) {
    %v = blk.load %weight[%cols] : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
    scf.yield %v : tensor<32768xbf16, #l>
  } else {
    %v = blk.load %weight[%cols] {blk.fallback} : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
    scf.yield %v : tensor<32768xbf16, #l>
  }
  %gw = arith.extf %g : tensor<32768xbf16, #l> to tensor<32768xf32, #l>
  %scaled = arith.mulf %w, %sum_block : tensor<32768xf32, #l>
  %y = arith.mulf %scaled, %gw : tensor<32768xf32, #l>
  %y16 = arith.truncf %y : tensor<32768xf32, #l> to tensor<32768xbf16, #l>
  blk.store %out[%cols], %y16 : !blk.ptr<bf16>, tensor<32768xi32, #l>, tensor<32768xbf16, #l>
  return
}
