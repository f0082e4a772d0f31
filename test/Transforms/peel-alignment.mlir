// RUN: softmax-opt %s --blk-peel-alignment --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-set-launch-shape=num-warps=1 --blk-peel-alignment --split-input-file | FileCheck %s --check-prefix=OPTION

// A row of unknown alignment (no blk.divisibility on the strides): the block
// is shifted by the input row's misalignment (8 bf16 in 16 bytes), masks
// become 0 <= cols' < n, and each access runs on the aligned base where its
// own misalignment is the shift, else on cols' as a fallback.
// CHECK-LABEL: func.func @one_row
// CHECK:       %[[IN_START:.*]] = arith.muli %[[ROW:.*]], %arg2 : i32
// CHECK:       %[[COLS:.*]] = blk.arange 0 to 1024
// CHECK:       %[[HEAD:.*]] = arith.andi %[[IN_START]], %{{.*}} : i32
// CHECK:       %[[ROOM:.*]] = arith.subi %{{.*}}, %[[HEAD]] : i32
// CHECK:       %[[FITS:.*]] = arith.cmpi sle, %arg5, %[[ROOM]] : i32
// CHECK:       %[[SHIFT:.*]] = arith.select %[[FITS]], %[[HEAD]], %{{.*}} : i32
// CHECK:       %[[NEG:.*]] = arith.subi %{{.*}}, %[[SHIFT]] : i32
// CHECK:       %[[NEG_BLOCK:.*]] = blk.splat %[[NEG]] : i32 -> tensor<1024xi32>
// CHECK:       %[[SHIFTED:.*]] = arith.addi %[[COLS]], %[[NEG_BLOCK]] : tensor<1024xi32>
// CHECK:       %[[ABOVE:.*]] = arith.cmpi sge, %[[SHIFTED]], %{{.*}} : tensor<1024xi32>
// CHECK:       %[[BELOW:.*]] = arith.cmpi slt, %[[SHIFTED]], %{{.*}} : tensor<1024xi32>
// CHECK:       %[[IN_ROW:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : tensor<1024xi1>
// CHECK:       %[[MINE:.*]] = arith.andi %[[IN_START]], %{{.*}} : i32
// CHECK:       %[[SAME:.*]] = arith.cmpi eq, %[[MINE]], %[[SHIFT]] : i32
// CHECK:       %[[DOWN:.*]] = arith.andi %[[IN_START]], %{{.*}} : i32
// CHECK:       %[[BASE:.*]] = blk.addptr %arg1, %[[DOWN]]
// CHECK:       %[[X:.*]] = scf.if %[[SAME]] -> (tensor<1024xbf16>) {
// CHECK:         blk.load %[[BASE]][%[[COLS]]] mask %[[IN_ROW]]
// CHECK-NOT:     blk.fallback
// CHECK:       } else {
// CHECK:         blk.load %{{.*}}[%[[SHIFTED]]] mask %[[IN_ROW]] other %{{.*}} {blk.fallback}
// CHECK:       arith.extf %[[X]]
// CHECK:       %[[OUT_START:.*]] = arith.muli %[[ROW]], %arg3 : i32
// CHECK:       %[[OUT_HEAD:.*]] = arith.andi %[[OUT_START]], %{{.*}} : i32
// CHECK:       %[[OUT_SAME:.*]] = arith.cmpi eq, %[[OUT_HEAD]], %[[SHIFT]] : i32
// CHECK:       scf.if %[[OUT_SAME]] {
// CHECK:         blk.store %{{.*}}[%[[COLS]]], %{{.*}} mask %[[IN_ROW]] :
// CHECK:       } else {
// CHECK:         blk.store %{{.*}}[%[[SHIFTED]]], %{{.*}} mask %[[IN_ROW]] {blk.fallback}
// CHECK-NOT:   arith.cmpi slt, %[[COLS]]
// CHECK:       return
func.func @one_row(%out: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %in: !blk.ptr<bf16> {blk.divisibility = 16 : i64},
                   %in_stride: i32, %out_stride: i32, %n_rows: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %in_start = arith.muli %row, %in_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<bf16>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %n = blk.splat %n_cols : i32 -> tensor<1024xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %ninf = arith.constant 0xFF80 : bf16
  %x = blk.load %in_row[%cols] mask %in_bounds other %ninf : !blk.ptr<bf16>, tensor<1024xi32> -> tensor<1024xbf16>
  %wide = arith.extf %x : tensor<1024xbf16> to tensor<1024xf32>
  %y = arith.truncf %wide : tensor<1024xf32> to tensor<1024xbf16>
  %out_start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<bf16>, i32
  blk.store %out_row[%cols], %y mask %in_bounds : !blk.ptr<bf16>, tensor<1024xi32>, tensor<1024xbf16>
  return
}

