// REQUIRES: cuda-gpu
// Rows read and not written, walked in tiles (blk-stream-rows): cross_entropy
// against the float64 loss and logsumexp with special values (+-inf, NaN,
// huge, tiny rows), as the rules stream it (600 f32 rows of 40000 columns:
// four rows an SM, longer than one CTA holds; the tile's binding, BLOCK=8192
// on 16 warps, in the report), and asked for on rows the rules hold: 16-bit,
// a few rows, a last tile that is mostly padding, a row of one tile.
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 600 --cols 40000 --special --verbose > %t.rules.log
// RUN: grep "BLOCK=8192 warps=16, grid 600" %t.rules.log
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --stream-rows always --check --reference cross_entropy --param ignore_index=-100 --rows 600 --cols 40000 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --stream-rows always --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 128256 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --stream-rows always --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 65544 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --stream-rows always --check --reference cpu --param ignore_index=3 --rows 100 --cols 1000 --dtype f16
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --stream-rows always --check --reference cross_entropy --param ignore_index=-100 --rows 3 --cols 8200 --special
