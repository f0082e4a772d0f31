// RUN: softmax-opt %s --convert-blk-to-cpu --split-input-file | FileCheck %s

// A kernel becomes a host function for one program: pointers are !llvm.ptr
// and the program's number and the grid's programs along x and y come
// last. blk attributes are gone.
// CHECK-LABEL: func.func @row(
// CHECK-SAME: %[[OUT:[^:]*]]: !llvm.ptr, %[[IN:[^:]*]]: !llvm.ptr, %[[N:[^:]*]]: i32, %[[PID:[^:]*]]: i32, %[[NPROG:[^:]*]]: i32, %[[NPROGY:[^:]*]]: i32) {
// CHECK-NOT: blk.
func.func @row(%out: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %in: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // CHECK: %[[X:.*]] = arith.remui %[[PID]], %[[NPROG]] : i32
  // CHECK: %[[START:.*]] = arith.muli %[[X]], %[[N]] : i32
  %row = blk.program_id x
  %start = arith.muli %row, %n : i32
  // CHECK: %[[ROW:.*]] = llvm.getelementptr %[[IN]][%[[START]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  %rowp = blk.addptr %in, %start : !blk.ptr<f32>, i32
  // CHECK: %[[COLS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<256xi32>)
  // CHECK:   %[[I:.*]] = linalg.index 0 : index
  // CHECK:   arith.index_cast %[[I]] : index to i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  // CHECK: %[[NB:.*]] = linalg.fill ins(%[[N]] : i32) outs(%{{.*}} : tensor<256xi32>)
  %nb = blk.splat %n : i32 -> tensor<256xi32>
  // CHECK: %[[MASK:.*]] = linalg.generic {{.*}} ins(%[[COLS]], %[[NB]] : tensor<256xi32>, tensor<256xi32>)
  // CHECK:   arith.cmpi slt
  %mask = arith.cmpi slt, %cols, %nb : tensor<256xi32>
  %ninf = arith.constant 0xFF800000 : f32
  // The offsets are one run of memory (consecutive along the row), so the
  // load goes by rows: the mask as bytes, the first position where it
  // fails, plain loads up to there, then loads where the mask holds.
  // CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
  // CHECK: %[[BYTES:.*]] = linalg.generic {{.*}} ins(%[[MASK]] : tensor<256xi1>) outs(%{{.*}} : tensor<256xi8>)
  // CHECK:   arith.extui %{{.*}} : i1 to i8
  // CHECK: %[[LEN:.*]] = arith.constant 256 : i32
  // CHECK: %[[LENINIT:.*]] = linalg.fill ins(%[[LEN]] : i32) outs(%{{.*}} : tensor<i32>)
  // CHECK: %[[LIMITT:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[BYTES]] : tensor<256xi8>) outs(%[[LENINIT]] : tensor<i32>)
  // CHECK:   %[[SET:.*]] = arith.cmpi ne
  // CHECK:   %[[POS:.*]] = arith.index_cast %{{.*}} : index to i32
  // CHECK:   %[[CAND:.*]] = arith.select %[[SET]], %[[LEN]], %[[POS]] : i32
  // CHECK:   arith.minsi %[[CAND]], %{{.*}} : i32
  // CHECK: %[[FIRST:.*]] = tensor.extract %[[COLS]][%{{.*}}] : tensor<256xi32>
  // CHECK: %[[START0:.*]] = llvm.getelementptr %[[ROW]][%[[FIRST]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  // CHECK: %[[LIMIT32:.*]] = tensor.extract %[[LIMITT]][] : tensor<i32>
  // CHECK: %[[LIMIT:.*]] = arith.index_cast %[[LIMIT32]] : i32 to index
  // CHECK: %[[BODY:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[LIMIT]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<256xf32>) {
  // CHECK-NOT: scf.if
  // CHECK:   %[[J64:.*]] = arith.index_cast %[[J]] : index to i64
  // CHECK:   %[[P:.*]] = llvm.getelementptr %[[START0]][%[[J64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK:   %[[L:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
  // CHECK:   tensor.insert %[[L]] into %[[ACC]][%[[J]]] : tensor<256xf32>
  // CHECK: %[[X:.*]] = scf.for %[[T:.*]] = %[[LIMIT]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[BODY]]) -> (tensor<256xf32>) {
  // CHECK:   %[[MB:.*]] = tensor.extract %[[BYTES]][%[[T]]] : tensor<256xi8>
  // CHECK:   %[[M:.*]] = arith.cmpi ne, %[[MB]], %{{.*}} : i8
  // CHECK:   scf.if %[[M]] -> (f32) {
  // CHECK:     llvm.load
  // CHECK:   } else {
  // CHECK:     scf.yield %[[NINF]] : f32
  %x = blk.load %rowp[%cols] mask %mask other %ninf : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  // A float max starts from -inf and combines with arith.maximumf (NaN
  // propagates); a 1-D reduction ends as a scalar.
  // CHECK: %[[MINF:.*]] = arith.constant 0xFF800000 : f32
  // CHECK: %[[MINIT:.*]] = linalg.fill ins(%[[MINF]] : f32) outs(%{{.*}} : tensor<f32>)
  // CHECK: %[[MAXT:.*]] = linalg.reduce ins(%[[X]] : tensor<256xf32>) outs(%[[MINIT]] : tensor<f32>) dimensions = [0]
  // CHECK:   arith.maximumf
  // CHECK: %[[MAX:.*]] = tensor.extract %[[MAXT]][] : tensor<f32>
  %max = blk.reduce max %x axis 0 : tensor<256xf32> -> f32
  // CHECK: %[[MB:.*]] = linalg.fill ins(%[[MAX]] : f32)
  %mb = blk.splat %max : f32 -> tensor<256xf32>
  // Elementwise ops on tensors become linalg.generic.
  // CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MB]] : tensor<256xf32>, tensor<256xf32>)
  // CHECK:   arith.subf
  %s = arith.subf %x, %mb : tensor<256xf32>
  // CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<256xf32>)
  // CHECK:   math.exp %{{.*}} : f32
  %e = math.exp %s : tensor<256xf32>
  // A long float sum adds 128 strided partial sums first (as the GPU's
  // threads do), from 0, then halves of them (x[j] + x[j + 64], ...) down
  // to one, as the GPU's shuffles do.
  // CHECK: %[[SPLIT:.*]] = tensor.expand_shape %[[E]] {{\[\[}}0, 1]] output_shape [2, 128] : tensor<256xf32> into tensor<2x128xf32>
  // CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK: %[[PINIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<128xf32>)
  // CHECK: %[[PARTIAL:.*]] = linalg.reduce ins(%[[SPLIT]] : tensor<2x128xf32>) outs(%[[PINIT]] : tensor<128xf32>) dimensions = [0]
  // CHECK:   arith.addf
  // The halves are slices added element by element, not reshapes, which
  // linalg's fusion would propagate into the partial sums' loop.
  // CHECK-NOT: tensor.expand_shape
  // CHECK: %[[LOW:.*]] = tensor.extract_slice %[[PARTIAL]][0] [64] [1] : tensor<128xf32> to tensor<64xf32>
  // CHECK: %[[HIGH:.*]] = tensor.extract_slice %[[PARTIAL]][64] [64] [1] : tensor<128xf32> to tensor<64xf32>
  // CHECK: linalg.generic {{.*}} ins(%[[LOW]], %[[HIGH]] : tensor<64xf32>, tensor<64xf32>)
  // CHECK:   arith.addf
  // CHECK: extract_slice %{{.*}}[32] [32] [1]
  // CHECK: extract_slice %{{.*}}[16] [16] [1]
  // CHECK: extract_slice %{{.*}}[8] [8] [1]
  // CHECK: extract_slice %{{.*}}[4] [4] [1]
  // CHECK: extract_slice %{{.*}}[2] [2] [1]
  // CHECK: %[[LAST:.*]] = tensor.extract_slice %{{.*}}[1] [1] [1] : tensor<2xf32> to tensor<1xf32>
  // CHECK: %[[ONE:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[LAST]] : tensor<1xf32>, tensor<1xf32>)
  // CHECK: %[[SUMT:.*]] = linalg.reduce ins(%[[ONE]] : tensor<1xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0]
  // CHECK:   arith.addf
  // CHECK: tensor.extract %[[SUMT]][] : tensor<f32>
  %sum = blk.reduce sum %e axis 0 : tensor<256xf32> -> f32
  // The store goes by rows too: plain stores up to where the mask fails,
  // then stores where it holds.
  // CHECK: %[[OUTROW:.*]] = llvm.getelementptr %[[OUT]][%[[START]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  %outp = blk.addptr %out, %start : !blk.ptr<f32>, i32
  // CHECK: %[[SLIMITT:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]}
  // CHECK: %[[SFIRST:.*]] = tensor.extract %[[COLS]][%{{.*}}] : tensor<256xi32>
  // CHECK: %[[SSTART:.*]] = llvm.getelementptr %[[OUTROW]][%[[SFIRST]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  // CHECK: %[[SLIMIT32:.*]] = tensor.extract %[[SLIMITT]][] : tensor<i32>
  // CHECK: %[[SLIMIT:.*]] = arith.index_cast %[[SLIMIT32]] : i32 to index
  // CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[SLIMIT]] step %{{.*}} {
  // CHECK-NOT: scf.if
  // CHECK:   %[[SV:.*]] = tensor.extract %[[E]][%[[K]]] : tensor<256xf32>
  // CHECK:   %[[SP:.*]] = llvm.getelementptr %[[SSTART]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK:   llvm.store %[[SV]], %[[SP]] : f32, !llvm.ptr
  // CHECK: scf.for %{{.*}} = %[[SLIMIT]] to %{{.*}} step %{{.*}} {
  // CHECK:   scf.if
  // CHECK:     llvm.store
  blk.store %outp[%cols], %e mask %mask : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  // CHECK: return
  return
}

