// Every example parses, verifies, and specializes to static shapes for
// block sizes from tiny to large.
// RUN: softmax-opt %examples/softmax_fused.mlir | softmax-opt > /dev/null
// RUN: softmax-opt %examples/softmax_tiled.mlir | softmax-opt > /dev/null
// RUN: softmax-opt %examples/softmax_online.mlir | softmax-opt > /dev/null
// RUN: softmax-opt %examples/softmax_multirow.mlir | softmax-opt > /dev/null
// RUN: softmax-opt %examples/softmax_persistent.mlir | softmax-opt > /dev/null
// RUN: softmax-opt %examples/softmax_naive.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefix=NAIVE
// RUN: softmax-opt %examples/softmax_split.mlir --blk-specialize="BLOCK=8192 SPLITS=8" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefix=SPLIT
// RUN: softmax-opt %examples/softmax_split_resident.mlir --blk-specialize="BLOCK=8192 SPLITS=128" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefix=RESIDENT
// RUN: softmax-opt %examples/softmax_persistent.mlir --blk-specialize="BLOCK=1024" | FileCheck %s --check-prefix=PERSISTENT
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1" | FileCheck %s --check-prefix=FUSED1
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" | FileCheck %s --check-prefix=FUSED
// RUN: softmax-opt %examples/softmax_tiled.mlir --blk-specialize="BLOCK=4096" | FileCheck %s --check-prefix=TILED
// RUN: softmax-opt %examples/softmax_online.mlir --blk-specialize="BLOCK=2048" | FileCheck %s --check-prefix=ONLINE
// RUN: not softmax-opt %examples/softmax_fused.mlir 2>&1 --blk-specialize="BLOCK=1000" --blk-to-ptx | FileCheck %s --check-prefix=BAD

// FUSED1-LABEL: func.func @softmax_fused
// FUSED1: blk.arange 0 to 1 : tensor<1xi32>
// FUSED1: blk.reduce max %{{.*}} axis 0 : tensor<1xf32> -> f32

// FUSED-LABEL: func.func @softmax_fused
// FUSED-NOT: ?x
// FUSED: blk.load {{.*}} -> tensor<1024xf32>
// FUSED: blk.reduce max %{{.*}} axis 0 : tensor<1024xf32> -> f32
// FUSED: math.exp %{{.*}} : tensor<1024xf32>
// FUSED: blk.reduce sum %{{.*}} axis 0 : tensor<1024xf32> -> f32
// FUSED: blk.store {{.*}} tensor<1024xf32>

// TILED-LABEL: func.func @softmax_tiled
// TILED: arith.constant 4096 : i32
// TILED-COUNT-3: scf.for
// TILED-NOT: tensor<?x

// ONLINE-LABEL: func.func @softmax_online
// ONLINE: scf.for {{.*}} -> (tensor<2048xf32>, tensor<2048xf32>)
// ONLINE: blk.reduce max %{{.*}} : tensor<2048xf32> -> f32
// ONLINE: blk.reduce sum %{{.*}} : tensor<2048xf32> -> f32

// BAD: softmax_fused.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'blk.arange' op block 'tensor<1000xi32>' has dimension 1000, which is neither a power of two nor a multiple of its layout's tile of 512 elements along it

// PERSISTENT-LABEL: func.func @softmax_persistent
// PERSISTENT-SAME: grid = persistent
// PERSISTENT: blk.num_programs x
// PERSISTENT: scf.for
// PERSISTENT: blk.load {{.*}} -> tensor<1024xf32>

// Five kernels in one PTX module, in program order.
// NAIVE: .visible .entry row_max(
// NAIVE: .visible .entry subtract_max(
// NAIVE: .visible .entry exponentiate(
// NAIVE: .visible .entry row_sum(
// NAIVE: .visible .entry divide(

// The split program's parts stream their columns with 16-byte accesses.
// SPLIT: .visible .entry partials(
// SPLIT: ld.global.v4.b32
// SPLIT: .visible .entry normalize(
// SPLIT: ld.global.v4.b32
// SPLIT: st.global.v4.b32

// One kernel: the row's parts meet at a counter (an atomic add, then a
// spin on a relaxed load between GPU-scope fences).
// RESIDENT: .entry softmax_split_resident
// RESIDENT: fence.sc.gpu
// RESIDENT: atom.global.add.u64
// RESIDENT: ld.relaxed.gpu
// RESIDENT-NOT: .entry
