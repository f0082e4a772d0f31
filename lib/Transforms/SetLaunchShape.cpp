//===- SetLaunchShape.cpp - the launch shape into #blk.kernel -------------===//
//
// A kernel's launch shape lives in its #blk.kernel only: an override is
// written there, and every later pass reads the kernel's.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSETLAUNCHSHAPE
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

struct BlkSetLaunchShapePass
    : public mlir::blk::impl::BlkSetLaunchShapeBase<BlkSetLaunchShapePass> {
  using BlkSetLaunchShapeBase::BlkSetLaunchShapeBase;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      KernelAttr kernel = getKernelAttr(func);
      if (!kernel)
        continue;
      // Negative values reach the attribute's verifier, the one check of
      // every kernel's warps, CTAs and stages.
      auto pick = [](int64_t option, int64_t own) {
        return option != 0 ? option : own;
      };
      KernelAttr shaped = kernel.withLaunchShape(
          [&] { return func.emitError(); },
          pick(numWarps, kernel.getNumWarps()),
          pick(numCtas, kernel.getNumCtas()),
          pick(numStages, kernel.getNumStages()),
          pick(minCtasPerSm, kernel.getMinCtasPerSm()));
      if (!shaped)
        return signalPassFailure();
      func->setAttr(BlkDialect::getKernelAttrName(), shaped);
    }
  }
};

} // namespace
