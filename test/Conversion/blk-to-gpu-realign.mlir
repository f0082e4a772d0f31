// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s

#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// A bf16 row of any length: runs of 8 elements (16 bytes) that start
// anywhere on the 16-byte grid. A load reads the aligned chunk holding its
// run's first element (when that chunk's first element is enabled), takes
// the rest from the next lane's chunk (a shuffle down; the last lane of
// the warp reads it itself), and shifts the 32 bytes by the run's offset:
// selects of whole words, then funnel shifts for the 2-byte step. Both
// chunk loads come before the shuffles that wait for them. A chunk the
// row's end falls inside is read element by element (nothing past the
// row's end is read: it may be past the end of the tensor).
// CHECK-LABEL: gpu.func @row
func.func @row(%p: !blk.ptr<bf16>, %q: !blk.ptr<bf16>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %start = arith.muli %row, %n : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<bf16>, i32
  %rowq = blk.addptr %q, %start : !blk.ptr<bf16>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #row>
  %nb = blk.splat %n : i32 -> tensor<1024xi32, #row>
  %in = arith.cmpi slt, %cols, %nb : tensor<1024xi32, #row>
  %zero = arith.constant 0.0 : bf16
  // CHECK: %[[ADDRESS:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
  // CHECK: %[[LOW:.*]] = arith.trunci %[[ADDRESS]] : i64 to i32
  // CHECK: %[[M:.*]] = arith.andi %[[LOW]], %c15_i32
  // CHECK: %[[CHUNK:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
  // CHECK: scf.if %{{.*}} -> (vector<4xi32>)
  // CHECK:   llvm.load %[[CHUNK]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
  // CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
  // CHECK: scf.if %{{.*}} -> (vector<4xi32>)
  // CHECK:   llvm.getelementptr %[[CHUNK]][%c16_i32{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
  // CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
  // CHECK-COUNT-4: gpu.shuffle  down %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : i32
  // CHECK-COUNT-4: arith.select
  // CHECK-COUNT-7: arith.select
  // CHECK-COUNT-5: arith.select
  // CHECK-COUNT-4: llvm.intr.fshr
  // CHECK: vector.bitcast %{{.*}} : vector<4xi32> to vector<8xbf16>
  %x = blk.load %rowp[%cols] mask %in other %zero {blk.vector = 8 : i64, blk.realign} : !blk.ptr<bf16>, tensor<1024xi32, #row> -> tensor<1024xbf16, #row>
  // A store completes the chunk holding its first element with the
  // previous lane's last bytes (a shuffle up) and writes it whole; what no
  // whole chunk covers (the edges of a warp, the row's end) goes element by
  // element.
  // CHECK: vector.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
  // CHECK-COUNT-4: gpu.shuffle  up %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : i32
  // CHECK-COUNT-4: llvm.intr.fshr
  // CHECK: scf.if
  // CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
  // CHECK: scf.if
  // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : bf16, !llvm.ptr<1>
  blk.store %rowq[%cols], %x mask %in {blk.vector = 8 : i64, blk.realign} : !blk.ptr<bf16>, tensor<1024xi32, #row>, tensor<1024xbf16, #row>
  // CHECK: gpu.return
  return
}

// -----

#row = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

// f32 runs move by whole words: no funnel shift. Under a mask other than
// `cols < n`, realigning would need the neighbours' mask bits: the access
// goes element by element.
// CHECK-LABEL: gpu.func @words
func.func @words(%p: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %start = arith.muli %row, %n : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 512 : tensor<512xi32, #row>
  // CHECK: gpu.shuffle  down
  // CHECK-NOT: llvm.intr.fshr
  // CHECK: vector.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
  %x = blk.load %rowp[%cols] {blk.vector = 4 : i64, blk.realign} : !blk.ptr<f32>, tensor<512xi32, #row> -> tensor<512xf32, #row>
  %nb = blk.splat %n : i32 -> tensor<512xi32, #row>
  %odd = arith.cmpi sge, %cols, %nb : tensor<512xi32, #row>
  // CHECK-NOT: gpu.shuffle
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
  // CHECK-NOT: llvm.store
  blk.store %rowp[%cols], %x mask %odd {blk.vector = 4 : i64, blk.realign} : !blk.ptr<f32>, tensor<512xi32, #row>, tensor<512xf32, #row>
  return
}

// -----

#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// A thread's chunk loads are issued a batch of runs at a time (64 bytes of
// low chunks: 4 runs of 8 bf16) before the first shuffle waits for one:
// issued run by run, each run's shuffle stalled the next run's load; all
// runs at once took too many registers. Eight runs: two batches.
// CHECK-LABEL: gpu.func @runs_in_flight
func.func @runs_in_flight(%p: !blk.ptr<bf16>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %start = arith.muli %row, %n : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<bf16>, i32
  %cols = blk.arange 0 to 8192 : tensor<8192xi32, #row>
  // CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
  // CHECK-NOT: llvm.load
  // CHECK: gpu.shuffle  down
  // CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
  // CHECK-NOT: llvm.load
  // CHECK: gpu.shuffle  down
  // CHECK-NOT: llvm.load
  %x = blk.load %rowp[%cols] {blk.vector = 8 : i64, blk.realign} : !blk.ptr<bf16>, tensor<8192xi32, #row> -> tensor<8192xbf16, #row>
  blk.store %rowp[%cols], %x {blk.vector = 8 : i64, blk.realign} : !blk.ptr<bf16>, tensor<8192xi32, #row>, tensor<8192xbf16, #row>
  // CHECK: gpu.return
  return
}
