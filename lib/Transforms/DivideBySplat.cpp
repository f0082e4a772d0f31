//===- DivideBySplat.cpp - x / splat(s) as x * splat(1 / s) ---------------===//
//
// And x / broadcast(v) as x * broadcast(1 / v).
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

/// `x / d` -> `x * r`, where `createReciprocals` makes r = 1 / d from the
/// divisor's source (widened by `widen`), in f32 for narrower floats (the
/// reciprocal of a 16-bit float below 2^-16 overflows in its own type).
void divideByReciprocals(
    arith::DivFOp division,
    function_ref<Value(OpBuilder &, Value one, FloatType computeType,
                       function_ref<Value(Value)> widen)>
        createReciprocals) {
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
  Value reciprocals = createReciprocals(builder, one, computeType, widen);
  Value product = arith::MulFOp::create(builder, loc, widen(division.getLhs()),
                                        reciprocals);
  if (computeType != elementType)
    product = arith::TruncFOp::create(builder, loc, type, product);
  division.replaceAllUsesWith(product);
  division.erase();
}

/// `x / splat(s)` -> `x * splat(1 / s)`: one division.
void divideBySplat(arith::DivFOp division, SplatOp splat) {
  divideByReciprocals(division, [&](OpBuilder &b, Value one,
                                    FloatType computeType, auto widen) {
    Location loc = division.getLoc();
    Value reciprocal = arith::DivFOp::create(b, loc, one, widen(splat.getSrc()));
    return SplatOp::create(
        b, loc, withElementType(division.getType(), computeType), reciprocal,
        splat.getShapeAttr());
  });
}

/// `x / broadcast(v)` -> `x * broadcast(1 / v)`: one division an element of
/// v (attention's O / l: a thread's rows, not its 64 elements).
void divideByBroadcast(arith::DivFOp division, BroadcastOp broadcast) {
  divideByReciprocals(division, [&](OpBuilder &b, Value one,
                                    FloatType computeType, auto widen) {
    Location loc = division.getLoc();
    Value source = widen(broadcast.getSrc());
    Value ones = SplatOp::create(b, loc, source.getType(), one,
                                 /*shape=*/nullptr);
    Value reciprocals = arith::DivFOp::create(b, loc, ones, source);
    Operation *spread = b.clone(*broadcast);
    spread->setOperand(0, reciprocals);
    spread->getResult(0).setType(
        withElementType(broadcast.getType(), computeType));
    return spread->getResult(0);
  });
}

struct BlkDivideBySplatPass
    : public mlir::blk::impl::BlkDivideBySplatBase<BlkDivideBySplatPass> {
  using BlkDivideBySplatBase::BlkDivideBySplatBase;

  void runOnOperation() override {
    SmallVector<arith::DivFOp> divisions;
    getOperation().walk([&](arith::DivFOp division) {
      Operation *divisor = division.getRhs().getDefiningOp();
      if (isa_and_nonnull<SplatOp, BroadcastOp>(divisor) &&
          isa<RankedTensorType>(division.getType()))
        divisions.push_back(division);
    });
    for (arith::DivFOp division : divisions) {
      Operation *divisor = division.getRhs().getDefiningOp();
      if (auto splat = dyn_cast<SplatOp>(divisor))
        divideBySplat(division, splat);
      else
        divideByBroadcast(division, cast<BroadcastOp>(divisor));
    }
  }
};

} // namespace
