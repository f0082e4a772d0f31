//===- AttachTarget.cpp - the chip on the module (#blk.target) ------------===//
//
// The chip and PTX features are said once, on the module; every pass that
// asks a chip question reads them there (getTargetInfo).
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"
#include "blk/Target/TargetInfo.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKATTACHTARGET
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

struct BlkAttachTargetPass
    : public mlir::blk::impl::BlkAttachTargetBase<BlkAttachTargetPass> {
  using BlkAttachTargetBase::BlkAttachTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (auto existing = module->getAttrOfType<TargetAttr>(
            BlkDialect::getTargetAttrName())) {
      if (failed(checkAgrees(existing)))
        signalPassFailure();
      return;
    }
    llvm::Expected<TargetInfo> target = TargetInfo::get(chip, features);
    if (!target) {
      getProgramDiagnosticAnchor(module)->emitError()
          << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    module->setAttr(BlkDialect::getTargetAttrName(),
                    TargetAttr::get(module.getContext(), target->getChip(),
                                    target->getFeatures()));
  }

  /// The module already says its target: options that name another chip or
  /// other features would compile it for two targets at once.
  LogicalResult checkAgrees(TargetAttr existing) {
    bool chipDiffers = !chip.empty() && chip != existing.getChip();
    bool featuresDiffer =
        !features.empty() && features != existing.getFeatures();
    if (!chipDiffers && !featuresDiffer)
      return success();
    return getOperation().emitError()
           << "the module is for " << existing
           << ", but the pipeline was asked for chip '" << chip
           << "' features '" << features
           << "': drop the options or the module's blk.target";
  }
};

} // namespace
