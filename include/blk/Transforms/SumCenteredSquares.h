//===- SumCenteredSquares.h - a row's sum and its squares about the mean -===//
//
// layer_norm reduces a row twice: its sum (the mean), then the sum of its
// squares about that mean (the variance), the second waiting for the
// first. blk-combine-centered-squares exchanges both at once within a
// program (blk.sum_centered_squares); blk-split-rows meets the parts of a
// row once for both. Both merge partial (count, mean, squares about it) as
// Chan, Golub and LeVeque's parallel variance.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_SUMCENTEREDSQUARES_H
#define BLK_TRANSFORMS_SUMCENTEREDSQUARES_H

#include "blk/IR/BlkDialect.h"

#include <optional>

namespace mlir::blk {

/// A row's sum and its sum of squares about the mean, in the order they
/// run:
///   %mean = arith.divf %sum, %divisor     (%sum = blk.reduce sum %x)
///   %centered = arith.select %mask, (%x - splat %mean), splat 0.0
///   %squares = blk.reduce sum (%centered * %centered)
/// (layer_norm's mean and variance), the select optional; with it, %x is
/// 0 wherever %mask is false (isZeroWhereMasked), so that the lanes the
/// mask counts hold all of the sum.
struct SumCenteredSquares {
  ReduceOp sum, squares;
  Value divisor, mask;
};

/// The pattern that `squares` ends, if it does: 1-D f32 blocks, in one
/// block of ops, the divisor and the mask defined before the sum.
std::optional<SumCenteredSquares> getSumCenteredSquares(ReduceOp squares);

/// Whether `value` is a block of +0: a splat of the constant, or the
/// dense constant canonicalization makes of one.
bool isZeroSplat(Value value);

/// Whether `value` is 0 wherever `mask` is false: a load under `mask`
/// with 0 for `other`, widened (arith.extf) or not, the same from every
/// branch of an scf.if (blk-peel-alignment's versions of a load), or a
/// select of 0 under `mask`.
bool isZeroWhereMasked(Value value, Value mask);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_SUMCENTEREDSQUARES_H
