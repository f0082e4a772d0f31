// RUN: softmax-opt %s --blk-distribute --split-input-file -verify-diagnostics
// RUN: not softmax-opt %s --blk-set-launch-shape=num-warps=3 --blk-distribute 2>&1 | FileCheck %s --check-prefix=WARPS

// WARPS: num_warps must be a power of two from 1 to 32, but got 3

func.func @unbound(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{compile-time constant 'BLOCK' is not bound; run --blk-specialize="BLOCK=<value>" first}}
  %b = blk.constexpr BLOCK : i32
  return
}

// -----

func.func @dynamic(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{block 'tensor<?xi32>' has a dynamic shape; bind its compile-time constants with --blk-specialize first}}
  %c = blk.arange 0 to BLOCK : tensor<?xi32>
  return
}

// -----

func.func @rank3(%x: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{blocks of rank 3 are not supported (1 or 2)}}
  %s = blk.splat %x : f32 -> tensor<2x2x2xf32>
  return
}

// -----

func.func @not_power_of_two(%x: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{2-D block 'tensor<4x3xf32>' has dimension 3, which is not a power of two; use a larger block and mask the tail}}
  %s = blk.splat %x : f32 -> tensor<4x3xf32>
  return
}

// -----

// 3000 elements, which 4 warps of 4-element runs (a tile of 512) do not
// divide: the last 440 would belong to no thread.
func.func @not_whole_tiles(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{block 'tensor<3000xi32>' has dimension 3000, which is neither a power of two nor a multiple of its layout's tile of 512 elements along it}}
  %cols = blk.arange 0 to 3000 : tensor<3000xi32>
  %x = blk.load %p[%cols] : !blk.ptr<f32>, tensor<3000xi32> -> tensor<3000xf32>
  blk.store %p[%cols], %x : !blk.ptr<f32>, tensor<3000xi32>, tensor<3000xf32>
  return
}

// -----

func.func @too_large(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{block 'tensor<32768xi32>' needs 256 registers per thread with 4 warps (at most 128); use more warps (num_warps up to 32) or walk the row in tiles with scf.for, as softmax_tiled.mlir does}}
  %cols = blk.arange 0 to 32768 : tensor<32768xi32>
  %x = blk.load %p[%cols] : !blk.ptr<f32>, tensor<32768xi32> -> tensor<32768xf32>
  return
}

// -----

// A loaded 1-D block cannot be both (an arange could: each use gets its own
// copy, distribute.mlir's @arange_both_ways).
func.func @rows_and_columns(%p: !blk.ptr<i32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %i = blk.arange 0 to 8 : tensor<8xi32>
  %x = blk.load %p[%i] : !blk.ptr<i32>, tensor<8xi32> -> tensor<8xi32>
  %r = blk.expand_dims %x axis 1 : tensor<8xi32> -> tensor<8x1xi32>
  // expected-error @+1 {{needs its 1-D block as a slice of dimension 0 of the 2-D layout, but the block is already a slice of dimension 1 (per-row values slice dimension 1, column indices dimension 0); converting between them is not supported}}
  %c = blk.expand_dims %x axis 0 : tensor<8xi32> -> tensor<1x8xi32>
  return
}

// -----

func.func @rank0(%x: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{blocks of rank 0 are not supported (1 or 2)}}
  %s = blk.splat %x : f32 -> tensor<f32>
  return
}
