//===- SharedMemoryPlan.cpp - shared memory of convert-blk-to-gpu ---------===//
#include "SharedMemoryPlan.h"
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::blk;

static int64_t totalBytes(ArrayRef<MemRefType> buffers) {
  int64_t bytes = 0;
  for (MemRefType buffer : buffers)
    bytes += buffer.getNumElements() * buffer.getElementTypeBitWidth() / 8;
  return bytes;
}

/// The block `keeper` (a blk.local_alloc or blk.async_copy) keeps, with
/// its layout; null for any other op.
static RankedTensorType getKeptBlockType(Operation *keeper) {
  if (auto alloc = dyn_cast_or_null<LocalAllocOp>(keeper))
    return alloc.getSrc() && !alloc.getType().getEncoding()
               ? alloc.getSrc().getType()
               : nullptr;
  if (auto copy = dyn_cast_or_null<AsyncCopyOp>(keeper))
    return copy.getBlockType();
  return nullptr;
}

/// Whether `load` reads back a block kept by a blk.local_alloc (or copied
/// by a blk.async_copy) in the same layout: each thread then reads what it
/// wrote.
static LogicalResult checkLocalLoad(LocalLoadOp load) {
  RankedTensorType kept = getKeptBlockType(load.getSrc().getDefiningOp());
  if (!kept)
    return load.emitOpError()
           << "expected its buffer to be the result of a blk.local_alloc or "
              "blk.async_copy, but found "
           << (isa<BlockArgument>(load.getSrc()) ? "a block argument"
                                                 : "another op's result");
  if (kept != load.getType())
    return load.emitOpError() << "expected the layout of the block written, "
                              << kept << ", but found " << load.getType();
  return success();
}

namespace {

/// A region of a kernel's dynamic shared memory, and the ops of the
/// kernel's body (by position) from the first that writes it to the last
/// that reads it: an op in a loop counts as the whole loop.
struct SharedRegion {
  int64_t offset, bytes;
  int64_t first, last;

  int64_t getEnd() const { return offset + bytes; }
  bool isLiveWith(const SharedRegion &other) const {
    return first <= other.last && other.first <= last;
  }
};

/// Positions of the ops of a kernel's body.
class BodyPositions {
public:
  explicit BodyPositions(func::FuncOp kernel) : body(kernel.getBody().front()) {
    for (auto [position, op] : llvm::enumerate(body))
      positions[&op] = position;
  }

  /// The position of the op of the body that is or holds `op`.
  int64_t get(Operation *op) const {
    return positions.lookup(body.findAncestorOpInBlock(*op));
  }

  /// The positions from the kernel's start to the last op that uses
  /// `owner`'s buffer (through the slots a blk.local_index takes of it,
  /// too). From the start, not from `owner`: a conversion before it ends
  /// reading its scratch without a barrier, and the buffer's first writes
  /// (stores or cp.async, of threads that may be ahead) must not land
  /// there.
  std::pair<int64_t, int64_t> getLiveRange(Operation *owner) const {
    int64_t last = get(owner);
    SmallVector<Value> buffers(owner->getResults());
    while (!buffers.empty())
      for (Operation *user : buffers.pop_back_val().getUsers()) {
        last = std::max(last, get(user));
        if (isa<LocalIndexOp>(user))
          buffers.push_back(user->getResult(0));
      }
    return {0, last};
  }

private:
  Block &body;
  llvm::DenseMap<Operation *, int64_t> positions;
};

} // namespace

