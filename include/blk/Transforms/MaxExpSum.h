//===- MaxExpSum.h - the max and the sum of exp against it -----*- C++ -*-===//
//
// softmax, log_softmax and cross-entropy reduce a row twice: its maximum,
// then the sum of exp(x - max). blk-combine-reductions exchanges the two
// as pairs within a program; blk-split-rows meets the parts of a row once
// for both.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_MAXEXPSUM_H
#define BLK_TRANSFORMS_MAXEXPSUM_H

#include "blk/IR/BlkDialect.h"

namespace mlir::blk {

/// The `blk.reduce max` of `sum`'s pattern: `sum` reduces exp(x -
/// repeat(max x)) of f32 along the axis of that max, in the same block.
/// Null if it does not.
ReduceOp getMatchingMax(ReduceOp sum);

/// The row's max M and sum S from a block of partial (max m, sum s)
/// pairs, each sum against its own max (the parts of a split row, the
/// lanes of a streamed one), `shape` the blocks' shape attribute: M = max
/// m, S = sum of s * exp(m - M) over the pairs with a finite m, NaN where
/// none has one (as exp(-inf - -inf) makes the row's sum unmerged).
std::pair<Value, Value> createMergedMaxAndSum(OpBuilder &builder, Location loc,
                                              Value maxes, Value sums,
                                              ArrayAttr shape);

/// Whether `reduce`'s exchange goes through shared memory (several warps
/// or CTAs), where one exchange instead of two saves a barrier, outside
/// loops: where blk-combine-reductions and blk-combine-centered-squares
/// combine. In a loop what is combined lives beside the next iteration's
/// row (the persistent program, blk-pipeline-loads): softmax's exps on
/// sm_90, 4096 columns on 4 warps, 71 -> 96 registers and a spill (ptxas
/// -v).
bool isWorthCombining(ReduceOp reduce);

/// Erases `op` if nothing uses it, then the ops it used that are left
/// unused.
void eraseIfDead(Operation *op);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_MAXEXPSUM_H
