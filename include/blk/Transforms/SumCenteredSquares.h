//===- SumCenteredSquares.h - a row's sum and squares about its mean -*- C++
//-*-===//
//
// LayerNorm reduces a row twice: its sum (for the mean), then the sum of
// squares about the mean. blk-combine-reductions exchanges the two once
// within a program (blk.sum_centered_squares); blk-split-rows meets the
// parts of a row once for both.
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
/// the select optional. %x is a 1-D block of f32.
struct SumCenteredSquares {
  ReduceOp sum, squares;
  Value divisor, mask;
};

/// The pattern that `squares` ends, if it does, with its divisor and mask
/// defined before the sum (what replaces the two is built there).
std::optional<SumCenteredSquares> getSumCenteredSquares(ReduceOp squares);

/// Whether `value` is 0 wherever `mask` is false: a load under `mask` with
/// 0 for `other`, or its widening. Then the lanes a mask counts hold all of
/// the sum (what a split row's parts, which keep the sum alone, need).
bool isZeroWhereMasked(Value value, Value mask);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_SUMCENTEREDSQUARES_H
