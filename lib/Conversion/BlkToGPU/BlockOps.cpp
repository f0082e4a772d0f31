//===- BlockOps.cpp - per-thread values of program ids, ranges, splats ----===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// A program is a CTA, or a cluster when the kernel has one.
template <typename SourceOp, typename GPUOp, typename GPUClusterOp>
struct GridIndexToGPU : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dimension = static_cast<gpu::Dimension>(op.getAxis());
    auto kernel = op->template getParentOfType<gpu::GPUFuncOp>();
    Value index =
        kernel && kernel.getKnownClusterSizeAttr()
            ? GPUClusterOp::create(rewriter, op.getLoc(), dimension).getResult()
            : GPUOp::create(rewriter, op.getLoc(), dimension).getResult();
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(
        op, rewriter.getI32Type(), index);
    return success();
  }
};

struct AddPtrToGEP : public OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, adaptor.getPtr().getType(), op.getType().getPointeeType(),
        adaptor.getPtr(), ValueRange{adaptor.getOffset()});
    return success();
  }
};

/// start + the coordinate of each element the thread holds.
struct ArangeToThreadIndices : public OpConversionPattern<ArangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Distribution distribution = *Distribution::get(op.getType());
    int64_t dim = distribution.getLayoutDim(0);
    SmallVector<Value> base = createThreadBase(
        rewriter, loc, distribution, createThreadIds(rewriter, loc));
    SmallVector<int32_t> offsets;
    for (int64_t k = 0; k < distribution.getNumElements(); ++k)
      offsets.push_back(distribution.getElementOffsets(k)[dim]);
    auto type = VectorType::get({distribution.getNumElements()},
                                rewriter.getI32Type());
    // Indices are small and non-negative: saying so (nsw, nuw) lets LLVM
    // reassociate index arithmetic and fold constants into addresses
    // where the rest of the address allows it.
    auto noWrap = arith::IntegerOverflowFlags::nsw |
                  arith::IntegerOverflowFlags::nuw;
    Value first = arith::AddIOp::create(
        rewriter, loc, base[dim],
        createI32Constant(rewriter, loc, op.getStart()), noWrap);
    Value firsts = vector::BroadcastOp::create(rewriter, loc, type, first);
    Value constants = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(type, ArrayRef(offsets)));
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, firsts, constants, noWrap);
    return success();
  }
};

struct SplatToBroadcast : public OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getSrc());
    return success();
  }
};

/// A thread holds the same elements before and after: nothing moves.
struct ExpandDimsIsFree : public OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// Each element of the result takes the element of the source at the same
/// coordinates, with the broadcast dimensions at 0: a static shuffle.
struct BroadcastToShuffle : public OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Distribution from = *Distribution::get(op.getSrc().getType());
    Distribution to = *Distribution::get(op.getType());
    SmallVector<int64_t> indices;
    for (int64_t k = 0; k < to.getNumElements(); ++k) {
      SmallVector<int64_t> local = to.getLocalIndices(k);
      for (int64_t d = 0; d < from.getRank(); ++d)
        local[d] %= from.getCount(d);
      indices.push_back(from.getElementIndex(local));
    }
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getSrc(),
                                                   adaptor.getSrc(), indices);
    return success();
  }
};

/// Dense block constants become vector constants of the thread's share.
struct BlockConstantToVector : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat || !isa<RankedTensorType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a splat block constant");
    auto type = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, DenseElementsAttr::get(type, splat.getSplatValue<Attribute>()));
    return success();
  }
};

/// Elementwise arith and math ops apply to the thread's vector unchanged.
struct ElementwiseOnVectors : public ConversionPattern {
  ElementwiseOnVectors(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() ||
        !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return rewriter.notifyMatchFailure(op, "not an elementwise op");
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

} // namespace

void mlir::blk::populateBlockOpPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<GridIndexToGPU<ProgramIdOp, gpu::BlockIdOp, gpu::ClusterIdOp>,
               GridIndexToGPU<NumProgramsOp, gpu::GridDimOp, gpu::ClusterDimOp>,
               AddPtrToGEP,
               ArangeToThreadIndices, SplatToBroadcast, ExpandDimsIsFree,
               BroadcastToShuffle, BlockConstantToVector,
               ElementwiseOnVectors>(converter, context);
  // Before the generic elementwise pattern, which would divide each element.
}
