//===- BlockOps.cpp - making, reshaping and reducing blocks on the host ---===//
//
// Blocks stay tensors; each op that makes or reshapes one becomes the
// tensor or linalg op with the same meaning, so that linalg's elementwise
// fusion can merge it with its neighbours and bufferization gives it a
// buffer.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/IR/BlkDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// arange(start, end) -> generic { index_cast(linalg.index 0) + start }.
struct ArangeToGeneric : public OpConversionPattern<ArangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    int64_t start = op.getStart();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          Value index = linalg::IndexOp::create(b, bodyLoc, 0);
          Value element = arith::IndexCastOp::create(
              b, bodyLoc, type.getElementType(), index);
          if (start != 0)
            element = arith::AddIOp::create(
                b, bodyLoc, element,
                arith::ConstantOp::create(
                    b, bodyLoc,
                    b.getIntegerAttr(type.getElementType(), start)));
          linalg::YieldOp::create(b, bodyLoc, element);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// splat -> linalg.fill of an empty tensor.
struct SplatToFill : public OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type.getShape(),
                                         type.getElementType());
    rewriter.replaceOp(op, linalg::FillOp::create(rewriter, op.getLoc(),
                                                  adaptor.getSrc(), init)
                               .getResults());
    return success();
  }
};

/// A splat tensor constant -> linalg.fill as well: bufferized, a constant
/// would be a global of the whole block, copied by every program before
/// its first write.
struct SplatConstantToFill : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!splat || !type)
      return rewriter.notifyMatchFailure(op, "not a splat tensor constant");
    Value element = arith::ConstantOp::create(
        rewriter, op.getLoc(), splat.getSplatValue<TypedAttr>());
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type.getShape(),
                                         type.getElementType());
    rewriter.replaceOp(
        op, linalg::FillOp::create(rewriter, op.getLoc(), element, init)
                .getResults());
    return success();
  }
};

/// expand_dims -> tensor.expand_shape, the new unit dimension grouped with
/// a neighbour (the source dimension at `axis`, or the last one when the
/// new dimension comes last).
struct ExpandDimsToExpandShape : public OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t srcRank = op.getSrc().getType().getRank();
    int64_t axis = op.getAxis();
    SmallVector<ReassociationIndices> groups;
    for (int64_t dim = 0; dim < srcRank; ++dim) {
      // Result dimension of source dimension `dim`: shifted past the new one.
      int64_t resultDim = dim < axis ? dim : dim + 1;
      if (dim == axis)
        groups.push_back({axis, axis + 1});
      else if (dim == srcRank - 1 && axis == srcRank)
        groups.push_back({resultDim, resultDim + 1});
      else
        groups.push_back({resultDim});
    }
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, op.getType(), adaptor.getSrc(), groups);
    return success();
  }
};

