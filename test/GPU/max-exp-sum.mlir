// REQUIRES: cuda-gpu
// The (max, sum of exp) pair exchange on the GPU: blk.max_exp_sum written by
// hand (Inputs/) on one warp, several warps, a cluster and 2-D rows, and
// formed by blk-combine-reductions (--combine-reductions) in the examples
// (softmax, log_softmax, cross-entropy on several warps and on clusters;
// the 16-bit rows of 32768 and more are kept in shared memory, and stay
// apart), each checked against
// the float64 reference, special values included (-inf, rows of only
// -inf, +inf, NaN, +-3e38).
// RUN: softmax-run %S/Inputs/softmax_max_exp_sum.mlir --target gpu --check --reference softmax --rows 33 --cols 100 --num-warps 1 --special
// RUN: softmax-run %S/Inputs/softmax_max_exp_sum.mlir --target gpu --check --reference softmax --rows 77 --cols 4097 --num-warps 8 --special
// RUN: softmax-run %S/Inputs/softmax_max_exp_sum.mlir --target gpu --check --reference softmax --rows 21 --cols 30001 --num-warps 8 --num-ctas 4 --special
// RUN: softmax-run %S/Inputs/softmax_rows_max_exp_sum.mlir --target gpu --check --reference softmax --rows 77 --cols 500 --special
// RUN: softmax-run %S/Inputs/softmax_rows_max_exp_sum.mlir --target gpu --check --reference softmax --rows 64 --cols 2048 --const ROWS=2,BLOCK=2048 --num-warps 8 --special
// RUN: softmax-run softmax_fused --target gpu --combine-reductions --check --reference softmax --rows 64 --cols 65536 --dtype bf16 --special
// RUN: softmax-run softmax_fused --target gpu --combine-reductions --check --reference softmax --rows 64 --cols 262144 --special
// RUN: softmax-run softmax_fused --target gpu --combine-reductions --check --reference softmax --rows 128 --cols 32768 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --combine-reductions --check --reference log_softmax --rows 64 --cols 65536 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --combine-reductions --check --reference log_softmax --rows 77 --cols 8192 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --combine-reductions --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --combine-reductions --check --reference cross_entropy --param ignore_index=-100 --rows 77 --cols 4096 --special

