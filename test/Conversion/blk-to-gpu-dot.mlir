// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-attach-target=chip=sm_75 --convert-blk-to-gpu --split-input-file | FileCheck %s --check-prefix=SM75

#l = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1]>

// bf16 16 x 32 times 32 x 16 on sm_90 (the default chip), an accumulator
// whose layout does not hold mma fragments: mma.sync with the operands and
// the accumulator passed through the dot's region of the kernel's dynamic
// shared memory: A (16 x 32 bf16 in rows padded to 40 elements, 1280
// bytes), B (32 x 16 in rows of 24, 1536 bytes), C (16 x 16 f32, 1024
// bytes), row-major, a thread's runs of 4 elements one vector store. The four warps take the two 16 x 8 tiles of
// C in turn; each tile is two K steps of 16, A's fragment one
// ldmatrix.x4, B's one ldmatrix.x2.trans.
// CHECK: blk.launch = [#blk.launch<kernel = "dot_bf16", threads = 128, ctas = 1, staticSharedBytes = 0, dynamicSharedBytes = 3840,
// CHECK-LABEL: gpu.func @dot_bf16
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store {{.*}} {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32
// CHECK: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK: vector.from_elements {{.*}} : vector<8xf32>
// SM75-LABEL: gpu.func @dot_bf16
// SM75-NOT: nvvm.mma.sync
// SM75: arith.mulf
func.func @dot_bf16(%p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<16x32xbf16, #l>
  %b = blk.splat %x : bf16 -> tensor<32x16xbf16, #l>
  %c = blk.splat %y : f32 -> tensor<16x16xf32, #l>
  %d = blk.dot %a, %b, %c : tensor<16x32xbf16, #l>, tensor<32x16xbf16, #l>, tensor<16x16xf32, #l>
  %rows = blk.arange 0 to 16 : tensor<16xi32, #blk.slice<dim = 1, parent = #l>>
  %r = blk.expand_dims %rows axis 1 : tensor<16xi32, #blk.slice<dim = 1, parent = #l>> -> tensor<16x1xi32, #l>
  %rb = blk.broadcast %r [16, 16] : tensor<16x1xi32, #l> -> tensor<16x16xi32, #l>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<16x16xi32, #l>, tensor<16x16xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1]>

// f16 takes its pairs as vector<2xf16>. Directly in a loop, iterations
// alternate between two copies of the region (2 x 1792 bytes): the copy
// iteration i + 2 writes was read in iteration i, before every warp passed
// the barrier after iteration i + 1's stores, so no barrier comes before
// the stores.
// CHECK: kernel = "dot_f16_in_loop", {{.*}}dynamicSharedBytes = 3584,
// CHECK-LABEL: gpu.func @dot_f16_in_loop
// CHECK: scf.for {{.*}} iter_args
// CHECK: arith.divui
// CHECK: arith.muli
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store {{.*}} : vector<4xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.bitcast {{.*}} : i32 to vector<2xf16>
// CHECK: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @dot_f16_in_loop(%p: !blk.ptr<f32>, %x: f16, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : f16 -> tensor<16x16xf16, #l>
  %b = blk.splat %x : f16 -> tensor<16x8xf16, #l>
  %zero = arith.constant 0.0 : f32
  %c0 = blk.splat %zero : f32 -> tensor<16x8xf32, #l>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %c = scf.for %k = %i0 to %n step %i1 iter_args(%acc = %c0) -> (tensor<16x8xf32, #l>) : i32 {
    %next = blk.dot %a, %b, %acc : tensor<16x16xf16, #l>, tensor<16x8xf16, #l>, tensor<16x8xf32, #l>
    scf.yield %next : tensor<16x8xf32, #l>
  }
  %rows = blk.arange 0 to 16 : tensor<16xi32, #blk.slice<dim = 1, parent = #l>>
  %r = blk.expand_dims %rows axis 1 : tensor<16xi32, #blk.slice<dim = 1, parent = #l>> -> tensor<16x1xi32, #l>
  %rb = blk.broadcast %r [16, 8] : tensor<16x1xi32, #l> -> tensor<16x8xi32, #l>
  blk.store %p[%rb], %c : !blk.ptr<f32>, tensor<16x8xi32, #l>, tensor<16x8xf32, #l>
  return
}

// -----

#l = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1]>

