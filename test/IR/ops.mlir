// Every blk op, type and attribute parses, prints, and parses again, in the
// custom form and in the generic form.
// RUN: softmax-opt %s | softmax-opt | FileCheck %s
// RUN: softmax-opt %s --mlir-print-op-generic | softmax-opt | FileCheck %s

// CHECK: #blocked = #blk.blocked<elems = [4], lanes = [32], warps = [16], ctas = [4]>
// CHECK: #[[FRAGMENTS:.*]] = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>
// CHECK: #[[ROWS:.*]] = #blk.blocked<elems = [1, 8], lanes = [2, 16], warps = [4, 1]>
// CHECK-LABEL: func.func @program_ids
// CHECK-SAME: attributes {blk.kernel = #blk.kernel<num_warps = 8>}
func.func @program_ids(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  // CHECK: blk.program_id x
  %0 = blk.program_id x
  // CHECK: blk.program_id y
  %1 = blk.program_id y
  // CHECK: blk.num_programs z
  %2 = blk.num_programs z
  return
}

// CHECK-LABEL: func.func @on_a_cluster
// CHECK-SAME: #blk.kernel<num_warps = 16, num_ctas = 4>
func.func @on_a_cluster() attributes {blk.kernel = #blk.kernel<num_warps = 16, num_ctas = 4>} {
  return
}

// CHECK-LABEL: func.func private @cluster_layout
// CHECK-SAME: tensor<65536xf32, #blocked>
func.func private @cluster_layout(tensor<65536xf32, #blk.blocked<elems = [4], lanes = [32], warps = [16], ctas = [4]>>)

// CHECK-LABEL: func.func @persistent_pipelined_cluster
// CHECK-SAME: #blk.kernel<num_warps = 4, grid = persistent, num_ctas = 8, num_stages = 2>
func.func @persistent_pipelined_cluster() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 2, num_ctas = 8, grid = persistent>} {
  return
}

// CHECK-LABEL: func.func @two_ctas_per_sm
// CHECK-SAME: #blk.kernel<num_warps = 16, grid = persistent, min_ctas_per_sm = 2>
func.func @two_ctas_per_sm() attributes {blk.kernel = #blk.kernel<num_warps = 16, min_ctas_per_sm = 2, grid = persistent>} {
  return
}

// CHECK-LABEL: func.func @kernel_options_in_any_order
// CHECK-SAME: #blk.kernel<num_warps = 2, grid = persistent>
func.func @kernel_options_in_any_order() attributes {blk.kernel = #blk.kernel<num_warps = 2, num_ctas = 1, grid = persistent>} {
  return
}

// CHECK-LABEL: func.func @program_barrier
// CHECK: blk.program_barrier %{{.*}}, %{{.*}} : !blk.ptr<i64>, i32
func.func @program_barrier(%arrivals: !blk.ptr<i64>, %count: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent>} {
  blk.program_barrier %arrivals, %count : !blk.ptr<i64>, i32
  return
}

