// REQUIRES: cuda-gpu
// Rows whose start is not on the 16-byte grid, peeled (blk-peel-alignment,
// see test/Transforms/peel-alignment.mlir): the block is shifted by the
// input row's misalignment so every run is an aligned vector; an access
// whose rows lie elsewhere on the grid (another stride) takes its
// fallback, and so does every access of a row that would not fit the
// shifted block (n + shift > BLOCK). Each run is checked against the
// double-precision reference, and nothing between the rows (strides
// larger than the row) may be written (--check counts stray writes).
// One CTA, clusters and split rows, bf16, f16 and f32 (8 and 4 elements a
// vector).
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 50257 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 33 --cols 32001 --dtype f16 --special
// bf16 1001 on 2 warps keeps 2 runs a thread and is peeled; on 4 warps
// (one run a thread) it stays element by element.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1001 --dtype bf16 --num-warps 2 --in-stride 1009 --out-stride 1017 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1001 --dtype bf16 --num-warps 2 --in-stride 1003 --out-stride 1005
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1001 --dtype bf16 --in-stride 1009 --out-stride 1017 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1001 --in-stride 1007 --out-stride 1005 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 4093 --dtype bf16 --in-stride 4101 --out-stride 4109 --special --num-ctas 2
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 4093 --dtype bf16 --in-stride 4101 --out-stride 4102 --num-ctas 2
// A row 1 element short of BLOCK: only rows starting at most 1 element past
// the grid are shifted.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 24 --cols 65535 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 24 --cols 4095 --dtype bf16 --in-stride 4097 --out-stride 4105
// Rows of 1 to 9 elements in blocks of 8 or 16.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 9 --cols 7 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 9 --cols 9 --dtype bf16 --in-stride 11 --out-stride 19
// Split rows (softmax_split.mlir, both kernels peeled): every part has the
// row's shift; a row fits where n + shift <= ceil(n / BLOCK) * BLOCK
// (n = 8190 in parts of 1024: only rows at most 2 past the grid shift),
// rows of 9 in two parts of 8, and an output on another part of the grid.
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 5 --cols 100003 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 7 --cols 100003 --in-stride 100007 --out-stride 100005 --special
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 40 --cols 8190 --dtype f16 --in-stride 8191 --out-stride 8199 --const BLOCK=1024,SPLITS=8 --num-warps 2 --special
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 40 --cols 9 --dtype bf16 --in-stride 11 --out-stride 13 --const BLOCK=8,SPLITS=2
// The family.
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 77 --cols 32001 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 99 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --rows 333 --cols 30001 --dtype bf16 --special
// The norms: the weight (and bias) read the same columns of every row from
// aligned addresses, as vectors only on rows the shift leaves in place;
// one output elsewhere on the grid (another stride) takes its fallback.
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 99 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 99 --cols 50257 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 99 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 77 --cols 32001 --in-stride 32003 --out-stride 32009 --special
// Peeled 16-bit rows kept in shared memory (--stage-peeled-rows, off by
// default): softmax_fused on its rules' 8-warp clusters, rms_norm on 8-warp
// CTAs, another output stride taking the store's fallback.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 50257 --dtype bf16 --special --stage-peeled-rows
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 33 --cols 100003 --dtype bf16 --in-stride 100005 --out-stride 100011 --special --stage-peeled-rows
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 99 --cols 50257 --dtype bf16 --num-warps 8 --num-ctas 4 --special --stage-peeled-rows