/// broadcast -> generic reading the source at index 0 along every dimension
/// it repeats (an indexing map such as (d0, d1) -> (d0, 0)).
struct BroadcastToGeneric : public OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType type = op.getType();
    if (srcType == type) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    int64_t rank = type.getRank();
    SmallVector<AffineExpr> srcIndices;
    for (int64_t dim = 0; dim < rank; ++dim)
      srcIndices.push_back(srcType.getDimSize(dim) == type.getDimSize(dim)
                               ? rewriter.getAffineDimExpr(dim)
                               : rewriter.getAffineConstantExpr(0));
    AffineMap srcMap =
        AffineMap::get(rank, /*symbolCount=*/0, srcIndices, getContext());
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type.getShape(),
                                         type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{type}, ValueRange{adaptor.getSrc()},
        ValueRange{init},
        ArrayRef<AffineMap>{srcMap, rewriter.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location bodyLoc, ValueRange args) {
          linalg::YieldOp::create(b, bodyLoc, args[0]);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// Partial sums a long float sum is split into. A sequential f32 sum of n
/// positive terms drifts by about n * 1e-9 relative (2.5e-5 for 32768
/// terms, measured), far from the GPU's tree; summing kSumLanes strided
/// partial sums first, as the GPU's threads do, keeps the long loop
/// vectorizable, and the partial sums are then added in a tree of halves,
/// as the GPU's shuffles add them. Added one after the other, the 128
/// partial sums were a chain of 128 dependent additions per row: half the
/// time of softmax_fused at 4096 x 128 f32.
constexpr int64_t kSumLanes = 128;

/// linalg.reduce of `input` along `dim` with `kind`, from the identity.
Value reduceAlong(OpBuilder &builder, Location loc, ReduceKind kind,
                  Value input, int64_t dim) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type elementType = inputType.getElementType();
  SmallVector<int64_t> shape(inputType.getShape());
  shape.erase(shape.begin() + dim);
  Value identity = arith::ConstantOp::create(
      builder, loc, ReduceOp::getIdentity(kind, elementType, builder));
  Value init = tensor::EmptyOp::create(builder, loc, shape, elementType);
  Value filled =
      linalg::FillOp::create(builder, loc, identity, init).getResult(0);
  return linalg::ReduceOp::create(
             builder, loc, ValueRange{input}, ValueRange{filled},
             ArrayRef<int64_t>{dim},
             [kind](OpBuilder &b, Location bodyLoc, ValueRange args) {
               linalg::YieldOp::create(
                   b, bodyLoc, ReduceOp::combine(b, bodyLoc, kind, args[0], args[1]));
             })
      .getResult(0);
}

/// `input` with dimension `dim` (of size n) split into [n / lanes, lanes]:
/// element [i, j] of the new pair is element i * lanes + j of the old one.
Value splitDim(OpBuilder &builder, Location loc, Value input, int64_t dim,
               int64_t lanes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(inputType.getShape());
  shape[dim] /= lanes;
  shape.insert(shape.begin() + dim + 1, lanes);
  SmallVector<ReassociationIndices> groups;
  for (int64_t old = 0; old < inputType.getRank(); ++old) {
    int64_t first = old <= dim ? old : old + 1;
    if (old == dim)
      groups.push_back({first, first + 1});
    else
      groups.push_back({first});
  }
  return tensor::ExpandShapeOp::create(builder, loc,
                                       inputType.clone(shape), input, groups);
}

/// The sum of the two halves of `input` along `dim`, element by element:
/// x[j] + x[j + n/2]. Slices, not a reshape into [2, n/2]: linalg's fusion
/// propagates reshapes through the producers, and a tree of them split the
/// partial sums' loop (and an exp fused into it) into nine nested loops
/// whose innermost ran one element.
Value addHalves(OpBuilder &builder, Location loc, Value input, int64_t dim) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> halfShape(inputType.getShape());
  halfShape[dim] /= 2;
  SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(rank, builder.getIndexAttr(1));
  for (int64_t size : halfShape)
    sizes.push_back(builder.getIndexAttr(size));
  auto halfType = inputType.clone(halfShape);
  Value low = tensor::ExtractSliceOp::create(builder, loc, halfType, input,
                                             offsets, sizes, strides);
  offsets[dim] = builder.getIndexAttr(halfShape[dim]);
  Value high = tensor::ExtractSliceOp::create(builder, loc, halfType, input,
                                              offsets, sizes, strides);
  Value init = tensor::EmptyOp::create(builder, loc, halfShape,
                                       inputType.getElementType());
  AffineMap identity = builder.getMultiDimIdentityMap(rank);
  return linalg::GenericOp::create(
             builder, loc, TypeRange{halfType}, ValueRange{low, high},
             ValueRange{init}, ArrayRef<AffineMap>{identity, identity, identity},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [](OpBuilder &b, Location bodyLoc, ValueRange args) {
               linalg::YieldOp::create(
                   b, bodyLoc,
                   arith::AddFOp::create(b, bodyLoc, args[0], args[1])
                       .getResult());
             })
      .getResult(0);
}