/// Places the blocks kept by the kernel's blk.local_allocs and the
/// operands of its blk.dots one after the other (16-byte aligned) in its
/// dynamic shared memory, recording each in `regions`; returns its size.
static FailureOr<int64_t> planStagedBlocks(func::FuncOp kernel,
                                           const TargetInfo &target,
                                           WorkgroupPlan &plan,
                                           int64_t &alignment,
                                           const BodyPositions &positions,
                                           SmallVectorImpl<SharedRegion> &regions) {
  int64_t bytes = 0;
  auto record = [&](Operation *owner, int64_t size) {
    auto [first, last] = positions.getLiveRange(owner);
    regions.push_back({bytes, size, first, last});
    plan.stagedOffsetOf[owner] = bytes;
    bytes += size;
  };
  WalkResult result = kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<LocalLoadOp>(op))
      return failed(checkLocalLoad(load)) ? WalkResult::interrupt()
                                          : WalkResult::advance();
    if (RankedTensorType kept = getKeptBlockType(op)) {
      // Threads find their chunks by their index in the CTA: the layout
      // must spread the block over the kernel's warps.
      FailureOr<Distribution> distribution = Distribution::get(kept);
      int64_t warps = getKernelAttr(kernel).getNumWarps();
      if (failed(distribution) ||
          distribution->getLayout().getNumWarps() != warps) {
        op->emitOpError() << "expected a block laid out over the kernel's "
                          << warps << " warps (run blk-distribute), but found "
                          << kept;
        return WalkResult::interrupt();
      }
      record(op, llvm::alignTo(*getKeptBlockBytes(kept), kVectorBytes));
    }
    if (auto alloc = dyn_cast<LocalAllocOp>(op);
        alloc && alloc.getType().getEncoding()) {
      // A #blk.swizzled buffer, or a ring of them (blk.local_index): whole
      // slots, each aligned as wgmma's panels must be.
      alignment = std::max(alignment, kSwizzleRepeatBytes);
      bytes = llvm::alignTo(bytes, kSwizzleRepeatBytes);
      record(op, getSwizzledBufferBytes(alloc.getType()));
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      int64_t dotAlignment = getDotSharedAlignment(dot, target);
      alignment = std::max(alignment, dotAlignment);
      bytes = llvm::alignTo(bytes, dotAlignment);
      record(op, getDotSharedBytes(dot, target));
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return bytes;
}

/// Whether both layouts of `convert` spread its block over the kernel's
/// warps in one CTA: the scratch is the CTA's, and every thread of the CTA
/// meets at its barriers.
static LogicalResult checkConversion(ConvertLayoutOp convert,
                                     int64_t numWarps) {
  for (RankedTensorType type : {convert.getSrc().getType(), convert.getType()}) {
    FailureOr<Distribution> distribution = Distribution::get(type);
    if (failed(distribution) ||
        distribution->getLayout().getNumWarps() != numWarps ||
        distribution->getLayout().getNumCtas() != 1)
      return convert.emitOpError()
             << "expected blocks laid out over the kernel's " << numWarps
             << " warps of one CTA (run blk-distribute), but found " << type;
  }
  return success();
}