// f32 inputs (and shapes off the fragment) take f32 multiplies and adds
// (each product rounded, as blk.dot defines it): A (8 x 4) and B (4 x 64)
// in shared memory (rows padded by 16 bytes: 256 + 1088 bytes), each
// thread's accumulator elements (1 x 4 of 8 x 64) summed k by k.
// CHECK: blk.launch = [#blk.launch<kernel = "dot_f32", {{.*}}dynamicSharedBytes = 1344,
// CHECK-LABEL: gpu.func @dot_f32
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK: scf.for {{.*}} iter_args
// CHECK-COUNT-4: arith.addf
// CHECK-NOT: llvm.intr.fma
// CHECK: scf.yield
func.func @dot_f32(%p: !blk.ptr<f32>, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %y : f32 -> tensor<8x4xf32, #l>
  %b = blk.splat %y : f32 -> tensor<4x64xf32, #l>
  %c = blk.splat %y : f32 -> tensor<8x64xf32, #l>
  %d = blk.dot %a, %b, %c : tensor<8x4xf32, #l>, tensor<4x64xf32, #l>, tensor<8x64xf32, #l>
  %rows = blk.arange 0 to 8 : tensor<8xi32, #blk.slice<dim = 1, parent = #l>>
  %r = blk.expand_dims %rows axis 1 : tensor<8xi32, #blk.slice<dim = 1, parent = #l>> -> tensor<8x1xi32, #l>
  %rb = blk.broadcast %r [8, 64] : tensor<8x1xi32, #l> -> tensor<8x64xi32, #l>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<8x64xi32, #l>, tensor<8x64xf32, #l>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [2, 2]>

// An accumulator whose layout holds mma fragments (blk-distribute's choice
// for such a kernel) stays in registers: only A (32 x 32 bf16, rows padded
// to 40: 2560 bytes) and B (32 x 16, rows of 24: 1536 bytes) pass through
// shared memory, one barrier
// after their stores (none after the products). Warp (w0, w1) of 2 x 2
// holds rows 8 w0 + g (+ 16) and columns 8 w1 + 2t (+ 1): one fragment,
// two K steps.
// CHECK: blk.launch = [#blk.launch<kernel = "dot_in_registers", {{.*}}dynamicSharedBytes = 4096,
// CHECK-LABEL: gpu.func @dot_in_registers
// CHECK: gpu.barrier
// CHECK-NOT: scf.for
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
// SM75-LABEL: gpu.func @dot_in_registers
// SM75-NOT: nvvm.mma.sync
func.func @dot_in_registers(%p: !blk.ptr<f32>, %x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<32x32xbf16, #mma>
  %b = blk.splat %x : bf16 -> tensor<32x16xbf16, #mma>
  %c = blk.splat %y : f32 -> tensor<32x16xf32, #mma>
  %d = blk.dot %a, %b, %c : tensor<32x32xbf16, #mma>, tensor<32x16xbf16, #mma>, tensor<32x16xf32, #mma>
  %rows = blk.arange 0 to 32 : tensor<32xi32, #blk.slice<dim = 1, parent = #mma>>
  %r = blk.expand_dims %rows axis 1 : tensor<32xi32, #blk.slice<dim = 1, parent = #mma>> -> tensor<32x1xi32, #mma>
  %rb = blk.broadcast %r [32, 16] : tensor<32x1xi32, #mma> -> tensor<32x16xi32, #mma>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<32x16xi32, #mma>, tensor<32x16xf32, #mma>
  return
}

// -----

// A K loop inside another loop keeps one copy of the region and the barrier
// before the stores: each entry into the inner loop would start on the
// first copy, which its last iteration may have read (a review found it).
// CHECK: kernel = "nested", {{.*}}dynamicSharedBytes = 4096,
// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: arith.divui
// CHECK: gpu.barrier
// CHECK: llvm.store
// CHECK: gpu.barrier
// CHECK: nvvm.mma.sync
#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [2, 2]>
func.func @nested(%p: !blk.ptr<f32>, %x: bf16, %m: i32, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<32x32xbf16, #mma>
  %b = blk.splat %x : bf16 -> tensor<32x16xbf16, #mma>
  %zero = arith.constant 0.0 : f32
  %c0 = blk.splat %zero : f32 -> tensor<32x16xf32, #mma>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %o = scf.for %t = %i0 to %m step %i1 iter_args(%outer = %c0) -> (tensor<32x16xf32, #mma>) : i32 {
    %c = scf.for %k = %i0 to %n step %i1 iter_args(%acc = %outer) -> (tensor<32x16xf32, #mma>) : i32 {
      %next = blk.dot %a, %b, %acc : tensor<32x32xbf16, #mma>, tensor<32x16xbf16, #mma>, tensor<32x16xf32, #mma>
      scf.yield %next : tensor<32x16xf32, #mma>
    }
    scf.yield %c : tensor<32x16xf32, #mma>
  }
  %rows = blk.arange 0 to 32 : tensor<32xi32, #blk.slice<dim = 1, parent = #mma>>
  %r = blk.expand_dims %rows axis 1 : tensor<32xi32, #blk.slice<dim = 1, parent = #mma>> -> tensor<32x1xi32, #mma>
  %rb = blk.broadcast %r [32, 16] : tensor<32x1xi32, #mma> -> tensor<32x16xi32, #mma>
  blk.store %p[%rb], %o : !blk.ptr<f32>, tensor<32x16xi32, #mma>, tensor<32x16xf32, #mma>
  return
}

