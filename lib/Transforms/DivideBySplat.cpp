//===- DivideBySplat.cpp - x / splat(s) as x * splat(1 / s) ---------------===//
//
// Once, at the blk level, before the GPU and CPU pipelines part: both then
// compute the same products, so a CPU run checks what the GPU computes.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKDIVIDEBYSPLAT
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// `x / splat(s)` -> `x * splat(1 / s)`, in f32 for narrower floats (the
/// reciprocal of a 16-bit float below 2^-16 overflows in its own type).
void divideBySplat(arith::DivFOp division, SplatOp splat) {
  OpBuilder builder(division);
  Location loc = division.getLoc();
  auto type = cast<RankedTensorType>(division.getType());
  auto elementType = cast<FloatType>(type.getElementType());
  FloatType computeType = elementType.getWidth() < 32
                              ? Float32Type::get(builder.getContext())
                              : elementType;
  auto widen = [&](Value value) -> Value {
    if (getElementTypeOrSelf(value.getType()) == computeType)
      return value;
    return arith::ExtFOp::create(
        builder, loc, withElementType(value.getType(), computeType), value);
  };
  Value one = arith::ConstantOp::create(
      builder, loc, builder.getFloatAttr(computeType, 1.0));
  Value reciprocal =
      arith::DivFOp::create(builder, loc, one, widen(splat.getSrc()));
  Value reciprocals = SplatOp::create(
      builder, loc, withElementType(type, computeType), reciprocal,
      splat.getShapeAttr());
  Value product = arith::MulFOp::create(builder, loc, widen(division.getLhs()),
                                        reciprocals);
  if (computeType != elementType)
    product = arith::TruncFOp::create(builder, loc, type, product);
  division.replaceAllUsesWith(product);
  division.erase();
}

struct BlkDivideBySplatPass
    : public mlir::blk::impl::BlkDivideBySplatBase<BlkDivideBySplatPass> {
  using BlkDivideBySplatBase::BlkDivideBySplatBase;

  void runOnOperation() override {
    SmallVector<std::pair<arith::DivFOp, SplatOp>> divisions;
    getOperation().walk([&](arith::DivFOp division) {
      auto splat = division.getRhs().getDefiningOp<SplatOp>();
      if (splat && isa<RankedTensorType>(division.getType()))
        divisions.push_back({division, splat});
    });
    for (auto [division, splat] : divisions)
      divideBySplat(division, splat);
  }
};

} // namespace