// The kernel ABI, declared: every role and shape, and the constants' roles.
// CHECK-LABEL: func.func @declared_abi
// CHECK-SAME: {blk.arg = #blk.arg<output "y">}
// CHECK-SAME: {blk.arg = #blk.arg<input "x">}
// CHECK-SAME: {blk.arg = #blk.arg<row_stride "x">}
// CHECK-SAME: {blk.arg = #blk.arg<rows>}
// CHECK-SAME: {blk.arg = #blk.arg<cols>}
// CHECK-SAME: {blk.arg = #blk.arg<input "weight", per_col>}
// CHECK-SAME: {blk.arg = #blk.arg<output "loss", per_row>}
// CHECK-SAME: {blk.arg = #blk.arg<scratch "partials">}
// CHECK-SAME: {blk.arg = #blk.arg<param "eps">}
// CHECK-SAME: #blk.kernel<num_warps = 4, row_block = BLOCK, rows_per_program = ROWS, row_splits = SPLITS>
func.func @declared_abi(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                        %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                        %x_stride: i64 {blk.arg = #blk.arg<row_stride "x">},
                        %m: i32 {blk.arg = #blk.arg<rows>},
                        %n: i32 {blk.arg = #blk.arg<cols>},
                        %w: !blk.ptr<bf16> {blk.arg = #blk.arg<input "weight", per_col>},
                        %loss: !blk.ptr<f32> {blk.arg = #blk.arg<output "loss", per_row>},
                        %p: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "partials", matrix>},
                        %eps: f32 {blk.arg = #blk.arg<param "eps">})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_splits = SPLITS, row_block = BLOCK, rows_per_program = ROWS>} {
  %a = blk.constexpr BLOCK : i32
  %b = blk.constexpr ROWS : i32
  %c = blk.constexpr SPLITS : i32
  return
}

// A product's ABI: its operands' shapes, the inner dimension, the K step.
// CHECK-LABEL: func.func @product_abi
// CHECK-SAME: {blk.arg = #blk.arg<input "a", rows_by_inner>}
// CHECK-SAME: {blk.arg = #blk.arg<input "b", inner_by_cols>}
// CHECK-SAME: {blk.arg = #blk.arg<row_stride "b">}
// CHECK-SAME: {blk.arg = #blk.arg<inner>}
// CHECK-SAME: #blk.kernel<num_warps = 8, row_block = BLOCK, inner_block = KT>
func.func @product_abi(%a: !blk.ptr<bf16> {blk.arg = #blk.arg<input "a", rows_by_inner>},
                       %b: !blk.ptr<bf16> {blk.arg = #blk.arg<input "b", inner_by_cols>},
                       %b_stride: i32 {blk.arg = #blk.arg<row_stride "b">},
                       %k: i32 {blk.arg = #blk.arg<inner>})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, inner_block = KT, row_block = BLOCK>} {
  %block = blk.constexpr BLOCK : i32
  %step = blk.constexpr KT : i32
  return
}

// CHECK-LABEL: func.func @pointer_types
// CHECK-SAME: !blk.ptr<f32> {blk.divisibility = 16 : i64}
// CHECK-SAME: !blk.ptr<f16>
// CHECK-SAME: !blk.ptr<bf16>
// CHECK-SAME: !blk.ptr<i32>
// CHECK-SAME: i32 {blk.divisibility = 4 : i64}
func.func @pointer_types(%a: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                         %b: !blk.ptr<f16>, %c: !blk.ptr<bf16>, %d: !blk.ptr<i32>,
                         %n: i32 {blk.divisibility = 4 : i64}) {
  return
}

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: blk.constexpr BLOCK : i32
  %0 = blk.constexpr BLOCK : i32
  // CHECK: blk.constexpr ROWS_PER_PROGRAM : index
  %1 = blk.constexpr ROWS_PER_PROGRAM : index
  return
}

// CHECK-LABEL: func.func @making_blocks
func.func @making_blocks(%x: f32, %i: i32) {
  // CHECK: blk.arange 0 to 1024 : tensor<1024xi32>
  %0 = blk.arange 0 to 1024 : tensor<1024xi32>
  // CHECK: blk.arange 16 to 32 : tensor<16xi32>
  %1 = blk.arange 16 to 32 : tensor<16xi32>
  // CHECK: blk.arange 0 to 57344 : tensor<57344xi32>
  %r = blk.arange 0 to 57344 : tensor<57344xi32>
  // CHECK: blk.arange 0 to BLOCK : tensor<?xi32>
  %2 = blk.arange 0 to BLOCK : tensor<?xi32>
  // CHECK: blk.splat %{{.*}} : f32 -> tensor<4x128xf32>
  %3 = blk.splat %x : f32 -> tensor<4x128xf32>
  // CHECK: blk.splat %{{.*}} [ROWS, BLOCK] : i32 -> tensor<?x?xi32>
  %4 = blk.splat %i [ROWS, BLOCK] : i32 -> tensor<?x?xi32>
  // CHECK: blk.splat %{{.*}} [4, BLOCK] : f32 -> tensor<4x?xf32>
  %5 = blk.splat %x [4, BLOCK] : f32 -> tensor<4x?xf32>
  return
}

// CHECK-LABEL: func.func @reshaping
func.func @reshaping(%rows: tensor<4xf32>, %dyn: tensor<?xi32>) {
  // CHECK: blk.expand_dims %{{.*}} axis 1 : tensor<4xf32> -> tensor<4x1xf32>
  %0 = blk.expand_dims %rows axis 1 : tensor<4xf32> -> tensor<4x1xf32>
  // CHECK: blk.expand_dims %{{.*}} axis 0 : tensor<4xf32> -> tensor<1x4xf32>
  %1 = blk.expand_dims %rows axis 0 : tensor<4xf32> -> tensor<1x4xf32>
  // CHECK: blk.broadcast %{{.*}} : tensor<4x1xf32> -> tensor<4x256xf32>
  %2 = blk.broadcast %0 : tensor<4x1xf32> -> tensor<4x256xf32>
  // CHECK: blk.expand_dims %{{.*}} axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  %3 = blk.expand_dims %dyn axis 0 : tensor<?xi32> -> tensor<1x?xi32>
  // CHECK: blk.broadcast %{{.*}} [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
  %4 = blk.broadcast %3 [ROWS, BLOCK] : tensor<1x?xi32> -> tensor<?x?xi32>
  return
}

// CHECK-LABEL: func.func @converting_layouts
func.func @converting_layouts(%x: tensor<64x128xf32>, %dyn: tensor<?x?xf32>,
    %held: tensor<64x128xbf16, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>) {
  // CHECK: blk.convert_layout %{{.*}} : tensor<64x128xf32> -> tensor<64x128xf32>
  %0 = blk.convert_layout %x : tensor<64x128xf32> -> tensor<64x128xf32>
  // CHECK: blk.convert_layout %{{.*}} : tensor<?x?xf32> -> tensor<?x?xf32>
  %1 = blk.convert_layout %dyn : tensor<?x?xf32> -> tensor<?x?xf32>
  // CHECK: blk.convert_layout %{{.*}} : tensor<64x128xbf16, #[[FRAGMENTS]]> -> tensor<64x128xbf16, #[[ROWS]]>
  %2 = blk.convert_layout %held : tensor<64x128xbf16, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>> -> tensor<64x128xbf16, #blk.blocked<elems = [1, 8], lanes = [2, 16], warps = [4, 1]>>
  return
}

// CHECK-LABEL: func.func @memory
func.func @memory(%p: !blk.ptr<f32>, %q: !blk.ptr<bf16>, %off: i32, %off64: i64,
                  %cols: tensor<256xi32>, %mask: tensor<256xi1>,
                  %cols2d: tensor<2x128xi64>, %mask2d: tensor<2x128xi1>) {
  // CHECK: blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<f32>, i32
  %row = blk.addptr %p, %off : !blk.ptr<f32>, i32
  // CHECK: blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<bf16>, i64
  %qrow = blk.addptr %q, %off64 : !blk.ptr<bf16>, i64
  // CHECK: blk.load %{{.*}}[%{{.*}}] : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %0 = blk.load %row[%cols] : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  // CHECK: blk.load %{{.*}}[%{{.*}}] mask %{{.*}} : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %1 = blk.load %row[%cols] mask %mask : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  %zero = arith.constant 0.0 : bf16
  // CHECK: blk.load %{{.*}}[%{{.*}}] mask %{{.*}} other %{{.*}} : !blk.ptr<bf16>, tensor<2x128xi64> -> tensor<2x128xbf16>
  %2 = blk.load %qrow[%cols2d] mask %mask2d other %zero : !blk.ptr<bf16>, tensor<2x128xi64> -> tensor<2x128xbf16>
  // CHECK: blk.store %{{.*}}[%{{.*}}], %{{.*}} : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  blk.store %row[%cols], %0 : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  // CHECK: blk.store %{{.*}}[%{{.*}}], %{{.*}} mask %{{.*}} : !blk.ptr<bf16>, tensor<2x128xi64>, tensor<2x128xbf16>
  blk.store %qrow[%cols2d], %2 mask %mask2d : !blk.ptr<bf16>, tensor<2x128xi64>, tensor<2x128xbf16>
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%a: tensor<1024xf32>, %b: tensor<4x256xf32>, %c: tensor<?xi32>) {
  // CHECK: blk.reduce max %{{.*}} axis 0 : tensor<1024xf32> -> f32
  %0 = blk.reduce max %a axis 0 : tensor<1024xf32> -> f32
  // CHECK: blk.reduce sum %{{.*}} axis 1 : tensor<4x256xf32> -> tensor<4xf32>
  %1 = blk.reduce sum %b axis 1 : tensor<4x256xf32> -> tensor<4xf32>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = blk.max_exp_sum %{{.*}} axis 0 : tensor<1024xf32> -> f32, f32, tensor<1024xf32>
  %m0, %s0, %e0 = blk.max_exp_sum %a axis 0 : tensor<1024xf32> -> f32, f32, tensor<1024xf32>
  // CHECK: blk.max_exp_sum %{{.*}} axis 1 : tensor<4x256xf32> -> tensor<4xf32>, tensor<4xf32>, tensor<4x256xf32>
  %m1, %s1, %e1 = blk.max_exp_sum %b axis 1 : tensor<4x256xf32> -> tensor<4xf32>, tensor<4xf32>, tensor<4x256xf32>
  // CHECK: %{{.*}}, %{{.*}} = blk.sum_centered_squares %{{.*}} mask %{{.*}} divisor %{{.*}} axis 0 : tensor<1024xf32>, tensor<1024xi1>
  %mask = arith.cmpf ogt, %a, %a : tensor<1024xf32>
  %n = arith.constant 1024.0 : f32
  %s2, %q2 = blk.sum_centered_squares %a mask %mask divisor %n axis 0 : tensor<1024xf32>, tensor<1024xi1>
  // CHECK: blk.sum_centered_squares %{{.*}} divisor %{{.*}} axis 0 : tensor<1024xf32>{{$}}
  %s3, %q3 = blk.sum_centered_squares %a divisor %n axis 0 : tensor<1024xf32>
  // CHECK: blk.reduce max %{{.*}} axis 0 : tensor<4x256xf32> -> tensor<256xf32>
  %2 = blk.reduce max %b axis 0 : tensor<4x256xf32> -> tensor<256xf32>
  // CHECK: blk.reduce sum %{{.*}} axis 0 : tensor<?xi32> -> i32
  %3 = blk.reduce sum %c axis 0 : tensor<?xi32> -> i32
  return
}

// CHECK-LABEL: func.func @shared_memory
func.func @shared_memory(%x: tensor<32768xbf16>, %y: tensor<4x256xf32>) {
  // CHECK: %[[B:.*]] = blk.local_alloc %{{.*}} : tensor<32768xbf16> -> !blk.shared<32768xbf16>
  %b = blk.local_alloc %x : tensor<32768xbf16> -> !blk.shared<32768xbf16>
  // CHECK: blk.local_load %[[B]] : !blk.shared<32768xbf16> -> tensor<32768xbf16>
  %0 = blk.local_load %b : !blk.shared<32768xbf16> -> tensor<32768xbf16>
  // CHECK: blk.local_alloc %{{.*}} : tensor<4x256xf32> -> !blk.shared<4x256xf32>
  %c = blk.local_alloc %y : tensor<4x256xf32> -> !blk.shared<4x256xf32>
  return
}

#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

// CHECK-LABEL: func.func @async_copy
func.func @async_copy(%p: !blk.ptr<bf16>, %cols: tensor<1024xi32, #row>, %m: tensor<1024xi1, #row>, %o: bf16) {
  // CHECK: %[[B:.*]] = blk.async_copy %{{.*}}[%{{.*}}] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #{{.*}}> -> !blk.shared<1024xbf16>
  %b = blk.async_copy %p[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #row> -> !blk.shared<1024xbf16>
  // CHECK: blk.async_copy %{{.*}}[%{{.*}}] mask %{{.*}} other %{{.*}} : !blk.ptr<bf16>, tensor<1024xi32, #{{.*}}> -> !blk.shared<1024xbf16>
  %c = blk.async_copy %p[%cols] mask %m other %o : !blk.ptr<bf16>, tensor<1024xi32, #row> -> !blk.shared<1024xbf16>
  // CHECK: blk.async_wait %[[B]] : !blk.shared<1024xbf16>
  blk.async_wait %b : !blk.shared<1024xbf16>
  return
}

#tile = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>
#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

// A K step's copies by TMA (blk-pipeline-dot-operands with tensor maps):
// barriers a slot, one announcement of the step's bytes, a copy per
// operand through its tensor map (A's whole tile as one rotated box where it
// lies inside the matrix, else in boxes of 8 rows), a wait for the phase.
// CHECK-LABEL: func.func @tensor_copy_ops
// CHECK-SAME: !blk.tensor_map<8x64xbf16> {blk.arg = #blk.arg<tensor_map "a">}, %{{.*}}: !blk.tensor_map<64x64xbf16, rotation = [3, 3]> {blk.arg = #blk.arg<tensor_map "a">}
func.func @tensor_copy_ops(%a: !blk.ptr<bf16> {blk.arg = #blk.arg<input "a", rows_by_inner>},
                           %a_map: !blk.tensor_map<8x64xbf16> {blk.arg = #blk.arg<tensor_map "a">},
                           %a_whole: !blk.tensor_map<64x64xbf16, rotation = [3, 3]> {blk.arg = #blk.arg<tensor_map "a">},
                           %row: i32 {blk.arg = #blk.arg<param "row">}, %col: i32 {blk.arg = #blk.arg<param "col">},
                           %i: i32 {blk.arg = #blk.arg<param "i">}, %inside: i1 {blk.arg = #blk.arg<param "inside">})
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %ring = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  %slot = blk.local_index %ring[%i] : !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>> -> !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  // CHECK: %[[BARS:.*]] = blk.init_barriers : !blk.barriers<3>
  %bars = blk.init_barriers : !blk.barriers<3>
  // CHECK: blk.barrier_expect %[[BARS]][%{{.*}}], 8192 if %{{.*}} : !blk.barriers<3>
  blk.barrier_expect %bars[%i], 8192 if %inside : !blk.barriers<3>
  // CHECK: blk.tensor_copy_into %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%{{.*}}] if %{{.*}} : !blk.tensor_map<64x64xbf16, rotation = [3, 3]>, !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.barriers<3>
  blk.tensor_copy_into %a_whole[%row, %col] into %slot, %bars[%i] if %inside : !blk.tensor_map<64x64xbf16, rotation = [3, 3]>, !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.barriers<3>
  // CHECK: blk.tensor_copy_into %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}, %[[BARS]][%{{.*}}] : !blk.tensor_map<8x64xbf16>
  blk.tensor_copy_into %a_map[%row, %col] into %slot, %bars[%i] : !blk.tensor_map<8x64xbf16>, !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.barriers<3>
  // CHECK: blk.wait_barrier %[[BARS]][%{{.*}}], %{{.*}} : !blk.barriers<3>
  blk.wait_barrier %bars[%i], %col : !blk.barriers<3>
  return
}

// A K step of a product from rings of swizzled buffers
// (blk-pipeline-dot-operands' ops).
// CHECK-LABEL: func.func @ring_ops
func.func @ring_ops(%p: !blk.ptr<bf16>, %offsets: tensor<64x64xi32, #tile>, %m: tensor<64x64xi1, #tile>, %i: i32, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  // CHECK: %[[A:.*]] = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  %ring_a = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  // CHECK: %[[B:.*]] = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<>>
  %ring_b = blk.local_alloc -> !blk.shared<3x64x64xbf16, #blk.swizzled<>>
  // CHECK: %[[SA:.*]] = blk.local_index %[[A]][%{{.*}}] : !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>> -> !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  %a = blk.local_index %ring_a[%i] : !blk.shared<3x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>> -> !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  %b = blk.local_index %ring_b[%i] : !blk.shared<3x64x64xbf16, #blk.swizzled<>> -> !blk.shared<64x64xbf16, #blk.swizzled<>>
  // CHECK: blk.async_copy_into %{{.*}}[%{{.*}}] mask %{{.*}} into %[[SA]] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<64x64xi32, #{{.*}}>, !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  blk.async_copy_into %p[%offsets] mask %m into %a {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<64x64xi32, #tile>, !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  blk.async_copy_into %p[%offsets] into %b : !blk.ptr<bf16>, tensor<64x64xi32, #tile>, !blk.shared<64x64xbf16, #blk.swizzled<>>
  // CHECK: blk.async_commit_group
  blk.async_commit_group
  // CHECK: blk.barrier
  blk.barrier
  // CHECK: blk.async_wait_group 0
  blk.async_wait_group 0
  // CHECK: blk.warpgroup_dot %[[SA]], %{{.*}}, %{{.*}} : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #{{.*}}>
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  // CHECK: %[[E:.*]] = blk.warpgroup_dot {{.*}} {pending = 1 : i64}
  %e = blk.warpgroup_dot %a, %b, %d {pending = 1 : i64} : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  // A in registers, laid out as the accumulator; no barrier of its own.
  // CHECK: blk.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} {synchronize = false} : tensor<64x64xbf16, #{{.*}}>, !blk.shared<64x64xbf16, #blk.swizzled<>>
  %p16 = arith.truncf %e : tensor<64x64xf32, #mma> to tensor<64x64xbf16, #mma>
  %from_registers = blk.warpgroup_dot %p16, %b, %e {synchronize = false} : tensor<64x64xbf16, #mma>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  // CHECK: blk.warpgroup_wait 0 %[[E]] : tensor<64x64xf32, #{{.*}}>
  %f = blk.warpgroup_wait 0 %e : tensor<64x64xf32, #mma>
  return %f : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: func.func @dot
// CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<64x16xf32>
// CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16x?xf32>, tensor<?x?xf32>
// The default precision (ieee) is not printed; tf32 is.
// CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16x?xf32>, tensor<?x?xf32>
// CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} precision tf32 : tensor<?x16xf32>, tensor<16x?xf32>, tensor<?x?xf32>
func.func @dot(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %c: tensor<64x16xf32>,
               %x: tensor<?x16xf32>, %y: tensor<16x?xf32>, %z: tensor<?x?xf32>) {
  %d = blk.dot %a, %b, %c : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<64x16xf32>
  %e = blk.dot %x, %y, %z : tensor<?x16xf32>, tensor<16x?xf32>, tensor<?x?xf32>
  %f = blk.dot %x, %y, %z precision ieee : tensor<?x16xf32>, tensor<16x?xf32>, tensor<?x?xf32>
  %g = blk.dot %x, %y, %z precision tf32 : tensor<?x16xf32>, tensor<16x?xf32>, tensor<?x?xf32>
  return
}
