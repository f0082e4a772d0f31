//===- CombineCenteredSquares.cpp - one exchange for a row's mean and variance ===//
//
// layer_norm reduces its row twice: the sum (for the mean), then the sum
// of squares about that mean, which cannot start before the first
// reduction's exchange has ended. Where a reduction crosses warps, each
// exchange is a round through shared memory and a barrier (and, on a
// cluster, a cluster barrier); blk.sum_centered_squares gives both with
// one, each thread first taking the mean of its own lanes and the squares
// about it (Chan, Golub and LeVeque's parallel variance; blk-split-rows
// merges a split row's parts the same way).
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/MaxExpSum.h"
#include "blk/Transforms/Passes.h"
#include "blk/Transforms/PeelAlignment.h"
#include "blk/Transforms/SumCenteredSquares.h"

#include "blk/IR/Distribution.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKCOMBINECENTEREDSQUARES
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Replaces the match's two reductions by one blk.sum_centered_squares at
/// the sum, where the divisor and the mask are defined (getSumCenteredSquares
/// checks it).
void combine(SumCenteredSquares match) {
  OpBuilder builder(match.sum);
  Type f32 = builder.getF32Type();
  auto combined = SumCenteredSquaresOp::create(
      builder, match.sum.getLoc(), f32, f32, match.sum.getSrc(), match.mask,
      match.divisor, match.sum.getAxis());
  match.sum.getResult().replaceAllUsesWith(combined.getSum());
  match.squares.getResult().replaceAllUsesWith(combined.getSquares());
  Operation *squareOp = match.squares.getSrc().getDefiningOp();
  match.squares.erase();
  eraseIfDead(squareOp);
  match.sum.erase();
}

/// Whether `value` is a row blk-peel-alignment versioned, widened or not.
bool isPeeledRow(Value value) {
  if (auto widen = value.getDefiningOp<arith::ExtFOp>())
    value = widen.getIn();
  return isVersionedLoad(value);
}

struct BlkCombineCenteredSquaresPass
    : public mlir::blk::impl::BlkCombineCenteredSquaresBase<
          BlkCombineCenteredSquaresPass> {
  using BlkCombineCenteredSquaresBase::BlkCombineCenteredSquaresBase;

  /// Whether the options ask for `match` (peeled-min-elements).
  bool isAskedFor(SumCenteredSquares match) {
    if (peeledMinElements <= 0)
      return true;
    FailureOr<Distribution> distribution =
        Distribution::get(match.sum.getSrc().getType());
    return succeeded(distribution) &&
           distribution->getNumElements() >= peeledMinElements &&
           isPeeledRow(match.sum.getSrc());
  }

  void runOnOperation() override {
    // One match at a time, found again after each rewrite: a rewrite
    // erases reductions that another match may name (as its sum, or the
    // divisor of its mean). A sum whose centered squares two reductions
    // take combines with the first; the second then sees the op's sum,
    // not a reduction, and stays.
    while (std::optional<SumCenteredSquares> match = findMatch())
      combine(*match);
  }

  std::optional<SumCenteredSquares> findMatch() {
    std::optional<SumCenteredSquares> found;
    getOperation().walk([&](ReduceOp reduce) {
      found = getSumCenteredSquares(reduce);
      if (found && isWorthCombining(found->sum) && isAskedFor(*found))
        return WalkResult::interrupt();
      found.reset();
      return WalkResult::advance();
    });
    return found;
  }
};

} // namespace
