//===- ReduceOp.cpp - reductions across the threads of a program ----------===//
//
// Three levels, each only as far as the reduced dimension is spread:
//   1. inside a thread, over the elements it holds along the dimension;
//   2. across lanes, an xor-shuffle butterfly (every lane ends with the
//      result, and since each step combines a pair in both orders, they all
//      hold the same bits);
//   3. across warps, through workgroup memory: every thread writes its
//      partials, a barrier, every thread reads those of the warps that hold
//      other parts of its rows and combines them in the same order;
//   4. across the CTAs of a cluster, the same through distributed shared
//      memory: every thread writes its partials to its CTA's buffer, a
//      cluster barrier, every thread reads its own slot in the other CTAs'
//      buffers (mapa + ld.shared::cluster) and combines them in rank order,
//      so all CTAs hold the same bits. A CTA's buffer must outlive the
//      others' reads: a cluster barrier before the kernel returns, and after
//      the reads when the reduction sits in a loop. The last such reduction
//      outside loops arrives at the exit barrier right after its reads, so
//      the kernel's stores hide the wait.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Index of partial `slot` of the thread (warp, lane) in a buffer holding
/// `count` partials per thread.
Value createSlotIndex(OpBuilder &builder, Location loc, Value warp, Value lane,
                      int64_t count, int64_t slot) {
  Value thread = arith::OrIOp::create(
      builder, loc,
      arith::ShLIOp::create(builder, loc, warp,
                            createI32Constant(builder, loc, 5)),
      lane);
  return arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, thread,
                            createI32Constant(builder, loc, count)),
      createI32Constant(builder, loc, slot));
}

/// `index` with the bits that number the `size` positions along a dimension
/// of stride `stride` cleared: the coordinates along the other dimensions.
Value createOtherDims(OpBuilder &builder, Location loc, Value index,
                      int64_t stride, int64_t size) {
  return arith::AndIOp::create(
      builder, loc, index,
      createI32Constant(builder, loc, ~((size - 1) * stride)));
}

/// Pairwise tree, for instruction-level parallelism.
Value combineAll(OpBuilder &builder, Location loc, ReduceKind kind,
                 SmallVector<Value> values) {
  while (values.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < values.size(); i += 2)
      next.push_back(ReduceOp::combine(builder, loc, kind, values[i], values[i + 1]));
    if (values.size() % 2)
      next.push_back(values.back());
    values = std::move(next);
  }
  return values.front();
}

/// Level 1: one partial per result element the thread holds.
SmallVector<Value> reduceInThread(OpBuilder &builder, Location loc,
                                  ReduceKind kind,
                                  const Distribution &distribution,
                                  int64_t dim, ArrayRef<Value> elements,
                                  int64_t resultsPerThread) {
  SmallVector<SmallVector<Value>> groups(resultsPerThread);
  for (int64_t k = 0; k < distribution.getNumElements(); ++k) {
    SmallVector<int64_t> local = distribution.getLocalIndices(k);
    // Row-major index over the other dimensions: the result's numbering.
    int64_t slot = 0;
    for (int64_t d = 0; d < distribution.getRank(); ++d)
      if (d != dim)
        slot = slot * distribution.getCount(d) + local[d];
    groups[slot].push_back(elements[k]);
  }
  SmallVector<Value> partials;
  for (SmallVector<Value> &group : groups)
    partials.push_back(combineAll(builder, loc, kind, group));
  return partials;
}

/// Product of the sizes of the dimensions after `dim`.
int64_t strideOf(ArrayRef<int64_t> sizes, int64_t dim) {
  int64_t stride = 1;
  for (int64_t d = dim + 1; d < static_cast<int64_t>(sizes.size()); ++d)
    stride *= sizes[d];
  return stride;
}

