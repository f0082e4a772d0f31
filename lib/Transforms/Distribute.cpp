//===- Distribute.cpp - choose the thread layout of every block -----------===//
//
// One blocked layout per layout class (LayoutClasses.h: the blocks that must
// share one), for its blocks of highest rank: blocks of a class never need
// to move between threads. Lower-rank blocks of a 2-D class are slices of
// it, chosen by the reduction that produced them or the expand_dims that
// consumes them and shared by everything connected to them through
// elementwise ops, loads, stores and loop-carried values.
//
// A class holding the accumulators of blk.dots that can run on mma.sync
// gets the layout that holds them as mma fragments (Distribution.h; every
// warp along M where they fit wgmma): the dots then keep them in
// registers. Their operands pass through shared memory whatever their
// layout, so they are classes of their own, laid out for their loads; so
// is a block stored from such a class through a blk.convert_layout
// (convertStoredFragments).
//
//===----------------------------------------------------------------------===//
#include "blk/Analysis/AccessAnalysis.h"
#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"
#include "blk/Transforms/Passes.h"
#include "LayoutClasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKDISTRIBUTE
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Registers a thread may spend on one block's elements (32-bit each).
constexpr int64_t kMaxRegistersPerBlock = 128;

/// Every value of the function: op results and block arguments.
template <typename Fn> void forEachValue(func::FuncOp func, Fn fn) {
  func.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      fn(arg);
  });
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      fn(result);
  });
}

/// Reports an unbound constant or a dynamic shape, which keep a kernel from
/// being distributed.
LogicalResult checkSpecialized(func::FuncOp func) {
  std::optional<Unspecialized> found = findUnspecialized(func);
  if (!found)
    return success();
  InFlightDiagnostic diagnostic = found->emitError();
  if (found->dynamicBlock)
    diagnostic << "; bind its compile-time constants with --blk-specialize "
                  "first";
  else
    diagnostic << "; run --blk-specialize=\"" << found->constantName
               << "=<value>\" first";
  return diagnostic;
}

