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
// A #blk.swizzled buffer (or ring of them) is arranged as wgmma reads it
// instead (createSwizzledOffset): its value is the buffer's start, the same
// in every thread, and blk.async_copy_into writes it.
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

/// The byte offset of element (row, col) of a 16-bit tile of `rows` rows
/// stored as wgmma reads it with the 128-byte swizzle: panels of 64
/// columns one after the other, each `rows` rows of 128 bytes, the 16-byte
/// chunk c of row r at chunk c ^ (r mod 8) of its row (PTX ISA, "Shared
/// Memory Matrix Layout"). The 8 lanes that store one row's 8 chunks write
/// 8 different chunks of banks.
static Value createSwizzledOffset(OpBuilder &b, Location loc, Value row,
                                  Value col, int64_t rows) {
  auto constant = [&](int64_t value) {
    return createI32Constant(b, loc, value);
  };
  Value panel = arith::ShRUIOp::create(
      b, loc, col, constant(llvm::Log2_64(kWgmmaPanelElements)));
  Value inPanel =
      arith::AndIOp::create(b, loc, col, constant(kWgmmaPanelElements - 1));
  Value chunk = arith::ShRUIOp::create(b, loc, inPanel, constant(3));
  Value swizzledChunk = arith::XOrIOp::create(
      b, loc, chunk, arith::AndIOp::create(b, loc, row, constant(7)));
  Value inChunk = arith::AndIOp::create(b, loc, inPanel, constant(7));
  return createMulAdd(
      b, loc, panel, rows * kPanelRowBytes,
      createMulAdd(b, loc, row, kPanelRowBytes,
                   createMulAdd(b, loc, swizzledChunk, 16,
                                createMulAdd(b, loc, inChunk, 2, Value()))));
}

Value mlir::blk::createRotatedRow(OpBuilder &b, Location loc, Value row,
                                 BitRotation rotation) {
  auto constant = [&](int64_t value) {
    return createI32Constant(b, loc, value);
  };
  int64_t field = rotation.getField();
  // BitRotation::apply, on the row in a register.
  Value kept = arith::AndIOp::create(b, loc, row, constant(~field));
  Value up = arith::AndIOp::create(
      b, loc,
      arith::ShLIOp::create(
          b, loc, arith::AndIOp::create(b, loc, row, constant(field)),
          constant(1)),
      constant(field));
  Value around = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, row, constant(rotation.getTopBit())),
      constant(rotation.count - 1));
  return arith::OrIOp::create(
      b, loc, kept, arith::OrIOp::create(b, loc, up, around));
}


Value mlir::blk::createSwizzledRunAddress(
    OpBuilder &b, Location loc, const Distribution &distribution,
    ArrayRef<Value> base, int64_t k, Value start,
    ArrayRef<int64_t> blockShape, SwizzledSharedAttr encoding) {
  SmallVector<int64_t> offsets = distribution.getElementOffsets(k);
  Value row = arith::AddIOp::create(b, loc, base[0],
                                    createI32Constant(b, loc, offsets[0]));
  Value col = arith::AddIOp::create(b, loc, base[1],
                                    createI32Constant(b, loc, offsets[1]));
  int64_t panelRows = blockShape[0];
  if (encoding.getTransposed()) {
    std::swap(row, col);
    panelRows = blockShape[1];
  }
  if (std::optional<BitRotation> rotation = getRowRotation(encoding))
    row = createRotatedRow(b, loc, row, *rotation);
  return LLVM::GEPOp::create(
      b, loc, start.getType(), b.getI8Type(), start,
      ValueRange{createSwizzledOffset(b, loc, row, col, panelRows)});
}

namespace {

/// The start of a #blk.swizzled buffer: where the plan placed it.
Value createSwizzledStart(OpBuilder &b, Location loc, const WorkgroupPlan &plan,
                          LocalAllocOp op) {
  Value start = createDynamicSharedStart(b, loc, plan, op);
  return LLVM::GEPOp::create(
      b, loc, start.getType(), b.getI8Type(), start,
      ValueRange{createI32Constant(b, loc, plan.stagedOffsetOf.lookup(op))});
}

struct LocalAllocToStores : public OpConversionPattern<LocalAllocOp> {
  LocalAllocToStores(const TypeConverter &converter, MLIRContext *context,
                     const WorkgroupPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (SwizzledSharedAttr encoding = op.getType().getEncoding()) {
      Value start = createSwizzledStart(rewriter, loc, plan, op);
      if (Value src = op.getSrc())
        storeSwizzled(rewriter, loc, *Distribution::get(src.getType()),
                      adaptor.getSrc(), start, createThreadIds(rewriter, loc),
                      op.getType().getShape(), encoding);
      rewriter.replaceOp(op, start);
      return success();
    }
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

/// Slot i of a ring: i slots' bytes after its start.
struct LocalIndexToAddress : public OpConversionPattern<LocalIndexOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bytes = arith::MulIOp::create(
        rewriter, loc, adaptor.getIndex(),
        createI32Constant(rewriter, loc,
                          getSwizzledSlotBytes(op.getRing().getType())));
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, adaptor.getRing().getType(), rewriter.getI8Type(),
        adaptor.getRing(), ValueRange{bytes});
    return success();
  }
};