// -----

// A defined outside the dot's loop (attention's Q) is stored once, into
// both copies of the region, before the loop and after a barrier (what lay
// there before has been read); each iteration stores B alone.
// A thread's part of A is 4 pairs, of B 2.
// CHECK-LABEL: gpu.func @invariant_a
// CHECK: gpu.barrier
// CHECK-COUNT-8: llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: scf.for
// CHECK-COUNT-2: llvm.store {{.*}} : vector<2xbf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: gpu.barrier
// CHECK: nvvm.mma.sync
#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [2, 2]>
func.func @invariant_a(%p: !blk.ptr<f32>, %x: bf16, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<32x32xbf16, #mma>
  %zero = arith.constant 0.0 : f32
  %c0 = blk.splat %zero : f32 -> tensor<32x16xf32, #mma>
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %c = scf.for %k = %i0 to %n step %i1 iter_args(%acc = %c0) -> (tensor<32x16xf32, #mma>) : i32 {
    %kf = arith.sitofp %k : i32 to bf16
    %b = blk.splat %kf : bf16 -> tensor<32x16xbf16, #mma>
    %next = blk.dot %a, %b, %acc : tensor<32x32xbf16, #mma>, tensor<32x16xbf16, #mma>, tensor<32x16xf32, #mma>
    scf.yield %next : tensor<32x16xf32, #mma>
  }
  %rows = blk.arange 0 to 32 : tensor<32xi32, #blk.slice<dim = 1, parent = #mma>>
  %r = blk.expand_dims %rows axis 1 : tensor<32xi32, #blk.slice<dim = 1, parent = #mma>> -> tensor<32x1xi32, #mma>
  %rb = blk.broadcast %r [32, 16] : tensor<32x1xi32, #mma> -> tensor<32x16xi32, #mma>
  blk.store %p[%rb], %c : !blk.ptr<f32>, tensor<32x16xi32, #mma>, tensor<32x16xf32, #mma>
  return
}

// -----

#l = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1]>

// f32 inputs multiplied as tf32: m16n8k8 (two K steps of 8 for K = 16), A
// and B stored as f32 in rows padded by 16 bytes (16 x 20 f32 each, and C
// 16 x 16: 3584 bytes). A's fragment is one ldmatrix.x4 (a row of 16 bytes
// is 4 f32: lane 4g + t gets (g, t), (g + 8, t), (g, t + 4), (g + 8, t +
// 4)), B's two 32-bit loads ((t, g) and (t + 4, g)); each register rounded
// to tf32 (cvt.rna). On sm_75 (no mma.sync): f32 products of inputs
// rounded in arith (+ 0x1000, the 13 low bits cleared, NaN kept).
// CHECK: kernel = "dot_tf32", {{.*}}dynamicSharedBytes = 3584,
// CHECK-LABEL: gpu.func @dot_tf32
// CHECK: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-4: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
// CHECK: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK-NOT: nvvm.mma.sync
// SM75-LABEL: gpu.func @dot_tf32
// SM75-NOT: nvvm.mma.sync
// SM75: arith.bitcast %{{.*}} : f32 to i32
// SM75: arith.addi %{{.*}}, %c4096_i32
// SM75: arith.andi %{{.*}}, %c-8192_i32
// SM75: arith.cmpf uno
// SM75: arith.mulf
func.func @dot_tf32(%p: !blk.ptr<f32>, %x: f32, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : f32 -> tensor<16x16xf32, #l>
  %b = blk.splat %x : f32 -> tensor<16x16xf32, #l>
  %c = blk.splat %y : f32 -> tensor<16x16xf32, #l>
  %d = blk.dot %a, %b, %c precision tf32 : tensor<16x16xf32, #l>, tensor<16x16xf32, #l>, tensor<16x16xf32, #l>
  %rows = blk.arange 0 to 16 : tensor<16xi32, #blk.slice<dim = 1, parent = #l>>
  %r = blk.expand_dims %rows axis 1 : tensor<16xi32, #blk.slice<dim = 1, parent = #l>> -> tensor<16x1xi32, #l>
  %rb = blk.broadcast %r [16, 16] : tensor<16x1xi32, #l> -> tensor<16x16xi32, #l>
  blk.store %p[%rb], %d : !blk.ptr<f32>, tensor<16x16xi32, #l>, tensor<16x16xf32, #l>
  return
}
