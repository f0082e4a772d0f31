//===- DivideInExponent.cpp - exp(a) / s as exp2(a log2 e - log2 s) -------===//
//
// A kernel that keeps its row in shared memory (blk-stage-held-loads)
// computes exp(x - m) a second time to write the row, and divides it by
// the row's sum: per element a multiplication by log2 e (exp's lowering),
// ex2, and a multiplication by 1/s (the division by a splat's lowering).
// Dividing in the exponent, exp2(a log2 e - log2 s), makes the two
// multiplications one FMA, for one lg2.approx a thread: bf16 1024 x 65536
// softmax on 4 CTAs, sm_90, 1152 -> 1016 instructions a thread (ptxas,
// the cubin's .text; rcp.rn's slow path goes too).
//
// Only where s is a sum of exponentials, so +0, positive, +inf or NaN:
// log2 s is defined, and the special sums give what exp(a) / s gives (+inf
// or NaN at s = +0, 0 at s = +inf, NaN with a NaN). Where exp(a) itself
// overflows or flushes to zero but the quotient does not (an unshifted
// exp(x) / sum with x >= 88.7: NaN before, a number now), the new form is
// the more exact one; a softmax's shifted a <= 0 with s >= 1 has no such
// case. It rounds the argument once, at the magnitude of log2 s (2^-20 for
// a row of 262144), and lg2.approx's absolute error (2^-22) becomes a
// relative error of the result 0.7 times as large. Only where exp(a) has
// no other user: a row held in registers keeps exp(a) for its sum, and
// dividing costs it one multiplication an element.
//
// Off in blk-to-ptx unless asked for (`divide-in-exponent`): it measured
// 0.994-1.005x on kept bf16 rows (H100, docs/benchmarks.md), the write
// pass it shortens overlapping its stores.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <cmath>

namespace mlir::blk {
#define GEN_PASS_DEF_BLKDIVIDEINEXPONENT
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// A division of exp(a) by a block made of a row's sum of exponentials:
/// the sum and the splat, expand_dims and broadcast ops that spread it
/// over the quotient's shape, innermost first.
struct ExpQuotient {
  arith::DivFOp division;
  math::ExpOp exp;
  Value sum;
  SmallVector<Operation *> spread;
};

/// Whether `value` is a `blk.reduce sum` of exponentials (>= 0 or NaN).
bool isSumOfExponentials(Value value) {
  auto reduce = value.getDefiningOp<ReduceOp>();
  return reduce && reduce.getKind() == ReduceKind::sum &&
         reduce.getSrc().getDefiningOp<math::ExpOp>();
}

/// `division` as an ExpQuotient, or nothing if it is not one or
/// exp(a) has other users.
std::optional<ExpQuotient> matchExpQuotient(arith::DivFOp division) {
  auto type = dyn_cast<RankedTensorType>(division.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32())
    return std::nullopt;
  auto exp = division.getLhs().getDefiningOp<math::ExpOp>();
  if (!exp || !exp->hasOneUse())
    return std::nullopt;
  ExpQuotient quotient{division, exp, division.getRhs(), {}};
  while (Operation *op = quotient.sum.getDefiningOp()) {
    if (!isa<SplatOp, ExpandDimsOp, BroadcastOp>(op))
      break;
    quotient.spread.push_back(op);
    quotient.sum = op->getOperand(0);
  }
  if (quotient.spread.empty() || !isSumOfExponentials(quotient.sum))
    return std::nullopt;
  std::reverse(quotient.spread.begin(), quotient.spread.end());
  return quotient;
}

/// exp(a) / s -> exp2(fma(a, log2 e, -log2 s)), -log2 s spread over the
/// quotient's shape as s was.
void divideInExponent(ExpQuotient &quotient) {
  arith::DivFOp division = quotient.division;
  OpBuilder builder(division);
  Location loc = division.getLoc();
  // `afn`: an absolute error is all an exponent's shift needs (the GPU's
  // lg2.approx, one instruction).
  Value log = math::Log2Op::create(builder, loc, quotient.sum,
                                   arith::FastMathFlags::afn);
  Value negatedLog = arith::NegFOp::create(builder, loc, log);
  IRMapping spreadOfLog;
  spreadOfLog.map(quotient.sum, negatedLog);
  for (Operation *op : quotient.spread)
    builder.clone(*op, spreadOfLog);
  Value shift = spreadOfLog.lookup(division.getRhs());
  Value log2e = SplatOp::create(
      builder, loc, division.getType(),
      arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(M_LOG2E)),
      ArrayAttr());
  Value exponent = math::FmaOp::create(builder, loc, quotient.exp.getOperand(),
                                       log2e, shift);
  division.replaceAllUsesWith(
      math::Exp2Op::create(builder, loc, exponent).getResult());
  division.erase();
  quotient.exp.erase();
  for (Operation *op : llvm::reverse(quotient.spread))
    if (op->use_empty())
      op->erase();
}

struct BlkDivideInExponent
    : public mlir::blk::impl::BlkDivideInExponentBase<BlkDivideInExponent> {
  void runOnOperation() override {
    SmallVector<ExpQuotient> found;
    getOperation().walk([&](arith::DivFOp division) {
      if (std::optional<ExpQuotient> quotient = matchExpQuotient(division))
        found.push_back(*quotient);
    });
    for (ExpQuotient &quotient : found)
      divideInExponent(quotient);
  }
};

} // namespace
