// REQUIRES: cuda-gpu
// Rows whose length is not a multiple of the 16-byte vector start anywhere
// on the 16-byte grid. On a row held by a cluster their loads and stores
// are realigned at run time (`blk.realign`, see
// test/Conversion/blk-to-gpu-realign.mlir); on one CTA a row they go
// element by element. Every misalignment, both element sizes, input and
// output misaligned differently (strides), ragged tails and special values,
// one row per program, several rows per program, rows split over a cluster
// and over programs; each checked against the double-precision reference.
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 64 --cols 50257 --verbose > %t.fused.log
// RUN: grep "ctas=" %t.fused.log
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 33 --cols 32001 --dtype f16 --num-ctas 2
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1001 --dtype bf16 --in-stride 1003 --out-stride 1005
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 1001 --dtype bf16 --in-stride 1003 --out-stride 1005 --num-ctas 2
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 997 --in-stride 1001 --out-stride 998 --special --num-ctas 2
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 100 --cols 4093 --dtype bf16 --in-stride 4097 --out-stride 4094 --special --num-ctas 2
// RUN: softmax-run %examples/softmax_fused.mlir --target gpu --check --reference softmax --rows 9 --cols 7 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 1001 --cols 129 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_multirow.mlir --target gpu --check --reference softmax --rows 999 --cols 250 --in-stride 251 --special
// RUN: softmax-run %examples/softmax_split.mlir --target gpu --check --reference softmax --rows 17 --cols 100003 --dtype bf16 --special --num-ctas 2
// RUN: softmax-run auto --target gpu --check --rows 7 --cols 151937 --dtype bf16
// The family: a realigned load next to per-row values.
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 77 --cols 32001 --dtype bf16 --special --num-ctas 2
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 50 --cols 4099 --dtype bf16 --num-ctas 2