// -----

// Programs are numbered x fastest: program p is (p mod X, p / X), a
// batch's instances along y (X and Y: the grid's programs along each);
// along z the id is 0 and the count 1.
// CHECK-LABEL: func.func @grid(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[PID:[^:]*]]: i32, %[[NPROG:[^:]*]]: i32, %[[NPROGY:[^:]*]]: i32)
func.func @grid(%out: !blk.ptr<i32>) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  // CHECK-DAG: %[[X:.*]] = arith.remui %[[PID]], %[[NPROG]] : i32
  // CHECK-DAG: %[[Y:.*]] = arith.divui %[[PID]], %[[NPROG]] : i32
  // CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
  %x = blk.program_id x
  %nx = blk.num_programs x
  %y = blk.program_id y
  %nz = blk.num_programs z
  // CHECK: arith.addi %[[X]], %[[Y]] : i32
  // CHECK: arith.addi %[[NPROG]], %[[ONE]] : i32
  %a = arith.addi %x, %y : i32
  %b = arith.addi %nx, %nz : i32
  %c = arith.muli %a, %b : i32
  // An unmasked load and store touch every element: one loop over the
  // row, no scf.if.
  %cols = blk.arange 0 to 4 : tensor<4xi32>
  // CHECK: scf.for
  // CHECK-NOT: scf.if
  // CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
  %v = blk.load %out[%cols] : !blk.ptr<i32>, tensor<4xi32> -> tensor<4xi32>
  // An integer max starts from the smallest integer and uses arith.maxsi;
  // integer sums are exact and need no partial sums.
  // CHECK: arith.constant -2147483648 : i32
  // CHECK: linalg.reduce
  // CHECK:   arith.maxsi
  %m = blk.reduce max %v axis 0 : tensor<4xi32> -> i32
  // CHECK: scf.for
  // CHECK-NOT: scf.if
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
  blk.store %out[%cols], %v : !blk.ptr<i32>, tensor<4xi32>, tensor<4xi32>
  return
}

