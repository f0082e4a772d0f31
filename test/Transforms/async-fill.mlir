// RUN: softmax-opt %s --blk-async-fill --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-async-fill=min-runs=0 --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: softmax-opt %s --blk-attach-target=chip=sm_75 --blk-async-fill --split-input-file | FileCheck %s --check-prefix=SM75
// RUN: not softmax-opt %s --blk-async-fill=min-runs=-1 --split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not softmax-opt %s --blk-to-ptx=async-fill-min-runs=-1 --split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE-PIPELINE
// NEGATIVE: error: blk-async-fill: min-runs must be 0 (never) or more, but got -1
// NEGATIVE-PIPELINE: error: blk-stage-held-loads: wide-min-runs must be 0 (never) or more, but got -1

#l = #blk.blocked<elems = [8], lanes = [32], warps = [8]>

// A bf16 row of 26624 kept on 8 warps: 104 elements, 13 runs of 16 bytes a
// thread. The row is copied into its buffer, waited for, and read back
// for the max; what blk-stage-held-loads recomputed after the reduction
// reads the same buffer.
// CHECK-LABEL: func.func @kept_row
// CHECK: %[[COLS:.*]] = blk.arange
// CHECK-NEXT: %[[BUF:.*]] = blk.async_copy %{{.*}}[%[[COLS]]] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #{{.*}}> -> !blk.shared<26624xbf16>
// CHECK-NEXT: blk.async_wait %[[BUF]] : !blk.shared<26624xbf16>
// CHECK-NEXT: %[[X:.*]] = blk.local_load %[[BUF]] : !blk.shared<26624xbf16> -> tensor<26624xbf16, #{{.*}}>
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[X]]
// CHECK-NEXT: blk.reduce max %[[W]]
// CHECK-NEXT: blk.local_load %[[BUF]]
// CHECK-NOT: blk.load
// CHECK-NOT: blk.local_alloc
// CHECK: return
// OFF-LABEL: func.func @kept_row
// OFF-NOT: blk.async
// OFF: return
// SM75-LABEL: func.func @kept_row
// SM75-NOT: blk.async
// SM75: return
func.func @kept_row(%in: !blk.ptr<bf16>, %out: !blk.ptr<bf16>)
    attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 26624 : tensor<26624xi32, #l>
  %x = blk.load %in[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l> -> tensor<26624xbf16, #l>
  %buf = blk.local_alloc %x : tensor<26624xbf16, #l> -> !blk.shared<26624xbf16>
  %w = arith.extf %x : tensor<26624xbf16, #l> to tensor<26624xf32, #l>
  %max = blk.reduce max %w axis 0 : tensor<26624xf32, #l> -> f32
  %x1 = blk.local_load %buf : !blk.shared<26624xbf16> -> tensor<26624xbf16, #l>
  %w1 = arith.extf %x1 : tensor<26624xbf16, #l> to tensor<26624xf32, #l>
  %max_block = blk.splat %max : f32 -> tensor<26624xf32, #l>
  %d = arith.subf %w1, %max_block : tensor<26624xf32, #l>
  %y = arith.truncf %d : tensor<26624xf32, #l> to tensor<26624xbf16, #l>
  blk.store %out[%cols], %y {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l>, tensor<26624xbf16, #l>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [8]>

// A row padded to 26624 under `cols < n`, n a multiple of the 8-element run
// (blk.divisibility): each run is all in or all out, so the copy keeps the
// mask and the load's -inf for the runs past the row.
// CHECK-LABEL: func.func @masked_row
// CHECK: blk.async_copy %{{.*}}[%{{.*}}] mask %{{.*}} other %{{.*}} {blk.vector = 8 : i64}
// CHECK-NEXT: blk.async_wait
// CHECK-NEXT: blk.local_load
func.func @masked_row(%in: !blk.ptr<bf16>, %n: i32 {blk.divisibility = 8 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 26624 : tensor<26624xi32, #l>
  %bound = blk.splat %n : i32 -> tensor<26624xi32, #l>
  %inrow = arith.cmpi slt, %cols, %bound : tensor<26624xi32, #l>
  %ninf = arith.constant 0xFF80 : bf16
  %x = blk.load %in[%cols] mask %inrow other %ninf {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l> -> tensor<26624xbf16, #l>
  %buf = blk.local_alloc %x : tensor<26624xbf16, #l> -> !blk.shared<26624xbf16>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [8]>

// Loads that do not move whole 16-byte runs stay as they are: a mask that
// may change inside a run (n of unknown divisibility), runs of 8 bytes, a
// realigned row.
// CHECK-LABEL: func.func @not_whole_runs
// CHECK-NOT: blk.async
// CHECK: return
func.func @not_whole_runs(%in: !blk.ptr<bf16>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 26624 : tensor<26624xi32, #l>
  %bound = blk.splat %n : i32 -> tensor<26624xi32, #l>
  %inrow = arith.cmpi slt, %cols, %bound : tensor<26624xi32, #l>
  %x = blk.load %in[%cols] mask %inrow {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l> -> tensor<26624xbf16, #l>
  %buf = blk.local_alloc %x : tensor<26624xbf16, #l> -> !blk.shared<26624xbf16>
  %y = blk.load %in[%cols] {blk.vector = 4 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l> -> tensor<26624xbf16, #l>
  %buf_y = blk.local_alloc %y : tensor<26624xbf16, #l> -> !blk.shared<26624xbf16>
  %z = blk.load %in[%cols] mask %inrow {blk.vector = 8 : i64, blk.realign} : !blk.ptr<bf16>, tensor<26624xi32, #l> -> tensor<26624xbf16, #l>
  %buf_z = blk.local_alloc %z : tensor<26624xbf16, #l> -> !blk.shared<26624xbf16>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [16]>

// 8 runs a thread (bf16 32768 on 16 warps), under the default 12: filled
// through registers, where the loads feed the max as they come.
// CHECK-LABEL: func.func @eight_runs
// CHECK-NOT: blk.async
// CHECK: blk.local_alloc
// CHECK: return
func.func @eight_runs(%in: !blk.ptr<bf16>)
    attributes {blk.kernel = #blk.kernel<num_warps = 16>} {
  %cols = blk.arange 0 to 32768 : tensor<32768xi32, #l>
  %x = blk.load %in[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<32768xi32, #l> -> tensor<32768xbf16, #l>
  %buf = blk.local_alloc %x : tensor<32768xbf16, #l> -> !blk.shared<32768xbf16>
  return
}

// -----

#l = #blk.blocked<elems = [8], lanes = [32], warps = [8]>

// A row loaded in a loop (a persistent program's) keeps its registers.
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT: blk.async
// CHECK: blk.local_alloc
// CHECK: return
func.func @in_loop(%in: !blk.ptr<bf16>, %rows: index)
    attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %rows step %c1 {
    %cols = blk.arange 0 to 26624 : tensor<26624xi32, #l>
    %x = blk.load %in[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<26624xi32, #l> -> tensor<26624xbf16, #l>
    %buf = blk.local_alloc %x : tensor<26624xbf16, #l> -> !blk.shared<26624xbf16>
  }
  return
}