// -----

// The same row on 4 warps: 128 runs of 16 bytes for 128 threads, one a
// thread (bf16 4096 x 1001 on the GPU). Fewer than two runs a thread are
// not shifted (kMinPeeledRunsPerThread): the row's partial end runs and
// the versioning cost more than the vectors save there.
// With the pipeline's num-warps=1 (blk-to-ptx, as blk-distribute's), 4
// runs a thread: shifted.
// OPTION-LABEL: func.func @one_run_a_thread
// OPTION:       scf.if
// CHECK-LABEL: func.func @one_run_a_thread
// CHECK-NOT:   scf.if
// CHECK:       blk.load %{{.*}}[%{{.*}}] mask %{{.*}} other
// CHECK-NOT:   scf.if
// CHECK:       return
func.func @one_run_a_thread(%out: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %in: !blk.ptr<bf16> {blk.divisibility = 16 : i64},
                            %in_stride: i32, %out_stride: i32, %n_rows: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %in_start = arith.muli %row, %in_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<bf16>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %n = blk.splat %n_cols : i32 -> tensor<1024xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %ninf = arith.constant 0xFF80 : bf16
  %x = blk.load %in_row[%cols] mask %in_bounds other %ninf : !blk.ptr<bf16>, tensor<1024xi32> -> tensor<1024xbf16>
  %out_start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<bf16>, i32
  blk.store %out_row[%cols], %x mask %in_bounds : !blk.ptr<bf16>, tensor<1024xi32>, tensor<1024xbf16>
  return
}

// -----

