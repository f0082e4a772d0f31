// Not MLIR: every example, its row offsets made 64-bit by blk-widen-offsets,
// still computes softmax on the CPU (see cpu-numerics.mlir for what
// --check compares). The shapes are small: softmax-run refuses tensors of
// 2^31 elements or more, and the arithmetic is what is under test.

// RUN: softmax-opt %examples/softmax_fused.mlir --blk-widen-offsets -o %t.fused.mlir
// RUN: softmax-run %t.fused.mlir --target cpu --check --const BLOCK=128 --rows 9 --cols 100 --in-stride 128 --out-stride 112
// RUN: softmax-run %t.fused.mlir --target cpu --check --const BLOCK=4 --rows 14 --cols 3 --special

// RUN: softmax-opt %examples/softmax_tiled.mlir --blk-widen-offsets -o %t.tiled.mlir
// RUN: softmax-run %t.tiled.mlir --target cpu --check --const BLOCK=256 --rows 3 --cols 1000 --in-stride 1008 --out-stride 1024
// RUN: softmax-run %t.tiled.mlir --target cpu --check --const BLOCK=4 --rows 14 --cols 3 --special

// RUN: softmax-opt %examples/softmax_online.mlir --blk-widen-offsets -o %t.online.mlir
// RUN: softmax-run %t.online.mlir --target cpu --check --const BLOCK=256 --rows 3 --cols 1000 --in-stride 1008 --out-stride 1024
// RUN: softmax-run %t.online.mlir --target cpu --check --const BLOCK=4 --rows 14 --cols 3 --special

// RUN: softmax-opt %examples/softmax_multirow.mlir --blk-widen-offsets -o %t.multirow.mlir
// RUN: softmax-run %t.multirow.mlir --target cpu --check --const ROWS=4,BLOCK=128 --rows 9 --cols 100 --in-stride 112 --out-stride 128
// RUN: softmax-run %t.multirow.mlir --target cpu --check --const ROWS=4,BLOCK=4 --rows 14 --cols 3 --special

// RUN: softmax-opt %examples/softmax_persistent.mlir --blk-widen-offsets -o %t.persistent.mlir
// RUN: softmax-run %t.persistent.mlir --target cpu --check --rows 13 --cols 100 --in-stride 112 --special

// RUN: softmax-opt %examples/softmax_naive.mlir --blk-widen-offsets -o %t.naive.mlir
// RUN: softmax-run %t.naive.mlir --target cpu --check --rows 9 --cols 1000 --in-stride 1003 --out-stride 1010
// RUN: softmax-run %t.naive.mlir --target cpu --check --rows 14 --cols 37 --special

// RUN: softmax-opt %examples/softmax_split.mlir --blk-widen-offsets -o %t.split.mlir
// RUN: softmax-run %t.split.mlir --target cpu --check --rows 2 --cols 20000 --max-tile 4096
// RUN: softmax-run %t.split.mlir --target cpu --check --rows 7 --cols 5000 --max-tile 1024 --special

