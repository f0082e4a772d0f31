//===- NarrowReductions.cpp - max and min before widening -----------------===//
//
// Programs compute in f32 and keep 16-bit data in memory (blk-storage-type
// widens each load with arith.extf), so a row's max reduces the widened
// row: one conversion and one f32 max per element. Widening is monotone and
// keeps every value, NaN included, so max(extf x) = extf(max x) exactly,
// and the 16-bit max takes two elements per instruction (max.NaN.bf16x2,
// sm_80+) with no conversion: bf16 1024 x 65536 softmax on 4 CTAs, sm_90,
// 1288 -> 1152 instructions a thread (ptxas, the cubin's .text).
//
// Where it does not pay it leaves the reduction alone: on chips without
// 16-bit pair max (LLVM emulates it with integer ops: a bf16 multirow
// kernel on sm_75 went from 64 to 99 registers), and where a thread holds
// few elements of each result (kMinNarrowedElements).
//
//===----------------------------------------------------------------------===//
#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKNARROWREDUCTIONS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Elements of each result a thread must hold before narrowing pays: with
/// 4, two pair maxes, one of the halves, one widening and the result's
/// round trip (narrowed after the exchange, widened back) replace four
/// widenings and three f32 maxes; with 2 the round trip costs more than it
/// saves.
constexpr int64_t kMinNarrowedElements = 4;

/// Whether a thread holds too few elements of each of `reduce`'s results
/// (once distributed) for narrowing to pay.
bool holdsTooFewElements(ReduceOp reduce) {
  FailureOr<Distribution> distribution =
      Distribution::get(reduce.getSrc().getType());
  if (failed(distribution))
    return false;
  int64_t results =
      distribution->getReduceSpread(reduce.getAxis()).resultsPerThread;
  return distribution->getNumElements() / results < kMinNarrowedElements;
}

/// The 16-bit float block whose widening `reduce` takes the max or min
/// of; null if there is none or narrowing would not pay.
Value getNarrowSource(ReduceOp reduce) {
  if (reduce.getKind() == ReduceKind::sum) // A sum rounds in its type.
    return nullptr;
  auto widen = reduce.getSrc().getDefiningOp<arith::ExtFOp>();
  if (!widen)
    return nullptr;
  Type narrow = getElementTypeOrSelf(widen.getIn().getType());
  if ((!narrow.isF16() && !narrow.isBF16()) || holdsTooFewElements(reduce))
    return nullptr;
  return widen.getIn();
}

/// Whether `value` is defined in `op`'s block and every user of it comes
/// after `op` there (moving it after `op` then neither enters nor leaves a
/// loop).
bool isUsedOnlyAfter(Value value, Operation *op) {
  if (value.getParentBlock() != op->getBlock())
    return false;
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
    return ancestor && op->isBeforeInBlock(ancestor);
  });
}

/// blk.reduce max|min (arith.extf %x) -> arith.extf (blk.reduce max|min %x).
/// A widening that the rest of the kernel uses after the reduction moves
/// after it, so that what lives across the reduction is the 16-bit block:
/// otherwise ptxas holds both (a peeled bf16 row of 50257 on 2 CTAs, sm_90:
/// 128 -> 147 registers, one CTA an SM, 0.71x on the H100).
void narrow(ReduceOp reduce, Value source) {
  OpBuilder builder(reduce);
  Type wide = reduce.getType();
  auto narrowReduce = ReduceOp::create(
      builder, reduce.getLoc(),
      withElementType(wide, getElementTypeOrSelf(source.getType())),
      reduce.getKind(), source, reduce.getAxis());
  Value widened = arith::ExtFOp::create(builder, reduce.getLoc(), wide,
                                        narrowReduce.getResult());
  Operation *widening = reduce.getSrc().getDefiningOp();
  reduce.replaceAllUsesWith(widened);
  reduce.erase();
  if (widening->use_empty())
    widening->erase();
  else if (isUsedOnlyAfter(widening->getResult(0), narrowReduce))
    widening->moveAfter(narrowReduce);
}

struct BlkNarrowReductions
    : public mlir::blk::impl::BlkNarrowReductionsBase<BlkNarrowReductions> {
  using BlkNarrowReductionsBase::BlkNarrowReductionsBase;

  void runOnOperation() override {
    if (!getTargetInfo(getOperation()).hasPacked16BitMinMax())
      return;
    SmallVector<std::pair<ReduceOp, Value>> found;
    getOperation().walk([&](ReduceOp reduce) {
      if (Value source = getNarrowSource(reduce))
        found.push_back({reduce, source});
    });
    for (auto [reduce, source] : found)
      narrow(reduce, source);
  }
};

} // namespace
