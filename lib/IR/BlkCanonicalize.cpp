//===- BlkCanonicalize.cpp - folders and canonical forms of blk ops -------===//
//
// Keeps programs small before they are distributed: masks that are known to
// be all true disappear (and with them the scalar tail path), stores that
// are known to write nothing are erased, constant splats become constants,
// and reshapes of a splat become a splat of the new shape.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkDialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::blk;

Operation *BlkDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

namespace {

/// The value of every element of an integer block that is a splat of a
/// constant (as a splat op or a dense constant), when known.
std::optional<APInt> getUniformConstant(Value block) {
  APInt value;
  if (auto splat = block.getDefiningOp<SplatOp>()) {
    if (matchPattern(splat.getSrc(), m_ConstantInt(&value)))
      return value;
    return std::nullopt;
  }
  DenseIntElementsAttr dense;
  if (matchPattern(block, m_Constant(&dense)) && dense.isSplat())
    return dense.getSplatValue<APInt>();
  return std::nullopt;
}

/// The value of every element of an i1 block, when known.
std::optional<bool> getUniformMask(Value mask) {
  if (std::optional<APInt> bit = getUniformConstant(mask))
    return !bit->isZero();
  // arange(start, end) < N with a constant N: all true when end <= N, all
  // false when N <= start.
  auto compare = mask.getDefiningOp<arith::CmpIOp>();
  if (!compare || compare.getPredicate() != arith::CmpIPredicate::slt)
    return std::nullopt;
  auto range = compare.getLhs().getDefiningOp<ArangeOp>();
  std::optional<APInt> limit = getUniformConstant(compare.getRhs());
  if (!range || !limit)
    return std::nullopt;
  auto end = dyn_cast<IntegerAttr>(range.getEnd());
  if (!end)
    return std::nullopt;
  if (end.getInt() <= limit->getSExtValue())
    return true;
  if (limit->getSExtValue() <= int64_t(range.getStart()))
    return false;
  return std::nullopt;
}

/// A load whose mask is all true needs neither mask nor other; one whose
/// mask is all false reads nothing and is `other` everywhere.
struct SimplifyLoadMask : public OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp load,
                                PatternRewriter &rewriter) const override {
    if (!load.getMask())
      return failure();
    std::optional<bool> uniform = getUniformMask(load.getMask());
    if (!uniform)
      return failure();
    if (*uniform) {
      DictionaryAttr hints = load->getDiscardableAttrDictionary();
      auto unmasked = rewriter.replaceOpWithNewOp<LoadOp>(
          load, load.getType(), load.getBase(), load.getOffsets(), Value(),
          Value());
      unmasked->setDiscardableAttrs(hints);
      return success();
    }
    if (!load.getOther() || !load.getType().hasStaticShape())
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(load, load.getType(), load.getOther(),
                                         ArrayAttr());
    return success();
  }
};

struct SimplifyStoreMask : public OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp store,
                                PatternRewriter &rewriter) const override {
    if (!store.getMask())
      return failure();
    std::optional<bool> uniform = getUniformMask(store.getMask());
    if (!uniform)
      return failure();
    if (*uniform)
      rewriter.modifyOpInPlace(store,
                               [&] { store.getMaskMutable().clear(); });
    else
      rewriter.eraseOp(store);
    return success();
  }
};

/// expand_dims / broadcast of a splat is a splat of the result's shape.
template <typename ReshapeOp>
struct ReshapeOfSplat : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern<ReshapeOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat || !op.getType().hasStaticShape())
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc(),
                                         ArrayAttr());
    return success();
  }
};

/// A splat of a constant to a static shape is a dense constant.
OpFoldResult foldConstantSplat(Attribute scalar, RankedTensorType type) {
  if (!scalar || !type.hasStaticShape())
    return {};
  return SplatElementsAttr::get(type, scalar);
}

/// A reshape of a dense splat constant is a dense splat constant.
OpFoldResult foldReshapedSplat(Attribute source, RankedTensorType type) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(source);
  if (!splat || !type.hasStaticShape())
    return {};
  return SplatElementsAttr::get(type, splat.getSplatValue<Attribute>());
}

} // namespace

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  return foldConstantSplat(adaptor.getSrc(), getType());
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return foldReshapedSplat(adaptor.getSrc(), getType());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return foldReshapedSplat(adaptor.getSrc(), getType());
}

/// A conversion to the layout the block already has is none; one back to
/// the layout a conversion started from gives its source. Without
/// encodings it stays: it marks where blk-distribute lays out two classes.
OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (!getType().getEncoding())
    return {};
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>())
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
  return {};
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (auto offset = dyn_cast_or_null<IntegerAttr>(adaptor.getOffset()))
    if (offset.getValue().isZero())
      return getPtr();
  return {};
}

namespace {

/// dot(extf a, extf b, acc) -> dot(a, b, acc) where a and b widen from one
/// 16-bit float type: the widening is exact and the dot's products and sums
/// are f32's either way (a bf16 product past f32's range is inf in both),
/// so its values are unchanged; the narrow inputs are what tensor cores
/// take (and half the shared memory a GPU dot stages them in). The GPU's
/// mma.sync then adds 16 products before rounding: at overflow its
/// infinities and NaNs can differ (docs/pipeline.md, "What blk.dot
/// becomes"). A tf32 dot of them becomes an ieee one: f16 and bf16 values
/// are tf32 values already (no more mantissa bits, an exponent tf32 holds),
/// so rounding them to tf32 changes nothing.
struct DotOfWidenedInputs : public OpRewritePattern<DotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DotOp op,
                                PatternRewriter &rewriter) const override {
    auto a = op.getA().getDefiningOp<arith::ExtFOp>();
    auto b = op.getB().getDefiningOp<arith::ExtFOp>();
    if (!a || !b)
      return failure();
    Type narrow = getElementTypeOrSelf(a.getIn().getType());
    if (!(narrow.isF16() || narrow.isBF16()) ||
        narrow != getElementTypeOrSelf(b.getIn().getType()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.getAMutable().assign(a.getIn());
      op.getBMutable().assign(b.getIn());
      op.setPrecision(InputPrecision::ieee);
    });
    return success();
  }
};

} // namespace

void DotOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<DotOfWidenedInputs>(context);
}

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<SimplifyLoadMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *context) {
  patterns.add<SimplifyStoreMask>(context);
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                               MLIRContext *context) {
  patterns.add<ReshapeOfSplat<ExpandDimsOp>>(context);
}

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<ReshapeOfSplat<BroadcastOp>>(context);
}
