//===- AttachNVVMTarget.cpp - #blk.target to each gpu.module's #nvvm.target -===//
//
// gpu-module-to-binary compiles a gpu.module for the targets it carries;
// they come from the module's #blk.target, so the chip is named once.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Passes.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKATTACHNVVMTARGET
#include "blk/Conversion/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

struct BlkAttachNVVMTargetPass
    : public mlir::blk::impl::BlkAttachNVVMTargetBase<BlkAttachNVVMTargetPass> {
  using BlkAttachNVVMTargetBase::BlkAttachNVVMTargetBase;

  void runOnOperation() override {
    TargetInfo target = getTargetInfo(getOperation());
    auto nvvmTarget = NVVM::NVVMTargetAttr::get(
        &getContext(), optLevel, /*triple=*/"nvptx64-nvidia-cuda",
        target.getChip(), target.getFeatures());
    for (auto gpuModule : getOperation().getOps<gpu::GPUModuleOp>())
      gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), {nvvmTarget}));
  }
};

} // namespace