// The row start is computed after the mask (as in cross_entropy.mlir): its
// pure scalar ops move up to where the shift is needed.
// CHECK-LABEL: func.func @start_after_mask
// CHECK:       %[[START:.*]] = arith.muli
// CHECK:       arith.andi %[[START]]
// CHECK:       arith.cmpi sge
// CHECK:       scf.if
// CHECK:         blk.load
// CHECK:       } else {
// CHECK:         blk.load {{.*}} {blk.fallback}
func.func @start_after_mask(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                            %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %sum = blk.reduce sum %x axis 0 : tensor<256xf32> -> f32
  %at = arith.constant dense<0> : tensor<1xi32>
  %s = blk.splat %sum : f32 -> tensor<1xf32>
  blk.store %out[%at], %s : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// Rows provably on the 16-byte grid (strides divisible by 16): nothing to
// peel.
// CHECK-LABEL: func.func @aligned_rows
// CHECK-NOT:   scf.if
// CHECK:       blk.load %{{.*}}[%{{.*}}] mask
// CHECK-NOT:   blk.fallback
func.func @aligned_rows(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                        %stride: i32 {blk.divisibility = 16 : i64}, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  blk.store %out_row[%cols], %x mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// A weight vector read at the same columns from an aligned pointer (no
// row start) is versioned too: aligned where the shift is 0, else on the
// shifted columns. The shift is the row's, though the weight comes first.
// CHECK-LABEL: func.func @weight_vector
// CHECK:       %[[START:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:       %[[COLS:.*]] = blk.arange 0 to 256
// CHECK:       %[[MIS:.*]] = arith.andi %[[START]], %c3_i32 : i32
// CHECK:       %[[SHIFT:.*]] = arith.select %{{.*}}, %[[MIS]], %c0_i32 : i32
// CHECK:       %[[SHIFTED:.*]] = arith.addi %[[COLS]], %{{.*}} : tensor<256xi32>
// CHECK:       %[[IN_ROW:.*]] = arith.andi
// CHECK:       %[[UNSHIFTED:.*]] = arith.cmpi eq, %[[SHIFT]], %{{.*}} : i32
// CHECK:       scf.if %[[UNSHIFTED]] -> (tensor<256xf32>) {
// CHECK-NEXT:    blk.load %arg1[%[[COLS]]] mask %[[IN_ROW]] :
// CHECK:       } else {
// CHECK-NEXT:    blk.load %arg1[%[[SHIFTED]]] mask %[[IN_ROW]] {blk.fallback}
// CHECK:       scf.if %{{.*}} -> (tensor<256xf32>) {
// CHECK-NEXT:    blk.load %{{.*}}[%[[COLS]]] mask %[[IN_ROW]] :
// CHECK:       } else {
// CHECK-NEXT:    blk.load %{{.*}}[%[[SHIFTED]]] mask %[[IN_ROW]] {blk.fallback}
// CHECK:       scf.if %{{.*}} {
// CHECK-NEXT:    blk.store %{{.*}}[%[[COLS]]]
func.func @weight_vector(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %w: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                         %out: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %wv = blk.load %w[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %y = arith.mulf %x, %wv : tensor<256xf32>
  blk.store %out_row[%cols], %y mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// An input whose row start is provably aligned (its stride a multiple of
// 16 bytes) is a row, not a weight: shifted by its output's misalignment
// it would lose its vectors, so the program is not peeled.
// CHECK-LABEL: func.func @aligned_input_row
// CHECK-NOT:   scf.if
// CHECK-NOT:   blk.fallback
func.func @aligned_input_row(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                             %in_stride: i32 {blk.divisibility = 16 : i64}, %out_stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %in_start = arith.muli %row, %in_stride : i32
  %out_start = arith.muli %row, %out_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  blk.store %out_row[%cols], %x mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// A part of a split row (softmax_split.mlir): its columns are
// `arange + first` with `first` a multiple of the block, and its row start
// is `row start + first`, so every part has the row's misalignment and the
// shifted parts still tile the row. The row fits where n + shift <=
// ceil(n / 256) * 256, and the masks become 0 <= cols' + first < n.
// CHECK-LABEL: func.func @split_part
// CHECK:       %[[FIRST:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK:       %[[START:.*]] = arith.addi %{{.*}}, %[[FIRST]] : i32
// CHECK:       %[[COLS:.*]] = blk.arange 0 to 256
// CHECK:       %[[HEAD:.*]] = arith.andi %[[START]], %{{.*}} : i32
// CHECK:       %[[UP:.*]] = arith.addi %arg3, %{{.*}} : i32
// CHECK:       %[[PARTS:.*]] = arith.divui %[[UP]], %[[BLOCK:.*]] : i32
// CHECK:       %[[CAPACITY:.*]] = arith.muli %[[PARTS]], %[[BLOCK]] : i32
// CHECK:       %[[ROOM:.*]] = arith.subi %[[CAPACITY]], %[[HEAD]] : i32
// CHECK:       %[[FITS:.*]] = arith.cmpi sle, %arg3, %[[ROOM]] : i32
// CHECK:       %[[SHIFT:.*]] = arith.select %[[FITS]], %[[HEAD]], %{{.*}} : i32
// CHECK:       %[[SHIFTED:.*]] = arith.addi %[[COLS]], %{{.*}} : tensor<256xi32>
// CHECK:       %[[FIRSTS:.*]] = blk.splat %[[FIRST]] : i32 -> tensor<256xi32>
// CHECK:       %[[ABS:.*]] = arith.addi %[[SHIFTED]], %[[FIRSTS]] : tensor<256xi32>
// CHECK:       %[[ABOVE:.*]] = arith.cmpi sge, %[[ABS]], %{{.*}} : tensor<256xi32>
// CHECK:       %[[BELOW:.*]] = arith.cmpi slt, %[[ABS]], %{{.*}} : tensor<256xi32>
// CHECK:       %[[IN_ROW:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : tensor<256xi1>
// CHECK:       scf.if
// CHECK:         blk.load %{{.*}}[%[[COLS]]] mask %[[IN_ROW]]
// CHECK:       } else {
// CHECK:         blk.load %{{.*}}[%[[SHIFTED]]] mask %[[IN_ROW]] {blk.fallback}
// CHECK:       scf.if
// CHECK:         blk.store %{{.*}}[%[[COLS]]], %{{.*}} mask %[[IN_ROW]] :
// CHECK:       } else {
// CHECK:         blk.store %{{.*}}[%[[SHIFTED]]], %{{.*}} mask %[[IN_ROW]] {blk.fallback}
// CHECK-NOT:   arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<256xi32>
// CHECK:       return
func.func @split_part(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                      %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %pid = blk.program_id x
  %c4 = arith.constant 4 : i32
  %c256 = arith.constant 256 : i32
  %row = arith.divui %pid, %c4 : i32
  %part = arith.remui %pid, %c4 : i32
  %row_start = arith.muli %row, %stride : i32
  %part_start = arith.muli %part, %c256 : i32
  %start = arith.addi %row_start, %part_start : i32
  %in_part = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %firsts = blk.splat %part_start : i32 -> tensor<256xi32>
  %abs = arith.addi %cols, %firsts : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %abs, %n : tensor<256xi32>
  %x = blk.load %in_part[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %out_part = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %out_part[%cols], %x mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// An arange of another shape (the partials of softmax_split's normalize
// kernel) cannot meet the row's blocks elementwise: the row is peeled.
// CHECK-LABEL: func.func @other_shape_arange
// CHECK:       blk.arange 0 to 4 :
// CHECK:       blk.load %{{.*}}[%{{.*}}] : !blk.ptr<f32>, tensor<4xi32>
// CHECK:       scf.if
// CHECK:         blk.load
// CHECK:       } else {
// CHECK:         blk.load {{.*}} {blk.fallback}
func.func @other_shape_arange(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                              %partials: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %parts = blk.arange 0 to 4 : tensor<4xi32>
  %p = blk.load %partials[%parts] : !blk.ptr<f32>, tensor<4xi32> -> tensor<4xf32>
  %scale = blk.reduce sum %p axis 0 : tensor<4xf32> -> f32
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %s = blk.splat %scale : f32 -> tensor<256xf32>
  %y = arith.mulf %x, %s : tensor<256xf32>
  blk.store %out_row[%cols], %y mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// Parts of 384 columns (3 tiles of 128, a block that is not a power of
// two): `part * 384` is a multiple of the block by its constant factor,
// though its divisibility is only 128.
// CHECK-LABEL: func.func @split_part_tiled
// CHECK:       arith.divui %{{.*}}, %c384_i32
// CHECK:       scf.if
// CHECK:         blk.load
// CHECK:       } else {
// CHECK:         blk.load {{.*}} {blk.fallback}
func.func @split_part_tiled(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                            %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %pid = blk.program_id x
  %c4 = arith.constant 4 : i32
  %c384 = arith.constant 384 : i32
  %row = arith.divui %pid, %c4 : i32
  %part = arith.remui %pid, %c4 : i32
  %row_start = arith.muli %row, %stride : i32
  %part_start = arith.muli %part, %c384 : i32
  %start = arith.addi %row_start, %part_start : i32
  %in_part = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 384 : tensor<384xi32>
  %firsts = blk.splat %part_start : i32 -> tensor<384xi32>
  %abs = arith.addi %cols, %firsts : tensor<384xi32>
  %n = blk.splat %n_cols : i32 -> tensor<384xi32>
  %in_bounds = arith.cmpi slt, %abs, %n : tensor<384xi32>
  %x = blk.load %in_part[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<384xi32> -> tensor<384xf32>
  %out_part = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %out_part[%cols], %x mask %in_bounds : !blk.ptr<f32>, tensor<384xi32>, tensor<384xf32>
  return
}

// -----

// A part's first column that is not provably a multiple of the block: the
// shifted parts might not tile the row. Not peeled.
// CHECK-LABEL: func.func @split_part_any_first
// CHECK-NOT:   scf.if
func.func @split_part_any_first(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                                %stride: i32, %n_cols: i32, %part_start: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %row_start = arith.muli %row, %stride : i32
  %start = arith.addi %row_start, %part_start : i32
  %in_part = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %firsts = blk.splat %part_start : i32 -> tensor<256xi32>
  %abs = arith.addi %cols, %firsts : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %abs, %n : tensor<256xi32>
  %x = blk.load %in_part[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %out_part = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %out_part[%cols], %x mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// Columns offset by a part whose accesses do not start at that part (the
// row pointer is the row's, not the part's): the columns shifted before a
// part would not be the previous part's last ones. Not peeled.
// CHECK-LABEL: func.func @split_part_row_pointer
// CHECK-NOT:   scf.if
func.func @split_part_row_pointer(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                                  %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %pid = blk.program_id x
  %c4 = arith.constant 4 : i32
  %c256 = arith.constant 256 : i32
  %row = arith.divui %pid, %c4 : i32
  %part = arith.remui %pid, %c4 : i32
  %start = arith.muli %row, %stride : i32
  %part_start = arith.muli %part, %c256 : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %firsts = blk.splat %part_start : i32 -> tensor<256xi32>
  %abs = arith.addi %cols, %firsts : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %abs, %n : tensor<256xi32>
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %x mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// An access without a mask reads every column of the block: no padding
// to shift into.
// CHECK-LABEL: func.func @unmasked
// CHECK-NOT:   scf.if
func.func @unmasked(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                    %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %x = blk.load %in_row[%cols] : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  blk.store %out_row[%cols], %x mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// Another use of the columns (their values enter the arithmetic): the
// shifted slots would compute something else.
// CHECK-LABEL: func.func @columns_as_values
// CHECK-NOT:   scf.if
func.func @columns_as_values(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                             %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %c = arith.sitofp %cols : tensor<256xi32> to tensor<256xf32>
  %y = arith.mulf %x, %c : tensor<256xf32>
  blk.store %out_row[%cols], %y mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// A second arange shares the mask: its store would move off its row with
// the shifted mask, and its blocks would keep their positions. Not peeled.
// CHECK-LABEL: func.func @second_arange
// CHECK-NOT:   scf.if
// CHECK:       arith.cmpi slt
// CHECK-NOT:   blk.fallback
func.func @second_arange(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %out: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                         %stride: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %cols2 = blk.arange 0 to 256 : tensor<256xi32>
  blk.store %out_row[%cols2], %x mask %in_bounds : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}

// -----

// A row start computed from the mask itself cannot move before it: the
// row is left as it is, and the IR stays valid.
// CHECK-LABEL: func.func @start_from_mask
// CHECK-NOT:   scf.if
func.func @start_from_mask(%in: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  %n = blk.splat %n_cols : i32 -> tensor<256xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<256xi32>
  %ones = arith.extui %in_bounds : tensor<256xi1> to tensor<256xi32>
  %count = blk.reduce sum %ones axis 0 : tensor<256xi32> -> i32
  %in_row = blk.addptr %in, %count : !blk.ptr<f32>, i32
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  return
}

// -----

// A causal row (softmax_scaled_masked.mlir): the load's mask is the row
// bound and `!(cols > last)`. The comparison with `last` is positional
// and moves with the block onto the shifted columns; the load keeps the
// conjunction, which still holds each lane to the row.
// CHECK-LABEL: func.func @causal_row
// CHECK:       %[[COLS:.*]] = blk.arange 0 to 1024
// CHECK:       %[[SHIFTED:.*]] = arith.addi %[[COLS]], %{{.*}} : tensor<1024xi32>
// CHECK:       %[[IN_ROW:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<1024xi1>
// CHECK:       %[[BEYOND:.*]] = arith.cmpi sgt, %[[SHIFTED]], %{{.*}} : tensor<1024xi32>
// CHECK:       %[[KEPT:.*]] = arith.xori %[[BEYOND]], %{{.*}} : tensor<1024xi1>
// CHECK:       %[[KEEP:.*]] = arith.andi %[[IN_ROW]], %[[KEPT]] : tensor<1024xi1>
// CHECK:       scf.if
// CHECK:         blk.load %{{.*}}[%[[COLS]]] mask %[[KEEP]]
// CHECK:       } else {
// CHECK:         blk.load %{{.*}}[%[[SHIFTED]]] mask %[[KEEP]] other %{{.*}} {blk.fallback}
// CHECK:       scf.if
// CHECK:         blk.store %{{.*}}[%[[COLS]]], %{{.*}} mask %[[IN_ROW]] :
// CHECK:       } else {
// CHECK:         blk.store %{{.*}}[%[[SHIFTED]]], %{{.*}} mask %[[IN_ROW]] {blk.fallback}
// CHECK:       return
func.func @causal_row(%out: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %in: !blk.ptr<bf16> {blk.divisibility = 16 : i64},
                      %stride: i32, %last: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<bf16>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<bf16>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %n = blk.splat %n_cols : i32 -> tensor<1024xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %lasts = blk.splat %last : i32 -> tensor<1024xi32>
  %beyond = arith.cmpi sgt, %cols, %lasts : tensor<1024xi32>
  %true = arith.constant true
  %trues = blk.splat %true : i1 -> tensor<1024xi1>
  %kept = arith.xori %beyond, %trues : tensor<1024xi1>
  %keep = arith.andi %in_bounds, %kept : tensor<1024xi1>
  %ninf = arith.constant 0xFF80 : bf16
  %x = blk.load %in_row[%cols] mask %keep other %ninf : !blk.ptr<bf16>, tensor<1024xi32> -> tensor<1024xbf16>
  blk.store %out_row[%cols], %x mask %in_bounds : !blk.ptr<bf16>, tensor<1024xi32>, tensor<1024xbf16>
  return
}

// -----

// Two comparisons `cols < splat(s)` that every mask implies: which one is
// the row's length is not known, so the row is left as it is.
// CHECK-LABEL: func.func @two_bounds
// CHECK-NOT:   scf.if
// CHECK-NOT:   blk.fallback
func.func @two_bounds(%in: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %stride: i32, %a: i32, %b: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<bf16>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %as = blk.splat %a : i32 -> tensor<1024xi32>
  %bs = blk.splat %b : i32 -> tensor<1024xi32>
  %below_a = arith.cmpi slt, %cols, %as : tensor<1024xi32>
  %below_b = arith.cmpi slt, %cols, %bs : tensor<1024xi32>
  %both = arith.andi %below_a, %below_b : tensor<1024xi1>
  %x = blk.load %in_row[%cols] mask %both : !blk.ptr<bf16>, tensor<1024xi32> -> tensor<1024xbf16>
  blk.store %in_row[%cols], %x mask %both : !blk.ptr<bf16>, tensor<1024xi32>, tensor<1024xbf16>
  return
}

// -----

// A mask that lets lanes past the row through (a disjunction with another
// comparison) would let the shifted slots before the row be read: not
// peeled.
// CHECK-LABEL: func.func @mask_past_row
// CHECK-NOT:   scf.if
// CHECK-NOT:   blk.fallback
func.func @mask_past_row(%in: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %stride: i32, %first: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<bf16>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %n = blk.splat %n_cols : i32 -> tensor<1024xi32>
  %firsts = blk.splat %first : i32 -> tensor<1024xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %head = arith.cmpi slt, %cols, %firsts : tensor<1024xi32>
  %either = arith.ori %in_bounds, %head : tensor<1024xi1>
  %x = blk.load %in_row[%cols] mask %either : !blk.ptr<bf16>, tensor<1024xi32> -> tensor<1024xbf16>
  blk.store %in_row[%cols], %x mask %in_bounds : !blk.ptr<bf16>, tensor<1024xi32>, tensor<1024xbf16>
  return
}

// -----

// A causal predicate used alone, outside a mask that holds it to the row
// (here the select of the scores): on the slots before a shifted row it
// would be `cols' > last` of a negative column, where the unshifted block
// has `cols > last` of a column past the row. Not peeled.
// CHECK-LABEL: func.func @predicate_outside_row
// CHECK-NOT:   scf.if
// CHECK-NOT:   blk.fallback
func.func @predicate_outside_row(%out: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %in: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                                 %stride: i32, %last: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %n = blk.splat %n_cols : i32 -> tensor<1024xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %lasts = blk.splat %last : i32 -> tensor<1024xi32>
  %beyond = arith.cmpi sgt, %cols, %lasts : tensor<1024xi32>
  %true = arith.constant true
  %trues = blk.splat %true : i1 -> tensor<1024xi1>
  %kept = arith.xori %beyond, %trues : tensor<1024xi1>
  %keep = arith.andi %in_bounds, %kept : tensor<1024xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %ninfs = blk.splat %ninf : f32 -> tensor<1024xf32>
  %x = blk.load %in_row[%cols] mask %keep other %ninf : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  %scores = arith.select %kept, %x, %ninfs : tensor<1024xi1>, tensor<1024xf32>
  %max = blk.reduce max %scores axis 0 : tensor<1024xf32> -> f32
  %maxes = blk.splat %max : f32 -> tensor<1024xf32>
  blk.store %out_row[%cols], %maxes mask %in_bounds : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
  return
}

// -----

// A predicate counted (its bits summed): the count would change with the
// shift. Not peeled.
// CHECK-LABEL: func.func @predicate_counted
// CHECK-NOT:   scf.if
func.func @predicate_counted(%out: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %in: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                             %stride: i32, %last: i32, %n_cols: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %out_row = blk.addptr %out, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  %n = blk.splat %n_cols : i32 -> tensor<1024xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %lasts = blk.splat %last : i32 -> tensor<1024xi32>
  %early = arith.cmpi sge, %lasts, %cols : tensor<1024xi32>
  %ones = arith.extui %early : tensor<1024xi1> to tensor<1024xi32>
  %count = blk.reduce sum %ones axis 0 : tensor<1024xi32> -> i32
  %x = blk.load %in_row[%cols] mask %in_bounds : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  %c = arith.sitofp %count : i32 to f32
  %cs = blk.splat %c : f32 -> tensor<1024xf32>
  %y = arith.mulf %x, %cs : tensor<1024xf32>
  blk.store %out_row[%cols], %y mask %in_bounds : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
  return
}
