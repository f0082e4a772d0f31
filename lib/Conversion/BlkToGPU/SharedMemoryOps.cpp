//===- SharedMemoryOps.cpp - blk.local_alloc and blk.local_load -----------===//
//
// A block kept in shared memory is stored thread-major: a thread's elements
// go in chunks of up to 16 bytes, chunk c of thread t at
// (c * threads + t) * chunk bytes from the buffer's start, so that the 32
// lanes of a warp move 32 consecutive chunks (no bank conflicts) and each
// thread reads back exactly what it wrote (no barrier). The buffer of a
// blk.local_alloc (or of a blk.async_copy, which MemoryOps.cpp fills the
// same way with cp.async) is its thread's address of chunk 0 (an LLVM
// pointer to shared memory), in the kernel's dynamic shared memory at the
// offset SharedMemoryPlan gave it.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::blk;

KeptChunks KeptChunks::get(RankedTensorType type) {
  Distribution distribution = *Distribution::get(type);
  int64_t elements = distribution.getNumElements();
  int64_t elementBytes =
      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t width = 1;
  while (width * 2 * elementBytes <= kVectorBytes &&
         elements % (width * 2) == 0)
    width *= 2;
  return {elements, width, elementBytes,
          kWarpSize * distribution.getLayout().getNumWarps()};
}

Value KeptChunks::createBase(OpBuilder &builder, Location loc,
                             const WorkgroupPlan &plan,
                             Operation *keeper) const {
  auto sharedPtr = LLVM::LLVMPointerType::get(
      builder.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  Value start = createDynamicSharedStart(builder, loc, plan, keeper);
  Value tid = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  tid = arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(), tid);
  Value offset = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, tid,
                            createI32Constant(builder, loc, getChunkBytes())),
      createI32Constant(builder, loc, plan.stagedOffsetOf.lookup(keeper)));
  return LLVM::GEPOp::create(builder, loc, sharedPtr, builder.getI8Type(),
                             start, ValueRange{offset});
}

Value KeptChunks::createChunkAddress(OpBuilder &builder, Location loc,
                                     Value base, int64_t chunk) const {
  if (chunk == 0)
    return base;
  return LLVM::GEPOp::create(builder, loc, base.getType(), builder.getI8Type(),
                             base,
                             ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(
                                 chunk * threads * getChunkBytes())});
}

namespace {

struct LocalAllocToStores : public OpConversionPattern<LocalAllocOp> {
  LocalAllocToStores(const TypeConverter &converter, MLIRContext *context,
                     const WorkgroupPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    KeptChunks chunks = KeptChunks::get(op.getSrc().getType());
    Value base = chunks.createBase(rewriter, loc, plan, op);
    auto chunkType =
        VectorType::get({chunks.width}, op.getSrc().getType().getElementType());
    SmallVector<Value> elements =
        extractElements(rewriter, loc, adaptor.getSrc());
    for (int64_t c = 0; c < chunks.getNumChunks(); ++c) {
      Value chunk = vector::FromElementsOp::create(
          rewriter, loc, chunkType,
          ArrayRef<Value>(elements).slice(c * chunks.width, chunks.width));
      LLVM::StoreOp::create(rewriter, loc, chunk,
                            chunks.createChunkAddress(rewriter, loc, base, c),
                            chunks.getChunkBytes());
    }
    rewriter.replaceOp(op, base);
    return success();
  }

  const WorkgroupPlan &plan;
};

struct LocalLoadToLoads : public OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    KeptChunks chunks = KeptChunks::get(op.getType());
    auto chunkType =
        VectorType::get({chunks.width}, op.getType().getElementType());
    SmallVector<Value> elements;
    for (int64_t c = 0; c < chunks.getNumChunks(); ++c) {
      Value chunk = LLVM::LoadOp::create(
          rewriter, loc, chunkType,
          chunks.createChunkAddress(rewriter, loc, adaptor.getSrc(), c),
          chunks.getChunkBytes());
      llvm::append_range(elements, extractElements(rewriter, loc, chunk));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, getTypeConverter()->convertType(op.getType()), elements);
    return success();
  }
};

} // namespace

void mlir::blk::populateSharedMemoryOpPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               const WorkgroupPlan &plan) {
  patterns.add<LocalAllocToStores>(converter, patterns.getContext(), plan);
  patterns.add<LocalLoadToLoads>(converter, patterns.getContext());
}
