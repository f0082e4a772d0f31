//===- ScalarizeMasks.cpp - masks computed per element read ---------------===//
//
// The conversion leaves a thread's mask as a vector<N x i1> that arith ops
// compute and the accesses read element by element. NVPTX packs an i1
// vector into the bits of an integer, so every op on it and every element
// read back costs shifts, ors and conversions between register widths (in
// a matmul's K loop, about 25 of its 180 instructions). Computing each
// element read on scalars keeps the masks in predicate registers.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSCALARIZEMASKS
#include "blk/Conversion/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;

namespace {

bool isStaticExtract(Operation *op) {
  auto extract = dyn_cast<vector::ExtractOp>(op);
  return extract && extract.getDynamicPosition().empty();
}

/// An elementwise arith op computing a 1-D mask (with `allValues`, a 1-D
/// vector of any element type) that is only read element by element.
bool isScalarizable(Operation *op, bool allValues) {
  if (!op || op->getNumResults() != 1 ||
      !isa<arith::ArithDialect>(op->getDialect()) ||
      !OpTrait::hasElementwiseMappableTraits(op))
    return false;
  auto type = dyn_cast<VectorType>(op->getResult(0).getType());
  return type && type.getRank() == 1 &&
         (allValues || type.getElementType().isInteger(1)) &&
         llvm::all_of(op->getUsers(), isStaticExtract);
}

/// vector.extract %op(%x, ...)[i] -> %op(vector.extract %x[i], ...).
struct ExtractOfElementwiseOp : public OpRewritePattern<vector::ExtractOp> {
  ExtractOfElementwiseOp(MLIRContext *context, bool allValues)
      : OpRewritePattern(context), allValues(allValues) {}

  LogicalResult matchAndRewrite(vector::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    Operation *mask = extract.getSource().getDefiningOp();
    if (!isStaticExtract(extract) || !isScalarizable(mask, allValues))
      return failure();
    SmallVector<Value> operands;
    for (Value operand : mask->getOperands())
      operands.push_back(vector::ExtractOp::create(
          rewriter, extract.getLoc(), operand, extract.getStaticPosition()));
    OperationState state(extract.getLoc(), mask->getName(), operands,
                         {extract.getType()}, mask->getAttrs());
    rewriter.replaceOp(extract, rewriter.create(state)->getResults());
    return success();
  }

  bool allValues;
};

} // namespace

void mlir::blk::populateScalarizeElementwisePatterns(
    RewritePatternSet &patterns, bool allValues) {
  patterns.add<ExtractOfElementwiseOp>(patterns.getContext(), allValues);
}

namespace {

struct BlkScalarizeMasksPass
    : public mlir::blk::impl::BlkScalarizeMasksBase<BlkScalarizeMasksPass> {
  using BlkScalarizeMasksBase::BlkScalarizeMasksBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mlir::blk::populateScalarizeElementwisePatterns(patterns,
                                                   /*allValues=*/false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