/// The float sum of `input` along `dim`: kSumLanes strided partial sums
/// where the dimension is a multiple of them, then halves added while the
/// length is even (x[j] + x[j + n/2]: each step a vectorizable loop), then
/// whatever odd length is left, in order.
Value sumFloats(OpBuilder &builder, Location loc, Value input, int64_t dim) {
  int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(dim);
  if (size > kSumLanes && size % kSumLanes == 0) {
    input = reduceAlong(builder, loc, ReduceKind::sum,
                        splitDim(builder, loc, input, dim, kSumLanes), dim);
    size = kSumLanes;
  }
  for (; size > 1 && size % 2 == 0; size /= 2)
    input = addHalves(builder, loc, input, dim);
  return reduceAlong(builder, loc, ReduceKind::sum, input, dim);
}

/// reduce -> linalg.reduce into a filled init (float sums in steps, see
/// sumFloats); a 1-D block reduces to a 0-D tensor whose element is the
/// scalar result.
struct ReduceToLinalgReduce : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    auto axis = static_cast<int64_t>(op.getAxis());
    ReduceKind kind = op.getKind();

    Value result =
        kind == ReduceKind::sum && isa<FloatType>(srcType.getElementType())
            ? sumFloats(rewriter, loc, adaptor.getSrc(), axis)
            : reduceAlong(rewriter, loc, kind, adaptor.getSrc(), axis);
    if (!isa<RankedTensorType>(op.getType()))
      result = tensor::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// blk.local_alloc and blk.local_load keep and give back the block itself
/// (the CPU has no shared memory to stage through), and blk.convert_layout
/// gives it unchanged (the CPU has no threads' layouts).
template <typename OpTy>
struct KeptBlockToBlock : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A buffer with nothing kept (a GPU pass's ring) has no CPU meaning.
    if (!adaptor.getSrc())
      return rewriter.notifyMatchFailure(op, "no block kept");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// blk.dot -> a linalg.generic over (m, n, k) that widens each element of
/// a and b to the accumulator's type (or rounds it to tf32, precision
/// tf32) and adds their product to it (a matmul whose casts are spelled
/// out, for blk-expand-bf16 to see).
struct DotToGeneric : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = getContext();
    AffineExpr m = rewriter.getAffineDimExpr(0),
               n = rewriter.getAffineDimExpr(1),
               k = rewriter.getAffineDimExpr(2);
    auto map = [&](ArrayRef<AffineExpr> results) {
      return AffineMap::get(3, /*symbolCount=*/0, results, context);
    };
    Type accumulator = op.getType().getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{op.getType()},
        ValueRange{adaptor.getA(), adaptor.getB()}, ValueRange{adaptor.getAcc()},
        ArrayRef<AffineMap>{map({m, k}), map({k, n}), map({m, n})},
        {utils::IteratorType::parallel, utils::IteratorType::parallel,
         utils::IteratorType::reduction},
        [accumulator, tf32 = op.getPrecision() == InputPrecision::tf32](
            OpBuilder &b, Location loc, ValueRange args) {
          auto widen = [&](Value v) -> Value {
            if (tf32)
              return createTf32Rounding(b, loc, v);
            return v.getType() == accumulator
                       ? v
                       : arith::ExtFOp::create(b, loc, accumulator, v);
          };
          Value product =
              arith::MulFOp::create(b, loc, widen(args[0]), widen(args[1]));
          linalg::YieldOp::create(
              b, loc, arith::AddFOp::create(b, loc, args[2], product)
                          .getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::blk::populateBlockOpToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns
      .add<ArangeToGeneric, SplatToFill, SplatConstantToFill,
           ExpandDimsToExpandShape, BroadcastToGeneric, ReduceToLinalgReduce,
           DotToGeneric,
           KeptBlockToBlock<LocalAllocOp>, KeptBlockToBlock<LocalLoadOp>,
           KeptBlockToBlock<ConvertLayoutOp>>(
          converter, patterns.getContext());
}
