//===- FoldElementExtracts.cpp - the blk-fold-element-extracts pass -------===//
//
// `tensor.extract %g[i...]` of an elementwise `linalg.generic` of integers
// becomes the generic's body computed for that one element. The row accesses of the
// CPU path read the first offset of each row this way; folded, the block
// of offsets (an arange) is no longer needed in memory, and elementwise
// fusion computes it inside the loops that use it instead of writing and
// reading it back.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/Conversion/CPUPasses.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKFOLDELEMENTEXTRACTS
#include "blk/Conversion/CPUPasses.h.inc"
} // namespace mlir::blk

using namespace mlir;

namespace {

/// Where element `indices` of the generic's iteration space reads an
/// operand of indexing map `map`: one index per result, each a dimension
/// or a constant; nullopt for any other map.
std::optional<SmallVector<OpFoldResult>>
getOperandIndices(AffineMap map, ValueRange indices, Builder &builder) {
  SmallVector<OpFoldResult> operandIndices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      operandIndices.push_back(indices[dim.getPosition()]);
    else if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      operandIndices.push_back(builder.getIndexAttr(constant.getValue()));
    else
      return std::nullopt;
  }
  return operandIndices;
}

/// Whether computing elements where they are read costs nothing more than
/// the block would: the body computes integers only (offsets and masks, a
/// few integer ops per element), or the block is read only element by
/// element (a store's values: the CPU path's extracts read each element
/// once), so no buffer is written to be read back. A float block that
/// something else reads whole (the exponentials a sum also reads) stays:
/// computed again in the store loops, softmax_fused 4096 x 128 f32 went
/// from 7.0 to 2.6 GB/s.
bool isWorthFolding(linalg::GenericOp generic) {
  return mlir::blk::computesIntegersOnly(generic) ||
         llvm::all_of(generic->getUsers(), llvm::IsaPred<tensor::ExtractOp>);
}

} // namespace

bool mlir::blk::computesIntegersOnly(linalg::GenericOp generic) {
  return llvm::all_of(
      generic.getRegion().front().without_terminator(), [](Operation &op) {
        return llvm::all_of(op.getResultTypes(),
                            [](Type type) { return type.isIntOrIndex(); });
      });
}

namespace {

struct ExtractOfElementwiseGeneric
    : public OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    auto generic = extract.getTensor().getDefiningOp<linalg::GenericOp>();
    if (!generic || generic.getNumResults() != 1 ||
        generic.getNumLoops() != generic.getNumParallelLoops() ||
        !generic.getIndexingMapsArray().back().isIdentity())
      return rewriter.notifyMatchFailure(extract, "not an elementwise generic");
    Block &body = generic.getRegion().front();
    if (!body.getArguments().back().use_empty())
      return rewriter.notifyMatchFailure(extract, "the body reads its output");
    // Only plain computations move: nothing with a region (a nested
    // linalg.index would be left behind) or a memory effect.
    if (llvm::any_of(body.without_terminator(), [](Operation &op) {
          return op.getNumRegions() != 0 || !isMemoryEffectFree(&op);
        }))
      return rewriter.notifyMatchFailure(extract, "the body is not plain");
    if (!isWorthFolding(generic))
      return rewriter.notifyMatchFailure(extract, "a float block read whole");
    ValueRange indices = extract.getIndices();
    SmallVector<std::optional<SmallVector<OpFoldResult>>> inputIndices;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      inputIndices.push_back(getOperandIndices(
          generic.getMatchingIndexingMap(input), indices, rewriter));
      if (!inputIndices.back())
        return rewriter.notifyMatchFailure(extract, "an input map is not "
                                                    "dimensions and constants");
    }

    Location loc = extract.getLoc();
    IRMapping mapping;
    for (auto [input, where] :
         llvm::zip(generic.getDpsInputOperands(), inputIndices)) {
      Value value = input->get();
      if (isa<RankedTensorType>(value.getType()))
        value = tensor::ExtractOp::create(
            rewriter, loc, value,
            getValueOrCreateConstantIndexOp(rewriter, loc, *where));
      mapping.map(body.getArgument(input->getOperandNumber()), value);
    }
    for (Operation &op : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op))
        mapping.map(index.getResult(), indices[index.getDim()]);
      else
        rewriter.clone(op, mapping);
    }
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    rewriter.replaceOp(extract, mapping.lookupOrDefault(yield.getValues()[0]));
    return success();
  }
};

struct BlkFoldElementExtractsPass
    : public mlir::blk::impl::BlkFoldElementExtractsBase<
          BlkFoldElementExtractsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExtractOfElementwiseGeneric>(&getContext());
    // Each rewrite replaces an extract of a generic by extracts of its
    // inputs, which are earlier in the chain: the rewrites end. A long
    // chain of elementwise ops (GELU's 12 in bf16) needs more than the
    // driver's default 10 sweeps, and stopping there had failed the pass
    // without a word.
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation()->emitError()
          << "blk-fold-element-extracts: the rewrites did not converge";
      signalPassFailure();
    }
  }
};

} // namespace
