//===- AsyncFill.cpp - fill kept rows with asynchronous copies ------------===//
//
// blk-stage-held-loads keeps a row in shared memory by storing the loaded
// block (`blk.local_alloc` of a `blk.load`): every byte passes through a
// register on its way. Where the load moves whole 16-byte runs, the row can
// be copied straight into its buffer instead (`blk.async_copy`, `cp.async`
// on the GPU, as QuACK and the seeds' block-per-row CUDA kernel fill theirs)
// and read back for the uses the load had before the first reduction.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/AsyncFill.h"
#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"
#include "blk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKASYNCFILL
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

/// Each run is one `cp.async` (`.cg`: cached in L2 only, as a row read once
/// should be), and a run masked off is filled with the load's `other`.
bool mlir::blk::isFilledAsynchronously(LoadOp load, const RowPolicy &policy,
                                       AccessAnalysis &analysis) {
  if (load->hasAttr(BlkDialect::getRealignAttrName()) ||
      load->hasAttr(BlkDialect::getFallbackAttrName()))
    return false;
  FailureOr<Distribution> distribution =
      Distribution::get(load.getOffsets().getType());
  if (failed(distribution))
    return false;
  int64_t width = getAccessVectorWidth(load, *distribution);
  Value mask = load.getMask();
  RowPolicy::RowLoad facts;
  facts.inLoop = load->getParentOfType<LoopLikeOpInterface>() != nullptr;
  facts.vectorBytes = width * load.getType().getElementTypeBitWidth() / 8;
  facts.runs = distribution->getNumElements() / width;
  facts.maskUniformOverRuns =
      !mask || analysis.isUniformOverRuns(mask, width,
                                          distribution->runsDownColumns());
  return policy.copiesLoad(facts);
}

namespace {

/// `alloc` keeps the block `load` read: copies it into the buffer
/// asynchronously instead, waits, and reads the block back for the load's
/// other users.
void fillAsynchronously(LocalAllocOp alloc, LoadOp load) {
  OpBuilder builder(load);
  Location loc = load.getLoc();
  auto copy =
      AsyncCopyOp::create(builder, loc, alloc.getType(), load.getBase(),
                          load.getOffsets(), load.getMask(), load.getOther());
  copy->setAttr(BlkDialect::getVectorAttrName(),
                load->getAttr(BlkDialect::getVectorAttrName()));
  AsyncWaitOp::create(builder, loc, copy);
  Value reload = LocalLoadOp::create(builder, loc, load.getType(), copy);
  alloc.replaceAllUsesWith(copy.getResult());
  alloc.erase();
  load.replaceAllUsesWith(reload);
  load.erase();
}

struct BlkAsyncFillPass : public mlir::blk::impl::BlkAsyncFillBase<BlkAsyncFillPass> {
  using BlkAsyncFillBase::BlkAsyncFillBase;

  void runOnOperation() override {
    if (minRuns < 0) {
      getOperation().emitError()
          << "blk-async-fill: min-runs must be 0 (never) or more, but got "
          << static_cast<int64_t>(minRuns);
      return signalPassFailure();
    }
    // blk-async-fill only copies: what it keeps is blk-stage-held-loads'.
    RowPolicy policy(getTargetInfo(getOperation()), /*stageMinRegisters=*/0,
                     /*stageOnClusters=*/false, minRuns);
    if (policy.getCopyMinRuns() == 0)
      return;
    AccessAnalysis analysis;
    // A block kept twice is copied into the first buffer; the second keeps
    // what is read back from it.
    llvm::MapVector<LoadOp, LocalAllocOp> kept;
    getOperation().walk([&](LocalAllocOp alloc) {
      auto load = alloc.getSrc() ? alloc.getSrc().getDefiningOp<LoadOp>()
                                 : LoadOp();
      if (load && isFilledAsynchronously(load, policy, analysis))
        kept.try_emplace(load, alloc);
    });
    for (auto [load, alloc] : kept)
      fillAsynchronously(alloc, load);
  }
};

} // namespace