// -----

// Several rows per program: expand_dims reshapes, broadcast repeats along
// the dimensions of size 1, and a reduction along rows keeps a 1-D block.
// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @rows(
func.func @rows(%in: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %rows = blk.arange 0 to 4 : tensor<4xi32>
  // CHECK: %[[COL:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xi32> into tensor<4x1xi32>
  %col = blk.expand_dims %rows axis 1 : tensor<4xi32> -> tensor<4x1xi32>
  // CHECK: linalg.generic {indexing_maps = [#[[BCAST]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[COL]] : tensor<4x1xi32>) outs(%{{.*}} : tensor<4x8xi32>)
  %offsets = blk.broadcast %col : tensor<4x1xi32> -> tensor<4x8xi32>
  %x = blk.load %in[%offsets] : !blk.ptr<f32>, tensor<4x8xi32> -> tensor<4x8xf32>
  // CHECK: tensor.extract_slice %{{.*}}[0, 4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  // CHECK: tensor.extract_slice %{{.*}}[0, 2] [4, 2] [1, 1] : tensor<4x4xf32> to tensor<4x2xf32>
  // CHECK: tensor.extract_slice %{{.*}}[0, 1] [4, 1] [1, 1] : tensor<4x2xf32> to tensor<4x1xf32>
  // CHECK: linalg.reduce ins(%{{.*}} : tensor<4x1xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
  // CHECK-NOT: tensor.extract %{{.*}}[] : tensor<f32>
  %s = blk.reduce sum %x axis 1 : tensor<4x8xf32> -> tensor<4xf32>
  // CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %row = blk.expand_dims %s axis 0 : tensor<4xf32> -> tensor<1x4xf32>
  return
}

