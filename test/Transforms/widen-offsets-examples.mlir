// After blk-widen-offsets, no example multiplies in 32 bits on the way to
// an address by anything that grows with the tensor: every blk.addptr
// takes an i64 offset, and the i32 products left index a program's rows
// (first row = program id x ROWS, compared with n_rows) or a row's columns
// (part x BLOCK, compared with n_cols).
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-widen-offsets | FileCheck %s --check-prefix=ROWWISE
// RUN: softmax-opt %examples/softmax_tiled.mlir --blk-widen-offsets | FileCheck %s --check-prefix=ROWWISE
// RUN: softmax-opt %examples/softmax_online.mlir --blk-widen-offsets | FileCheck %s --check-prefix=ROWWISE
// RUN: softmax-opt %examples/softmax_persistent.mlir --blk-widen-offsets | FileCheck %s --check-prefix=ROWWISE
// RUN: softmax-opt %examples/softmax_naive.mlir --blk-widen-offsets | FileCheck %s --check-prefix=ROWWISE
// RUN: softmax-opt %examples/softmax_multirow.mlir --blk-widen-offsets | FileCheck %s --check-prefix=MULTIROW
// RUN: softmax-opt %examples/softmax_split.mlir --blk-widen-offsets | FileCheck %s --check-prefix=SPLIT

// ROWWISE-NOT: arith.muli {{.*}} : i32
// ROWWISE-NOT: blk.addptr {{.*}}, i32
// ROWWISE: arith.muli {{.*}} : i64
// ROWWISE-NOT: arith.muli {{.*}} : i32
// ROWWISE-NOT: blk.addptr {{.*}}, i32

// The offsets blocks scale by the stride only within the program's rows.
// MULTIROW: %[[ROWS:.*]] = blk.constexpr ROWS : i32
// MULTIROW-NOT: blk.addptr {{.*}}, i32
// MULTIROW: %[[FIRST:.*]] = arith.muli %{{.*}}, %[[ROWS]] : i32
// MULTIROW-NOT: arith.muli {{.*}} : i32
// MULTIROW-NOT: blk.addptr {{.*}}, i32
// MULTIROW: %[[LOCAL_ROWS:.*]] = blk.arange 0 to ROWS
// MULTIROW: blk.splat %[[FIRST]] [ROWS]
// MULTIROW-NOT: arith.muli {{.*}} : i32
// MULTIROW: %[[LOCAL:.*]] = blk.expand_dims %[[LOCAL_ROWS]] axis 1 : tensor<?xi32> -> tensor<?x1xi32>
// MULTIROW-NOT: arith.muli {{.*}} : i32
// MULTIROW-NOT: blk.addptr {{.*}}, i32
// MULTIROW: arith.muli %[[LOCAL]], %{{.*}} : tensor<?x1xi32>
// MULTIROW-NOT: arith.muli {{.*}} : i32
// MULTIROW-NOT: blk.addptr {{.*}}, i32
// MULTIROW: arith.muli %[[LOCAL]], %{{.*}} : tensor<?x1xi32>
// MULTIROW-NOT: arith.muli {{.*}} : i32
// MULTIROW-NOT: blk.addptr {{.*}}, i32

// SPLIT-LABEL: func.func @partials
// SPLIT: %[[BLOCK:.*]] = blk.constexpr BLOCK : i32
// SPLIT-NOT: arith.muli {{.*}} : i32
// SPLIT: arith.muli %{{.*}}, %[[BLOCK]] : i32
// SPLIT-NOT: arith.muli {{.*}} : i32
// SPLIT-NOT: blk.addptr {{.*}}, i32
// SPLIT-LABEL: func.func @normalize
// SPLIT: %[[BLOCK:.*]] = blk.constexpr BLOCK : i32
// SPLIT-NOT: arith.muli {{.*}} : i32
// SPLIT-NOT: blk.addptr {{.*}}, i32
// SPLIT: arith.muli %{{.*}}, %[[BLOCK]] : i32
// SPLIT-NOT: arith.muli {{.*}} : i32
// SPLIT-NOT: blk.addptr {{.*}}, i32