/// Reports blocks the layouts cannot describe: of rank other than 1 or 2,
/// or 2-D with a dimension that is not a power of two (1-D blocks are
/// checked against their layout, checkBlocksFitLayout).
LogicalResult checkBlockShapes(func::FuncOp func) {
  WalkResult result = func.walk([](Operation *op) {
    for (Value value : op->getResults()) {
      auto tensor = dyn_cast<RankedTensorType>(value.getType());
      if (!tensor)
        continue;
      if (tensor.getRank() == 0 || tensor.getRank() > 2) {
        op->emitOpError() << "blocks of rank " << tensor.getRank()
                          << " are not supported (1 or 2)";
        return WalkResult::interrupt();
      }
      if (tensor.getRank() == 1)
        continue;
      for (int64_t dim : tensor.getShape())
        if (!llvm::isPowerOf2_64(dim)) {
          op->emitOpError()
              << "2-D block " << tensor << " has dimension " << dim
              << ", which is not a power of two; use a larger "
                 "block and mask the tail";
          return WalkResult::interrupt();
        }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Reports blocks their layout does not cover exactly: a dimension must be
/// a power of two (the layout's threads wrap around a smaller one, or tile
/// a larger one) or a whole number of the layout's tiles along it (a row
/// of 50257 in a block of 7 x 8192 rather than 65536).
LogicalResult checkBlocksFitLayout(func::FuncOp func) {
  WalkResult result = func.walk([](Operation *op) {
    for (Value value : op->getResults()) {
      FailureOr<Distribution> distribution = Distribution::get(value.getType());
      if (failed(distribution))
        continue;
      for (int64_t d = 0; d < distribution->getRank(); ++d) {
        int64_t dim = distribution->getShape()[d];
        int64_t tile = distribution->getTile(d);
        if (llvm::isPowerOf2_64(dim) || dim % tile == 0)
          continue;
        auto tensor = cast<RankedTensorType>(value.getType());
        op->emitOpError()
            << "block "
            << RankedTensorType::get(tensor.getShape(), tensor.getElementType())
            << " has dimension " << dim
            << ", which is neither a power of two nor a multiple of its "
               "layout's tile of "
            << tile
            << " elements along it; use a power of two or a "
               "multiple of the tile, and mask the tail";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Whether `block` decides a layout rather than `anchor` (none yet): the
/// block of highest rank, then most elements.
bool outranks(RankedTensorType block, RankedTensorType anchor) {
  return !anchor || block.getRank() > anchor.getRank() ||
         (block.getRank() == anchor.getRank() &&
          block.getNumElements() > anchor.getNumElements());
}

/// The block type that decides the kernel's rank.
RankedTensorType findAnchor(func::FuncOp func) {
  RankedTensorType anchor;
  forEachValue(func, [&](Value value) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (tensor && outranks(tensor, anchor))
      anchor = tensor;
  });
  return anchor;
}

/// The block type of each layout class that decides its layout.
llvm::DenseMap<Value, RankedTensorType>
findAnchors(func::FuncOp func, const LayoutClasses &classes) {
  llvm::DenseMap<Value, RankedTensorType> anchors;
  forEachValue(func, [&](Value value) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor)
      return;
    RankedTensorType &anchor = anchors[classes.getClass(value)];
    if (outranks(tensor, anchor))
      anchor = tensor;
  });
  return anchors;
}

/// Whether runs aligned only at run time are realigned (blk.realign) rather
/// than moved element by element in a layout of one element per run. It
/// pays where the element-by-element path's addresses cost occupancy: on
/// rows held by a cluster of CTAs (H100, new/old GB/s: 2048 x 50257 bf16
/// 1.13x (166 -> 94 registers), f32 1.27x; 333 x 100003 f32 1.16x). With one
/// CTA a row the element path was as fast: 4096 x 32001 f32 0.91x, bf16
/// 0.99x; 4096 x 1001 bf16 0.89x.
bool realignsRuns(int64_t numCtas) { return numCtas > 1; }

/// Consecutive elements per thread in the layout of the class `layoutClass`
/// whose largest block is `anchor`: 16 bytes where every access of the
/// class allows it.
int64_t chooseVectorWidth(func::FuncOp func, const LayoutClasses &classes,
                          Value layoutClass, RankedTensorType anchor,
                          int64_t threads, bool realign,
                          AccessAnalysis &analysis) {
  int64_t width = kVectorBytes / 4;
  bool anyAccess = false;
  // Only accesses of the anchor's shape decide: smaller blocks (a per-row
  // value) and blocks that read one address all along a row (a splat of a
  // row's partial) do not stream memory, and accessing them element by
  // element costs little.
  func.walk([&](MemoryAccessOpInterface access) {
    TypedValue<RankedTensorType> offsets = access.getOffsets();
    // A fallback runs only where its aligned twin cannot (blk.fallback).
    if (classes.getClass(offsets) != layoutClass ||
        access->hasAttr(BlkDialect::getFallbackAttrName()) ||
        offsets.getType().getShape() != anchor.getShape() ||
        analysis.getFacts(offsets).constancy >= anchor.getShape().back())
      return;
    int64_t maxElements =
        kVectorBytes / access.getBase().getType().getElementBytes();
    if (!anyAccess)
      width = maxElements;
    anyAccess = true;
    int64_t accessWidth =
        analysis.getVectorWidth(access.getBase(), offsets, maxElements);
    // Runs aligned only at run time are realigned then (blk.realign):
    // moved element by element, bf16 rows of 50257 ran at 49% of a copy.
    if (realign && accessWidth < maxElements && analysis.isRealignable(access))
      accessWidth = maxElements;
    width = std::min(width, accessWidth);
  });
  int64_t lastDim = anchor.getShape().back();
  int64_t perThread = std::max<int64_t>(1, anchor.getNumElements() / threads);
  return std::max<int64_t>(1, std::min({width, lastDim, perThread}));
}

/// Whether the runs of `access` can be realigned at run time: besides what
/// the analysis proves, the conversion exchanges whole 32-bit words with the
/// neighbouring lanes, so a run has at least 4 bytes and no two threads
/// hold the same run.
bool canRealign(MemoryAccessOpInterface access,
                const Distribution &distribution, AccessAnalysis &analysis) {
  int64_t last = distribution.getRank() - 1;
  int64_t runBytes = distribution.getRunLength(last) *
                     access.getBase().getType().getElementBytes();
  return runBytes >= 4 && !distribution.wraps(last) &&
         analysis.isRealignable(access);
}

BlockedLayoutAttr chooseLayout(MLIRContext *context, RankedTensorType anchor,
                               int64_t numWarps, int64_t numCtas,
                               int64_t vectorWidth) {
  // The CTAs of a cluster split the rows' columns: a row is what a cluster
  // is for (too long for one SM).
  SmallVector<int64_t> ctas;
  if (numCtas > 1) {
    ctas.assign(anchor.getRank(), 1);
    ctas.back() = numCtas;
  }
  if (anchor.getRank() == 1)
    return BlockedLayoutAttr::get(context, {vectorWidth}, {kWarpSize},
                                  {numWarps}, ctas);
  int64_t rows = anchor.getShape().front();
  int64_t cols = anchor.getShape().back();
  int64_t lanesAlongRow =
      std::clamp<int64_t>(cols / vectorWidth, 1, kWarpSize);
  int64_t lanesDownRows = kWarpSize / lanesAlongRow;
  // Warps go down the rows first, as far as there are rows for them: a row
  // held by one warp reduces with shuffles alone, without a round through
  // shared memory and a barrier.
  int64_t warpsDownRows =
      std::clamp<int64_t>(rows / lanesDownRows, 1, numWarps);
  return BlockedLayoutAttr::get(
      context, {1, vectorWidth}, {lanesDownRows, lanesAlongRow},
      {warpsDownRows, numWarps / warpsDownRows}, ctas);
}

/// Where the accesses of the class `layoutClass` (those of its anchor's
/// shape, at least one) move single elements along their rows but runs
/// down their columns (a transposed tile: K^T read from K's rows, each
/// column a row of K), the elements every one of them can move as one
/// vector down a column (at most 16 bytes); none otherwise. Lanes along the
/// rows would touch a different 32-byte sector each; down the columns a
/// warp reads whole sectors.
std::optional<int64_t> getColumnRunWidth(func::FuncOp func,
                                         const LayoutClasses &classes,
                                         Value layoutClass,
                                         RankedTensorType anchor,
                                         AccessAnalysis &analysis) {
  if (anchor.getRank() != 2)
    return std::nullopt;
  bool any = false, all = true;
  int64_t width = kVectorBytes;
  func.walk([&](MemoryAccessOpInterface access) {
    TypedValue<RankedTensorType> offsets = access.getOffsets();
    if (classes.getClass(offsets) != layoutClass ||
        offsets.getType().getShape() != anchor.getShape())
      return;
    any = true;
    all &= analysis.getFacts(offsets).contiguity == 1 &&
           analysis.getColumnContiguity(offsets) > 1;
    int64_t maxElements =
        kVectorBytes / access.getBase().getType().getElementBytes();
    width = std::min(width, analysis.getColumnVectorWidth(access.getBase(),
                                                          offsets,
                                                          maxElements));
  });
  if (!any || !all)
    return std::nullopt;
  return width;
}

/// A layout for a block accessed down its columns (getColumnRunWidth), whose
/// accesses move `vectorWidth` elements down a column as one vector: each
/// thread holds one column, in runs of that many elements (a 16-byte load
/// and, where wgmma reads the block K-major, a 16-byte store), two lanes
/// down a column (a warp's runs fill whole 32-byte sectors) where there
/// are 16 columns for the other lanes, the warps across the columns. Where
/// a thread would hold several columns, or runs are single elements: its
/// elements one a run, the lanes of a warp down a column, the warps across
/// the columns as far as they go.
BlockedLayoutAttr chooseColumnLayout(MLIRContext *context,
                                     RankedTensorType anchor,
                                     int64_t numWarps, int64_t vectorWidth) {
  int64_t rows = anchor.getShape().front();
  int64_t cols = anchor.getShape().back();
  if (vectorWidth > 1 && rows >= vectorWidth) {
    // Lanes across the columns there are (a narrow block's would hold
    // copies of its elements), the rest down them.
    int64_t lanesAlongRows = std::clamp<int64_t>(
        llvm::bit_floor(uint64_t(cols)), 1,
        kWarpSize / std::min<int64_t>(2, rows / vectorWidth));
    int64_t lanesDownCols = kWarpSize / lanesAlongRows;
    int64_t warpsAlongRows =
        std::clamp<int64_t>(cols / lanesAlongRows, 1, numWarps);
    if (lanesAlongRows * warpsAlongRows >= cols)
      return BlockedLayoutAttr::get(context, {vectorWidth, 1},
                                    {lanesDownCols, lanesAlongRows},
                                    {numWarps / warpsAlongRows, warpsAlongRows});
  }
  int64_t lanesDownCols = std::clamp<int64_t>(rows, 1, kWarpSize);
  int64_t lanesAlongRows = kWarpSize / lanesDownCols;
  int64_t warpsAlongRows =
      std::clamp<int64_t>(cols / lanesAlongRows, 1, numWarps);
  return BlockedLayoutAttr::get(context, {1, 1},
                                {lanesDownCols, lanesAlongRows},
                                {numWarps / warpsAlongRows, warpsAlongRows});
}

/// The type of `type` with the layout encoding it gets.
RankedTensorType encode(RankedTensorType type, Attribute encoding) {
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               encoding);
}

/// Retypes `value`; constants get an attribute of the new type.
void setEncodedType(Value value, RankedTensorType type) {
  value.setType(type);
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return;
  auto dense = cast<DenseElementsAttr>(constant.getValue());
  constant.setValueAttr(DenseElementsAttr::getFromRawBuffer(
      type, dense.getRawData()));
}

LogicalResult checkRegisterBudget(func::FuncOp func, int64_t numWarps) {
  WalkResult result = func.walk([&](Operation *op) {
    for (Value value : op->getResults()) {
      FailureOr<Distribution> distribution = Distribution::get(value.getType());
      if (failed(distribution))
        continue;
      auto tensor = cast<RankedTensorType>(value.getType());
      int64_t registers = getRegistersPerThread(
          distribution->getNumElements(), tensor.getElementTypeBitWidth());
      if (registers <= kMaxRegistersPerBlock)
        continue;
      op->emitOpError() << "block "
                        << RankedTensorType::get(tensor.getShape(),
                                                 tensor.getElementType())
                        << " needs " << registers
                        << " registers per thread with " << numWarps
                        << " warps (at most " << kMaxRegistersPerBlock
                        << "); use more warps (num_warps up to "
                        << kMaxWarpsPerCta << ") or walk "
                           "the row in tiles with scf.for, as "
                           "softmax_tiled.mlir does";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The layout that holds the accumulators of the blk.dots of `func` whose
/// class is `layoutClass` as mma fragments, where the class has dots and
/// all of them fit mma.sync on the target: every warp along M where they
/// all fit wgmma, else the one warp split that suits them all (attention's
/// S and O share their rows' statistics, so their layouts must agree).
std::optional<BlockedLayoutAttr>
chooseMmaLayout(func::FuncOp func, const LayoutClasses &classes,
                Value layoutClass, int64_t numWarps, int64_t numCtas) {
  TargetInfo target = getTargetInfo(func);
  SmallVector<std::pair<int64_t, int64_t>> accumulators;
  bool mmaSync = numCtas == 1, wgmma = true;
  func.walk([&](DotOp dot) {
    if (classes.getClass(dot.getAcc()) != layoutClass)
      return;
    ArrayRef<int64_t> acc = dot.getAcc().getType().getShape();
    accumulators.push_back({acc[0], acc[1]});
    mmaSync &= fitsMmaSync(dot, target);
    wgmma &= fitsWgmma(dot, target, numWarps);
  });
  if (accumulators.empty() || !mmaSync)
    return std::nullopt;
  if (wgmma)
    return getWgmmaAccumulatorLayout(func.getContext(), numWarps);
  return getMmaAccumulatorLayout(func.getContext(), accumulators, numWarps);
}

/// Puts a blk.convert_layout before each blk.store of a 2-D block whose
/// class is held as mma fragments, where the store could move longer runs
/// than the fragments' (their pairs of columns, 4 bytes of a 16-bit C) and
/// the block fits shared memory on its way: C leaves a matmul in runs of 16
/// bytes, whole 32-byte sectors, instead of every sector half written. Only
/// outside loops: there the scratch may lie over what the loops used, in a
/// loop it would need room beside the loop's own buffers (SharedMemoryPlan).
/// Returns whether it put any.
bool convertStoredFragments(func::FuncOp func, const LayoutClasses &classes,
                            int64_t numWarps, int64_t numCtas,
                            AccessAnalysis &analysis) {
  TargetInfo target = getTargetInfo(func);
  SmallVector<StoreOp> stores;
  func.walk([&](StoreOp store) {
    auto type = cast<RankedTensorType>(store.getValue().getType());
    if (type.getRank() != 2 ||
        store->getParentOfType<LoopLikeOpInterface>() ||
        ConversionScratch::get(type).getBytes() >
            target.getMaxSharedBytesPerCta())
      return;
    std::optional<BlockedLayoutAttr> fragments =
        chooseMmaLayout(func, classes, classes.getClass(store.getValue()),
                        numWarps, numCtas);
    int64_t maxElements =
        kVectorBytes / store.getBase().getType().getElementBytes();
    if (fragments &&
        analysis.getVectorWidth(store.getBase(), store.getOffsets(),
                                maxElements) > fragments->getElems().back())
      stores.push_back(store);
  });
  for (StoreOp store : stores) {
    OpBuilder builder(store);
    Value value = store.getValue();
    store.getValueMutable().assign(ConvertLayoutOp::create(
        builder, store.getLoc(), value.getType(), value));
  }
  return !stores.empty();
}

struct BlkDistributePass
    : public mlir::blk::impl::BlkDistributeBase<BlkDistributePass> {
  using BlkDistributeBase::BlkDistributeBase;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (isKernel(func) && failed(distribute(func)))
        return signalPassFailure();
  }

  LogicalResult distribute(func::FuncOp func) {
    MLIRContext *context = func.getContext();
    KernelAttr kernel = getKernelAttr(func);
    int64_t warps = kernel.getNumWarps();
    int64_t ctas = kernel.getNumCtas();
    if (failed(checkSpecialized(func)) || failed(checkBlockShapes(func)))
      return failure();
    RankedTensorType kernelAnchor = findAnchor(func);
    if (!kernelAnchor)
      return success();

    SmallVector<RecomputedCopy> copies = unshareRecomputableBlocks(func);
    LayoutClasses classes;
    if (failed(classes.build(func, kernelAnchor.getRank(), copies)))
      return failure();
    AccessAnalysis analysis;
    if (convertStoredFragments(func, classes, warps, ctas, analysis)) {
      // The stored blocks are classes of their own now.
      classes = LayoutClasses();
      if (failed(classes.build(func, kernelAnchor.getRank(), copies)))
        return failure();
    }
    bool realign = realignsRuns(ctas);
    llvm::DenseMap<Value, RankedTensorType> anchors = findAnchors(func, classes);
    llvm::DenseMap<Value, BlockedLayoutAttr> layouts;
    for (auto [layoutClass, anchor] : anchors) {
      std::optional<BlockedLayoutAttr> mma =
          anchor.getRank() == 2
              ? chooseMmaLayout(func, classes, layoutClass, warps, ctas)
              : std::nullopt;
      if (mma) {
        layouts[layoutClass] = *mma;
        continue;
      }
      std::optional<int64_t> columnWidth =
          ctas == 1 ? getColumnRunWidth(func, classes, layoutClass, anchor,
                                        analysis)
                    : std::nullopt;
      if (columnWidth) {
        layouts[layoutClass] =
            chooseColumnLayout(context, anchor, warps, *columnWidth);
        continue;
      }
      layouts[layoutClass] = chooseLayout(
          context, anchor, warps, ctas,
          chooseVectorWidth(func, classes, layoutClass, anchor,
                            kWarpSize * warps * ctas, realign, analysis));
    }

    bool ok = true;
    forEachValue(func, [&](Value value) {
      auto tensor = dyn_cast<RankedTensorType>(value.getType());
      if (!tensor || !ok)
        return;
      Value layoutClass = classes.getClass(value);
      BlockedLayoutAttr layout = layouts.lookup(layoutClass);
      int64_t rank = anchors.lookup(layoutClass).getRank();
      if (tensor.getRank() == rank && rank == kernelAnchor.getRank()) {
        setEncodedType(value, encode(tensor, layout));
        return;
      }
      std::optional<int64_t> dim = classes.getSlicedDim(value);
      if (!dim || rank != kernelAnchor.getRank()) {
        emitError(value.getLoc())
            << "cannot tell whether this 1-D block runs along the rows or "
               "the columns of the 2-D program: it is neither reduced from "
               "nor expanded to a 2-D block";
        ok = false;
        return;
      }
      setEncodedType(value,
                     encode(tensor, SliceLayoutAttr::get(context, *dim, layout)));
    });
    if (!ok)
      return failure();

    func.walk([&](MemoryAccessOpInterface access) {
      Value offsets = access.getOffsets();
      int64_t width = 1;
      FailureOr<Distribution> distribution =
          Distribution::get(offsets.getType());
      if (succeeded(distribution) && !distribution->getSlicedDim() &&
          distribution->runsDownColumns()) {
        width = analysis.getColumnVectorWidth(
            access.getBase(), offsets, distribution->getRunLength(0));
      } else if (succeeded(distribution) && !distribution->getSlicedDim()) {
        int64_t run =
            distribution->getRunLength(distribution->getRank() - 1);
        width = analysis.getVectorWidth(access.getBase(), offsets, run);
        if (realign && width < run &&
            canRealign(access, *distribution, analysis)) {
          width = run;
          access->setAttr(BlkDialect::getRealignAttrName(),
                          UnitAttr::get(context));
        }
      }
      access->setAttr(BlkDialect::getVectorAttrName(),
                      IntegerAttr::get(IntegerType::get(context, 64), width));
    });
    if (failed(checkBlocksFitLayout(func)) ||
        failed(checkRegisterBudget(func, warps)))
      return failure();
    mergeIdenticalCopies(copies);
    return success();
  }
};

} // namespace