// -----

// Loops keep their tensor iteration arguments; their bodies are converted
// like any other.
// CHECK-LABEL: func.func @running_max(
func.func @running_max(%in: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %tile = blk.arange 0 to 16 : tensor<16xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %init = blk.splat %ninf : f32 -> tensor<16xf32>
  // CHECK: %[[INIT:.*]] = linalg.fill
  // CHECK: %[[M:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<16xf32>) : i32 {
  // CHECK:   %[[X:.*]] = scf.for
  // CHECK:     llvm.load
  // CHECK:   %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[ACC]], %[[X]] : tensor<16xf32>, tensor<16xf32>)
  // CHECK:     arith.maximumf
  // CHECK:   scf.yield %[[NEXT]] : tensor<16xf32>
  %m = scf.for %start = %c0 to %n step %c16 iter_args(%acc = %init) -> (tensor<16xf32>) : i32 {
    %p = blk.addptr %in, %start : !blk.ptr<f32>, i32
    %x = blk.load %p[%tile] : !blk.ptr<f32>, tensor<16xi32> -> tensor<16xf32>
    %next = arith.maximumf %acc, %x : tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  // CHECK: linalg.reduce ins(%[[M]] : tensor<16xf32>)
  %max = blk.reduce max %m axis 0 : tensor<16xf32> -> f32
  return
}

// -----

// A 64-bit row offset (blk-widen-offsets) goes into the row's GEP as it is;
// the elements are read from that row with their 32-bit offsets.
// CHECK-LABEL: func.func @wide_row(
// CHECK-SAME: %[[IN:[^:]*]]: !llvm.ptr, %[[STRIDE:[^:]*]]: i32, %[[PID:[^:]*]]: i32, %[[NX:[^:]*]]: i32
func.func @wide_row(%in: !blk.ptr<f32>, %stride: i32) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  // CHECK-DAG: %[[X:.*]] = arith.remui %[[PID]], %[[NX]] : i32
  // CHECK-DAG: %[[STRIDE64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
  // CHECK: %[[PID64:.*]] = arith.extsi %[[X]] : i32 to i64
  // CHECK: %[[START:.*]] = arith.muli %[[PID64]], %[[STRIDE64]] : i64
  // CHECK: %[[ROW:.*]] = llvm.getelementptr %[[IN]][%[[START]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK: %[[FIRST:.*]] = tensor.extract
  // CHECK: llvm.getelementptr %[[ROW]][%[[FIRST]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  %stride64 = arith.extsi %stride : i32 to i64
  %row = blk.program_id x
  %row64 = arith.extsi %row : i32 to i64
  %start = arith.muli %row64, %stride64 : i64
  %rowp = blk.addptr %in, %start : !blk.ptr<f32>, i64
  %cols = blk.arange 0 to 16 : tensor<16xi32>
  %x = blk.load %rowp[%cols] : !blk.ptr<f32>, tensor<16xi32> -> tensor<16xf32>
  return
}

// -----

