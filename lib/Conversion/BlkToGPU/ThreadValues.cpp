//===- ThreadValues.cpp - type conversion and per-thread coordinates ------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::blk;

BlkToGPUTypeConverter::BlkToGPUTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(context, /*addressSpace=*/1);
  });
  // A tensor map is a kernel parameter passed by value, read through its
  // generic address (blk-pass-tensor-maps-by-value makes it a grid
  // constant).
  addConversion([context](TensorMapType) -> Type {
    return LLVM::LLVMPointerType::get(context);
  });
  addConversion([context](BarriersType) -> Type {
    return LLVM::LLVMPointerType::get(
        context, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  });
  addConversion([context](SharedType) -> Type {
    return LLVM::LLVMPointerType::get(
        context, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  });
  addConversion([](RankedTensorType type) -> std::optional<Type> {
    FailureOr<Distribution> distribution = Distribution::get(type);
    if (failed(distribution))
      return std::nullopt;
    return VectorType::get({distribution->getNumElements()},
                           type.getElementType());
  });
  auto castMaterialization = [](OpBuilder &builder, Type type,
                                ValueRange inputs, Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(castMaterialization);
  addTargetMaterialization(castMaterialization);
}

Value mlir::blk::createMulAdd(OpBuilder &b, Location loc, Value x,
                             int64_t scale, Value offset) {
  Value product = arith::MulIOp::create(b, loc, x,
                                        createI32Constant(b, loc, scale));
  return offset ? arith::AddIOp::create(b, loc, product, offset).getResult()
                : product;
}

Value mlir::blk::createI32Constant(OpBuilder &builder, Location loc,
                                   int64_t value) {
  return arith::ConstantIntOp::create(builder, loc, value, 32);
}

Value mlir::blk::createF32Constant(OpBuilder &builder, Location loc,
                                   double value) {
  return arith::ConstantOp::create(builder, loc,
                                   builder.getF32FloatAttr(value));
}

ThreadIds mlir::blk::createThreadIds(OpBuilder &builder, Location loc) {
  Value tid = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  tid = arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(), tid);
  Value lane = arith::AndIOp::create(builder, loc, tid,
                                     createI32Constant(builder, loc, 31));
  Value warp = arith::ShRUIOp::create(builder, loc, tid,
                                      createI32Constant(builder, loc, 5));
  return {lane, warp};
}

/// (index >> log2(stride)) & (size - 1): the coordinate along one dimension
/// of a row-major index whose faster dimensions span `stride`.
static Value createCoordinate(OpBuilder &builder, Location loc, Value index,
                              int64_t stride, int64_t size) {
  if (size == 1)
    return createI32Constant(builder, loc, 0);
  Value shifted = index;
  if (stride > 1)
    shifted = arith::ShRUIOp::create(
        builder, loc, index,
        createI32Constant(builder, loc, llvm::Log2_64(stride)));
  return arith::AndIOp::create(builder, loc, shifted,
                               createI32Constant(builder, loc, size - 1));
}

Value mlir::blk::createClusterRank(OpBuilder &builder, Location loc) {
  // Clusters are (num_ctas, 1, 1): the rank is the x coordinate.
  Value rank = gpu::ClusterBlockIdOp::create(builder, loc, gpu::Dimension::x);
  return arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(), rank);
}

/// The thread's coordinate along each dimension of the layout, before
/// wrapping around a block smaller than the tile.
static SmallVector<Value> createUnwrappedBase(OpBuilder &builder, Location loc,
                                              const Distribution &distribution,
                                              ThreadIds ids) {
  BlockedLayoutAttr layout = distribution.getLayout();
  int64_t rank = distribution.getRank();
  Value cta = layout.getNumCtas() > 1 ? createClusterRank(builder, loc)
                                      : Value();
  SmallVector<Value> base(rank);
  int64_t laneStride = 1, warpStride = 1, ctaStride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t lanes = layout.getLanes()[d], warps = layout.getWarps()[d];
    int64_t ctas = layout.getCtasAlong(d);
    Value lane = createCoordinate(builder, loc, ids.lane, laneStride, lanes);
    Value warp = createCoordinate(builder, loc, ids.warp, warpStride, warps);
    laneStride *= lanes;
    warpStride *= warps;
    // thread coordinate = (cta * warps + warp) * lanes + lane. The CTA's
    // part goes on last, so that LLVM still sees warp * lanes + lane as the
    // thread index it is (and folds it away in 1-D).
    Value thread = arith::OrIOp::create(
        builder, loc,
        arith::ShLIOp::create(
            builder, loc, warp,
            createI32Constant(builder, loc, llvm::Log2_64(lanes))),
        lane);
    if (ctas > 1) {
      Value ctaAlong = createCoordinate(builder, loc, cta, ctaStride, ctas);
      thread = arith::OrIOp::create(
          builder, loc,
          arith::ShLIOp::create(
              builder, loc, ctaAlong,
              createI32Constant(builder, loc, llvm::Log2_64(warps * lanes))),
          thread);
    }
    ctaStride *= ctas;
    Value coordinate = arith::ShLIOp::create(
        builder, loc, thread,
        createI32Constant(builder, loc,
                          llvm::Log2_64(layout.getElems()[d])));
    base[d] = coordinate;
  }
  return base;
}

SmallVector<Value> mlir::blk::createThreadBase(OpBuilder &builder,
                                               Location loc,
                                               const Distribution &distribution,
                                               ThreadIds ids) {
  SmallVector<Value> base =
      createUnwrappedBase(builder, loc, distribution, ids);
  for (int64_t d = 0; d < distribution.getRank(); ++d)
    if (distribution.wraps(d))
      base[d] = arith::AndIOp::create(
          builder, loc, base[d],
          createI32Constant(builder, loc, distribution.getShape()[d] - 1));
  return base;
}

Value mlir::blk::createFirstHolderPredicate(OpBuilder &builder, Location loc,
                                            const Distribution &distribution) {
  SmallVector<Value> base = createUnwrappedBase(
      builder, loc, distribution, createThreadIds(builder, loc));
  Value first;
  for (int64_t d = 0; d < distribution.getRank(); ++d) {
    if (!distribution.wraps(d))
      continue;
    Value inside = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, base[d],
        createI32Constant(builder, loc, distribution.getShape()[d]));
    first = first ? arith::AndIOp::create(builder, loc, first, inside)
                  : inside;
  }
  return first;
}

SmallVector<Value> mlir::blk::extractElements(OpBuilder &builder,
                                              Location loc, Value vector) {
  auto type = cast<VectorType>(vector.getType());
  SmallVector<Value> elements;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    elements.push_back(vector::ExtractOp::create(builder, loc, vector, i));
  return elements;
}