struct ReduceAcrossThreads : public OpConversionPattern<ReduceOp> {
  ReduceAcrossThreads(const TypeConverter &converter, MLIRContext *context,
                      const WorkgroupPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ReduceKind kind = op.getKind();
    Distribution distribution = *Distribution::get(op.getSrc().getType());
    BlockedLayoutAttr layout = distribution.getLayout();
    ReduceSpread spread = distribution.getReduceSpread(op.getAxis());

    SmallVector<Value> partials = reduceInThread(
        rewriter, loc, kind, distribution, spread.layoutDim,
        extractElements(rewriter, loc, adaptor.getSrc()),
        spread.resultsPerThread);

    int64_t laneStride = strideOf(layout.getLanes(), spread.layoutDim);
    Value width = createI32Constant(rewriter, loc, kWarpSize);
    for (int64_t step = 1; step < spread.lanes; step *= 2) {
      Value offset = createI32Constant(rewriter, loc, laneStride * step);
      for (Value &partial : partials) {
        Value other = gpu::ShuffleOp::create(rewriter, loc, partial, offset,
                                             width, gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        partial = ReduceOp::combine(rewriter, loc, kind, partial, other);
      }
    }

    if (spread.warps > 1)
      combineAcrossWarps(rewriter, op, spread, layout, partials);
    if (spread.ctas > 1)
      combineAcrossCtas(rewriter, op, spread, layout, partials);

    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, partials.front());
      return success();
    }
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, partials);
    return success();
  }

  void combineAcrossWarps(OpBuilder &builder, ReduceOp op,
                          const ReduceSpread &spread, BlockedLayoutAttr layout,
                          SmallVector<Value> &partials) const {
    Location loc = op.getLoc();
    auto function = op->getParentOfType<gpu::GPUFuncOp>();
    Value buffer =
        function.getWorkgroupAttributions()[plan.bufferOf.lookup(op)];
    ThreadIds ids = createThreadIds(builder, loc);
    int64_t count = spread.resultsPerThread;
    auto slotIndex = [&](Value warp, int64_t slot) {
      return arith::IndexCastUIOp::create(
                 builder, loc, builder.getIndexType(),
                 createSlotIndex(builder, loc, warp, ids.lane, count, slot))
          .getResult();
    };

    // In a loop, the previous iteration's readers must be done first.
    if (op->getParentOfType<LoopLikeOpInterface>())
      gpu::BarrierOp::create(builder, loc);
    for (auto [slot, partial] : llvm::enumerate(partials))
      memref::StoreOp::create(builder, loc, partial, buffer,
                              ValueRange{slotIndex(ids.warp, slot)});
    gpu::BarrierOp::create(builder, loc);

    int64_t warpStride = strideOf(layout.getWarps(), spread.layoutDim);
    int64_t warpsAlong = layout.getWarps()[spread.layoutDim];
    Value otherDims =
        createOtherDims(builder, loc, ids.warp, warpStride, warpsAlong);
    for (auto [slot, partial] : llvm::enumerate(partials)) {
      Value total;
      for (int64_t j = 0; j < spread.warps; ++j) {
        Value warp = arith::OrIOp::create(
            builder, loc, otherDims,
            createI32Constant(builder, loc, j * warpStride));
        Value value = memref::LoadOp::create(builder, loc, buffer,
                                             ValueRange{slotIndex(warp, slot)});
        total = total ? ReduceOp::combine(builder, loc, op.getKind(), total, value)
                      : value;
      }
      partial = total;
    }
  }

  void combineAcrossCtas(OpBuilder &builder, ReduceOp op,
                         const ReduceSpread &spread, BlockedLayoutAttr layout,
                         SmallVector<Value> &partials) const {
    Location loc = op.getLoc();
    Type element = partials.front().getType();
    LLVM::GlobalOp global = plan.clusterBufferOf.lookup(op);
    auto sharedPtr = LLVM::LLVMPointerType::get(
        builder.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    auto clusterPtr = LLVM::LLVMPointerType::get(
        builder.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value buffer = LLVM::AddressOfOp::create(builder, loc, global);
    ThreadIds ids = createThreadIds(builder, loc);
    int64_t count = spread.resultsPerThread;
    auto slotAddress = [&](int64_t slot) {
      Value index = createSlotIndex(builder, loc, ids.warp, ids.lane, count,
                                    slot);
      return LLVM::GEPOp::create(builder, loc, sharedPtr, element, buffer,
                                 ValueRange{index})
          .getResult();
    };

    // In a loop, the other CTAs must be done reading the previous
    // iteration's partials.
    bool inLoop = op->getParentOfType<LoopLikeOpInterface>() != nullptr;
    for (auto [slot, partial] : llvm::enumerate(partials))
      LLVM::StoreOp::create(builder, loc, partial, slotAddress(slot));
    createClusterBarrier(builder, loc);

    int64_t ctaStride = strideOf(layout.getCtas(), spread.layoutDim);
    Value otherDims =
        createOtherDims(builder, loc, createClusterRank(builder, loc),
                        ctaStride, layout.getCtasAlong(spread.layoutDim));
    for (auto [slot, partial] : llvm::enumerate(partials)) {
      Value local = slotAddress(slot);
      Value total;
      for (int64_t j = 0; j < spread.ctas; ++j) {
        Value rank = arith::OrIOp::create(
            builder, loc, otherDims,
            createI32Constant(builder, loc, j * ctaStride));
        Value remote =
            NVVM::MapaOp::create(builder, loc, clusterPtr, local, rank);
        Value value = LLVM::LoadOp::create(builder, loc, element, remote);
        total = total ? ReduceOp::combine(builder, loc, op.getKind(), total, value)
                      : value;
      }
      partial = total;
    }
    if (inLoop)
      createClusterBarrier(builder, loc);
    else if (plan.exitArriveOf.lookup(
                 op->getParentOfType<gpu::GPUFuncOp>().getName()) == op)
      NVVM::ClusterArriveOp::create(builder, loc, builder.getUnitAttr());
  }

  const WorkgroupPlan &plan;
};

} // namespace

void mlir::blk::createClusterBarrier(OpBuilder &builder, Location loc) {
  // barrier.cluster.arrive releases and .wait acquires by default.
  NVVM::ClusterArriveOp::create(builder, loc, builder.getUnitAttr());
  NVVM::ClusterWaitOp::create(builder, loc, builder.getUnitAttr());
}

int64_t mlir::blk::getClusterReduceSlots(ReduceOp reduce) {
  Distribution distribution = *Distribution::get(reduce.getSrc().getType());
  ReduceSpread spread = distribution.getReduceSpread(reduce.getAxis());
  if (spread.ctas <= 1)
    return 0;
  return kWarpSize * distribution.getLayout().getNumWarps() *
         spread.resultsPerThread;
}

std::optional<MemRefType> mlir::blk::getReduceBuffer(ReduceOp reduce) {
  Distribution distribution = *Distribution::get(reduce.getSrc().getType());
  ReduceSpread spread = distribution.getReduceSpread(reduce.getAxis());
  if (spread.warps <= 1)
    return std::nullopt;
  int64_t threads = kWarpSize * distribution.getLayout().getNumWarps();
  auto workgroup = gpu::AddressSpaceAttr::get(reduce.getContext(),
                                              gpu::AddressSpace::Workgroup);
  return MemRefType::get({threads * spread.resultsPerThread},
                         reduce.getSrc().getType().getElementType(),
                         MemRefLayoutAttrInterface(), workgroup);
}

void mlir::blk::populateReduceOpPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const WorkgroupPlan &plan) {
  patterns.add<ReduceAcrossThreads>(converter, patterns.getContext(), plan);
}