/// Places the scratch buffer of each blk.convert_layout at the lowest
/// offset where it meets no region live at the same time (its barrier
/// before the writes orders them after every read of a region that was):
/// after a K loop, C's conversion takes the place of the loop's operands.
/// Returns the end of the last region.
static FailureOr<int64_t>
planConversions(func::FuncOp kernel, WorkgroupPlan &plan,
                const BodyPositions &positions,
                SmallVectorImpl<SharedRegion> &regions) {
  int64_t numWarps = getKernelAttr(kernel).getNumWarps();
  WalkResult result = kernel.walk([&](ConvertLayoutOp convert) {
    if (failed(checkConversion(convert, numWarps)))
      return WalkResult::interrupt();
    if (convert.getSrc().getType() == convert.getType())
      return WalkResult::advance();
    int64_t position = positions.get(convert);
    SharedRegion scratch{0,
                         ConversionScratch::get(convert.getType()).getBytes(),
                         position, position};
    SmallVector<SharedRegion> live;
    for (const SharedRegion &region : regions)
      if (region.isLiveWith(scratch))
        live.push_back(region);
    llvm::sort(live, [](const SharedRegion &a, const SharedRegion &b) {
      return a.offset < b.offset;
    });
    for (const SharedRegion &region : live)
      if (scratch.getEnd() > region.offset)
        scratch.offset = std::max<int64_t>(
            scratch.offset, llvm::alignTo(region.getEnd(), kVectorBytes));
    plan.stagedOffsetOf[convert] = scratch.offset;
    regions.push_back(scratch);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  int64_t end = 0;
  for (const SharedRegion &region : regions)
    end = std::max(end, region.getEnd());
  return end;
}

LogicalResult mlir::blk::planSharedMemory(func::FuncOp kernel,
                                          const TargetInfo &target,
                                          WorkgroupPlan &plan) {
  SmallVector<MemRefType> &buffers = plan.buffers[kernel];
  int64_t clusterBytes = 0;
  Operation *lastClusterReduce = nullptr;
  kernel.walk([&](ReductionOpInterface reduce) {
    if (std::optional<MemRefType> buffer = getReduceBuffer(reduce)) {
      plan.bufferOf[reduce] = buffers.size();
      buffers.push_back(*buffer);
    }
    if (int64_t slots = getClusterReduceSlots(reduce)) {
      Type element = getPartialType(reduce);
      clusterBytes += slots * element.getIntOrFloatBitWidth() / 8;
      plan.clusterPartials.push_back(
          {reduce, LLVM::LLVMArrayType::get(element, slots)});
      plan.readsAcrossCtas.insert(kernel.getSymName());
      lastClusterReduce = reduce;
    }
  });
  // The walk visits reductions in program order.
  if (lastClusterReduce && lastClusterReduce->getParentOp() == kernel)
    plan.exitArriveOf[kernel.getSymName()] = lastClusterReduce;
  int64_t barrierBytes = 0;
  kernel.walk([&](InitBarriersOp init) {
    int64_t count = init.getType().getCount();
    barrierBytes += count * kMbarrierBytes;
    plan.barrierArrays.push_back(
        {init, LLVM::LLVMArrayType::get(
                   IntegerType::get(kernel.getContext(), 64), count)});
  });
  int64_t sharedBytes = totalBytes(buffers) + clusterBytes + barrierBytes;
  if (sharedBytes > target.getMaxStaticSharedBytes())
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " needs " << sharedBytes
           << " bytes of shared memory for its reductions, over the "
           << target.getMaxStaticSharedBytes()
           << "-byte static limit; use fewer warps or rows";
  int64_t alignment = kVectorBytes;
  BodyPositions positions(kernel);
  SmallVector<SharedRegion> regions;
  FailureOr<int64_t> stagedBytes =
      planStagedBlocks(kernel, target, plan, alignment, positions, regions);
  if (failed(stagedBytes))
    return failure();
  // Room to round the start up (createDynamicSharedStart): it is at least
  // 16-byte aligned.
  int64_t padding = alignment - kVectorBytes;
  if (sharedBytes + *stagedBytes + padding > target.getMaxSharedBytesPerCta())
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " needs " << sharedBytes
           << " bytes of shared memory for its reductions and "
           << *stagedBytes + padding
           << " for the blocks it keeps (blk.local_alloc) and its products' "
              "operands (blk.dot), over the "
           << target.getMaxSharedBytesPerCta() << " bytes a CTA of "
           << target.getChip() << " may have";
  // Second copies of the dots' regions in loops, while they fit: one
  // barrier a K step instead of two.
  kernel.walk([&](DotOp dot) {
    int64_t bytes = getDotSharedBytes(dot, target);
    int64_t offset =
        llvm::alignTo(*stagedBytes, getDotSharedAlignment(dot, target));
    if (!getAlternationLoop(dot) || sharedBytes + offset + bytes + padding >
                                        target.getMaxSharedBytesPerCta())
      return;
    plan.secondCopyOffsetOf[dot] = offset;
    auto [first, last] = positions.getLiveRange(dot);
    regions.push_back({offset, bytes, first, last});
    *stagedBytes = offset + bytes;
  });
  FailureOr<int64_t> convertedBytes =
      planConversions(kernel, plan, positions, regions);
  if (failed(convertedBytes))
    return failure();
  if (sharedBytes + *convertedBytes + padding >
      target.getMaxSharedBytesPerCta())
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " needs "
           << *convertedBytes + padding
           << " bytes of dynamic shared memory with the scratch buffers of "
              "its layout conversions (blk.convert_layout), and "
           << sharedBytes << " for its reductions, over the "
           << target.getMaxSharedBytesPerCta() << " bytes a CTA of "
           << target.getChip() << " may have";
  *stagedBytes = std::max(*stagedBytes, *convertedBytes) + padding;
  if (padding)
    plan.dynamicSharedAlignmentOf[kernel.getSymName()] = alignment;
  plan.sharedBytes[kernel] = sharedBytes;
  plan.dynamicSharedBytes[kernel] = *stagedBytes;
  return success();
}

void mlir::blk::createSharedGlobals(gpu::GPUModuleOp gpuModule,
                                    WorkgroupPlan &plan) {
  auto builder = OpBuilder::atBlockBegin(gpuModule.getBody());
  auto shared = static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
  for (auto [index, partial] : llvm::enumerate(plan.clusterPartials)) {
    auto [reduce, type] = partial;
    plan.clusterBufferOf[reduce] = LLVM::GlobalOp::create(
        builder, reduce->getLoc(), type, /*isConstant=*/false,
        LLVM::Linkage::Internal,
        "blk_cluster_partials_" + std::to_string(index), Attribute(),
        /*alignment=*/kVectorBytes, shared);
  }
  for (auto [index, barriers] : llvm::enumerate(plan.barrierArrays)) {
    auto [init, type] = barriers;
    plan.barriersOf[init] = LLVM::GlobalOp::create(
        builder, init->getLoc(), type, /*isConstant=*/false,
        LLVM::Linkage::Internal, "blk_barriers_" + std::to_string(index),
        Attribute(), /*alignment=*/kMbarrierBytes, shared);
  }
  if (plan.stagedOffsetOf.empty())
    return;
  // An external array of no elements in shared memory is the launch's
  // dynamic shared memory (`.extern .shared ... []` in PTX); NVPTX would
  // demote an internal one to a static byte of the kernel.
  int64_t alignment = kVectorBytes;
  for (const auto &kernel : plan.dynamicSharedAlignmentOf)
    alignment = std::max(alignment, kernel.getValue());
  plan.dynamicShared = LLVM::GlobalOp::create(
      builder, gpuModule.getLoc(),
      LLVM::LLVMArrayType::get(builder.getI8Type(), 0), /*isConstant=*/false,
      LLVM::Linkage::External, "blk_dynamic_shared", Attribute(), alignment,
      shared);
}

ArrayAttr mlir::blk::buildLaunchRecords(MLIRContext *context,
                                        ArrayRef<func::FuncOp> kernels,
                                        const WorkgroupPlan &plan) {
  SmallVector<Attribute> launches;
  for (func::FuncOp kernel : kernels) {
    KernelAttr attr = getKernelAttr(kernel);
    SmallVector<Attribute> tensorMaps;
    for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
      if (auto map = dyn_cast<TensorMapType>(type))
        tensorMaps.push_back(TensorMapAttr::get(
            context, getArgAttr(kernel, index).getName(), map.getBox(),
            map.getRotationFirst(), map.getRotationBits()));
    launches.push_back(LaunchAttr::get(
        context, kernel.getSymName(), kWarpSize * attr.getNumWarps(),
        attr.getNumCtas(), plan.sharedBytes.lookup(kernel),
        plan.dynamicSharedBytes.lookup(kernel), attr.getGrid(),
        getResidentPrograms(kernel), kernel.getArgumentTypes(),
        tensorMaps.empty() ? ArrayAttr() : ArrayAttr::get(context, tensorMaps)));
  }
  return ArrayAttr::get(context, launches);
}

Value mlir::blk::createDynamicSharedStart(OpBuilder &builder, Location loc,
                                          const WorkgroupPlan &plan,
                                          Operation *user) {
  auto pointer = LLVM::LLVMPointerType::get(
      builder.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  LLVM::GlobalOp shared = plan.dynamicShared;
  Value start =
      LLVM::AddressOfOp::create(builder, loc, pointer, shared.getSymName());
  auto kernel = user->getParentOfType<FunctionOpInterface>();
  int64_t alignment = plan.dynamicSharedAlignmentOf.lookup(kernel.getName());
  if (alignment <= kVectorBytes)
    return start;
  Type i32 = builder.getI32Type();
  Value address = LLVM::PtrToIntOp::create(builder, loc, i32, start);
  Value padding = arith::AndIOp::create(
      builder, loc,
      arith::SubIOp::create(builder, loc, createI32Constant(builder, loc, 0),
                            address),
      createI32Constant(builder, loc, alignment - 1));
  return LLVM::GEPOp::create(builder, loc, pointer, builder.getI8Type(), start,
                             ValueRange{padding});
}