/// blk.convert_layout through the scratch buffer the plan placed
/// (ConversionScratch): a barrier (the buffer may lie where blocks no
/// longer read were), every thread's runs written, a barrier, the new
/// layout's runs read.
struct ConvertLayoutThroughShared
    : public OpConversionPattern<ConvertLayoutOp> {
  ConvertLayoutThroughShared(const TypeConverter &converter,
                             MLIRContext *context, const WorkgroupPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Distribution> from = Distribution::get(op.getSrc().getType());
    FailureOr<Distribution> to = Distribution::get(op.getType());
    if (failed(from) || failed(to))
      return rewriter.notifyMatchFailure(op, "a block without a layout");
    if (op.getSrc().getType() == op.getType()) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    Location loc = op.getLoc();
    ConversionScratch scratch = ConversionScratch::get(op.getType());
    Value start = createDynamicSharedStart(rewriter, loc, plan, op);
    start = LLVM::GEPOp::create(
        rewriter, loc, start.getType(), rewriter.getI8Type(), start,
        ValueRange{
            createI32Constant(rewriter, loc, plan.stagedOffsetOf.lookup(op))});
    ThreadIds ids = createThreadIds(rewriter, loc);
    Type element = op.getType().getElementType();
    Type stored = element.getIntOrFloatBitWidth() < 8
                      ? Type(rewriter.getI8Type())
                      : element;

    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> elements =
        extractElements(rewriter, loc, adaptor.getSrc());
    if (stored != element)
      for (Value &value : elements)
        value = arith::ExtUIOp::create(rewriter, loc, stored, value);
    forEachRun(rewriter, loc, *from, scratch, start, ids,
               [&](Value address, int64_t first, int64_t width) {
                 Value run = vector::FromElementsOp::create(
                     rewriter, loc, VectorType::get({width}, stored),
                     ArrayRef<Value>(elements).slice(first, width));
                 LLVM::StoreOp::create(rewriter, loc, run, address,
                                       width * scratch.elementBytes);
               });
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> converted(to->getNumElements());
    forEachRun(rewriter, loc, *to, scratch, start, ids,
               [&](Value address, int64_t first, int64_t width) {
                 Value run = LLVM::LoadOp::create(
                     rewriter, loc, VectorType::get({width}, stored), address,
                     width * scratch.elementBytes);
                 for (auto [i, value] :
                      llvm::enumerate(extractElements(rewriter, loc, run)))
                   converted[first + i] =
                       stored == element
                           ? value
                           : arith::TruncIOp::create(rewriter, loc, element,
                                                     value)
                                 .getResult();
               });
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, getTypeConverter()->convertType(op.getType()), converted);
    return success();
  }

private:
  /// Calls `fn` with the scratch address of each run of the thread's
  /// elements of `distribution` that one vector access moves, the run's
  /// first element and its length: the elements of a run along the last
  /// dimension are consecutive in the thread's vector and in a row.
  template <typename Fn>
  static void forEachRun(OpBuilder &b, Location loc,
                         const Distribution &distribution,
                         const ConversionScratch &scratch, Value start,
                         ThreadIds ids, Fn fn) {
    int64_t rank = distribution.getRank();
    int64_t width = getVectorWidth(distribution, scratch);
    // The block's coordinates are the layout's without a sliced dimension.
    auto toBlock = [&](ArrayRef<int64_t> layoutCoords) {
      SmallVector<int64_t> block;
      for (int64_t d = 0; d < rank; ++d)
        if (distribution.getSlicedDim() != d)
          block.push_back(layoutCoords[d]);
      return block;
    };
    // The thread's offset, linear in its base coordinates.
    SmallVector<Value> base = createThreadBase(b, loc, distribution, ids);
    Value threadOffset = createI32Constant(b, loc, 0);
    for (int64_t d = 0; d < rank; ++d) {
      SmallVector<int64_t> unit(rank, 0);
      unit[d] = 1;
      int64_t scale =
          distribution.getSlicedDim() == d ? 0 : scratch.getOffset(toBlock(unit));
      if (scale)
        threadOffset = createMulAdd(b, loc, base[d],
                                    scale * scratch.elementBytes, threadOffset);
    }
    Value threadStart = LLVM::GEPOp::create(b, loc, start.getType(),
                                            b.getI8Type(), start,
                                            ValueRange{threadOffset});
    for (int64_t k = 0; k < distribution.getNumElements(); k += width) {
      int64_t offset = scratch.getOffset(
          toBlock(distribution.getElementOffsets(k)));
      Value address = LLVM::GEPOp::create(
          b, loc, start.getType(), b.getI8Type(), threadStart,
          ArrayRef<LLVM::GEPArg>{
              static_cast<int32_t>(offset * scratch.elementBytes)});
      fn(address, k, width);
    }
  }

  /// Elements a thread moves in one access: a power of two dividing its
  /// runs along the last dimension, at most 16 bytes, and a divisor of the
  /// row pitch, so that every run starts aligned to its size.
  static int64_t getVectorWidth(const Distribution &distribution,
                                const ConversionScratch &scratch) {
    int64_t run = distribution.getSlicedDim() == distribution.getRank() - 1
                      ? 1
                      : distribution.getRunLength(distribution.getRank() - 1);
    int64_t width = 1;
    while (run % (width * 2) == 0 &&
           width * 2 * scratch.elementBytes <= kVectorBytes &&
           scratch.rowPitch % (width * 2) == 0)
      width *= 2;
    return width;
  }

  const WorkgroupPlan &plan;
};

} // namespace

void mlir::blk::populateSharedMemoryOpPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               const WorkgroupPlan &plan) {
  patterns.add<LocalAllocToStores, ConvertLayoutThroughShared>(
      converter, patterns.getContext(), plan);
  patterns.add<LocalLoadToLoads, LocalIndexToAddress>(converter,
                                                      patterns.getContext());
}