// Offsets that are not a run of memory (every other element) are read
// element by element, each under its mask bit, at the address its offset
// gives, in a loop nest inserting into a tensor (nothing folds an element
// out of it into a later reader, past a store).
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[IN:[^:]*]]: !llvm.ptr
func.func @gather(%in: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %cols = blk.arange 0 to 16 : tensor<16xi32>
  %two = blk.splat %n : i32 -> tensor<16xi32>
  // CHECK: %[[EVEN:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16xi32>, tensor<16xi32>)
  // CHECK:   arith.muli
  %even = arith.muli %cols, %two : tensor<16xi32>
  // CHECK: %[[MASK:.*]] = linalg.generic
  // CHECK:   arith.cmpi slt
  %mask = arith.cmpi slt, %even, %two : tensor<16xi32>
  // CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16xf32>) {
  // CHECK:   %[[M:.*]] = tensor.extract %[[MASK]][%[[J]]] : tensor<16xi1>
  // CHECK:   %[[V:.*]] = scf.if %[[M]] -> (f32) {
  // CHECK:     %[[OFF:.*]] = tensor.extract %[[EVEN]][%[[J]]] : tensor<16xi32>
  // CHECK:     %[[P:.*]] = llvm.getelementptr %[[IN]][%[[OFF]]] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  // CHECK:     llvm.load %[[P]] : !llvm.ptr -> f32
  // CHECK:   tensor.insert %[[V]] into %[[ACC]][%[[J]]] : tensor<16xf32>
  %x = blk.load %in[%even] mask %mask : !blk.ptr<f32>, tensor<16xi32> -> tensor<16xf32>
  // CHECK: scf.for %[[K:.*]] =
  // CHECK:   %[[SM:.*]] = tensor.extract %[[MASK]][%[[K]]] : tensor<16xi1>
  // CHECK:   scf.if %[[SM]] {
  // CHECK:     llvm.store
  blk.store %in[%even], %x mask %mask : !blk.ptr<f32>, tensor<16xi32>, tensor<16xf32>
  return
}

// -----

// A block kept in shared memory is the block itself on the CPU.
// CHECK-LABEL: func.func @kept_block
// CHECK-NOT: blk.local
// CHECK: return
func.func @kept_block(%in: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %x = blk.load %in[%cols] : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  %b = blk.local_alloc %x : tensor<1024xf32> -> !blk.shared<1024xf32>
  %y = blk.local_load %b : !blk.shared<1024xf32> -> tensor<1024xf32>
  blk.store %out[%cols], %y : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
  return
}

// -----

// blk.dot: a linalg.generic over (m, n, k) whose body widens a and b to the
// accumulator's f32 and adds their product to it.
// CHECK-LABEL: func.func @dot_tile
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: blk.dot
func.func @dot_tile(%p: !blk.ptr<f32>, %x: bf16) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<4x8xbf16>
  %b = blk.splat %x : bf16 -> tensor<8x2xbf16>
  %zero = arith.constant 0.0 : f32
  %c = blk.splat %zero : f32 -> tensor<4x2xf32>
  %d = blk.dot %a, %b, %c : tensor<4x8xbf16>, tensor<8x2xbf16>, tensor<4x2xf32>
  %origin = arith.constant 0 : i32
  %offsets = blk.splat %origin : i32 -> tensor<4x2xi32>
  blk.store %p[%offsets], %d : !blk.ptr<f32>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}


// -----

// A bf16 row is loaded as its bits: i16 loads, the masked tail's branch
// yields i16 (-inf's bits for `other`), and one elementwise bitcast makes
// the block bf16. A bf16 across that branch was kept in an f32 register
// and rounded back with a call where it was written.
// CHECK-LABEL: func.func @bf16_row(
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK: scf.if %{{.*}} -> (i16) {
// CHECK:   llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : i16
// CHECK: linalg.generic
// CHECK:   arith.bitcast %{{.*}} : i16 to bf16
func.func @bf16_row(%out: !blk.ptr<bf16>, %in: !blk.ptr<bf16>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %cols = blk.arange 0 to 64 : tensor<64xi32>
  %nb = blk.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<64xi32>
  %ninf = arith.constant 0xFF80 : bf16
  %x = blk.load %in[%cols] mask %mask other %ninf : !blk.ptr<bf16>, tensor<64xi32> -> tensor<64xbf16>
  blk.store %out[%cols], %x mask %mask : !blk.ptr<bf16>, tensor<64xi32>, tensor<64xbf16>
  return
}
