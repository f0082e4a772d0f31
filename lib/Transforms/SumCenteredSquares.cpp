//===- SumCenteredSquares.cpp - a row's sum and its squares about the mean ===//
#include "blk/Transforms/SumCenteredSquares.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::blk;

bool mlir::blk::isZeroSplat(Value value) {
  if (auto splat = value.getDefiningOp<SplatOp>())
    value = splat.getSrc();
  return matchPattern(value, m_PosZeroFloat());
}

bool mlir::blk::isZeroWhereMasked(Value value, Value mask) {
  if (auto widen = value.getDefiningOp<arith::ExtFOp>())
    return isZeroWhereMasked(widen.getIn(), mask);
  if (auto select = value.getDefiningOp<arith::SelectOp>())
    return select.getCondition() == mask &&
           isZeroSplat(select.getFalseValue());
  if (auto branch = value.getDefiningOp<scf::IfOp>()) {
    unsigned index = cast<OpResult>(value).getResultNumber();
    return !branch.getElseRegion().empty() &&
           llvm::all_of(branch->getRegions(), [&](Region &region) {
             auto yield = cast<scf::YieldOp>(region.front().getTerminator());
             return isZeroWhereMasked(yield.getOperand(index), mask);
           });
  }
  auto load = value.getDefiningOp<LoadOp>();
  return load && load.getMask() == mask && load.getOther() &&
         matchPattern(load.getOther(), m_AnyZeroFloat());
}

std::optional<SumCenteredSquares>
mlir::blk::getSumCenteredSquares(ReduceOp squares) {
  if (squares.getKind() != ReduceKind::sum || !squares.getType().isF32())
    return std::nullopt;
  auto square = squares.getSrc().getDefiningOp<arith::MulFOp>();
  if (!square || square.getLhs() != square.getRhs())
    return std::nullopt;
  SumCenteredSquares match;
  match.squares = squares;
  Value centered = square.getLhs();
  if (auto select = centered.getDefiningOp<arith::SelectOp>()) {
    // A block of lanes, not one i1 for all of them.
    if (!isZeroSplat(select.getFalseValue()) ||
        !isa<RankedTensorType>(select.getCondition().getType()))
      return std::nullopt;
    match.mask = select.getCondition();
    centered = select.getTrueValue();
  }
  auto difference = centered.getDefiningOp<arith::SubFOp>();
  auto repeated =
      difference ? difference.getRhs().getDefiningOp<SplatOp>() : nullptr;
  auto mean =
      repeated ? repeated.getSrc().getDefiningOp<arith::DivFOp>() : nullptr;
  match.sum = mean ? mean.getLhs().getDefiningOp<ReduceOp>() : nullptr;
  if (!match.sum || match.sum.getKind() != ReduceKind::sum ||
      match.sum.getSrc() != difference.getLhs() ||
      match.sum.getSrc().getType().getRank() != 1 ||
      match.sum->getBlock() != squares->getBlock())
    return std::nullopt;
  match.divisor = mean.getRhs();
  auto definedBeforeSum = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return value.getParentBlock() == match.sum->getBlock() ||
             value.getParentRegion()->isAncestor(match.sum->getParentRegion());
    return def->getBlock() == match.sum->getBlock() &&
           def->isBeforeInBlock(match.sum);
  };
  if (!definedBeforeSum(match.divisor) ||
      (match.mask && (!definedBeforeSum(match.mask) ||
                      !isZeroWhereMasked(match.sum.getSrc(), match.mask))))
    return std::nullopt;
  return match;
}
