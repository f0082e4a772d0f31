//===- PassTensorMapsByValue.cpp - tensor maps as grid constants ----------===//
#include "blk/Conversion/Passes.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Target/TargetInfo.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKPASSTENSORMAPSBYVALUE
#include "blk/Conversion/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

struct BlkPassTensorMapsByValuePass
    : public mlir::blk::impl::BlkPassTensorMapsByValueBase<
          BlkPassTensorMapsByValuePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto bytes = LLVM::LLVMArrayType::get(IntegerType::get(context, 8),
                                          kTensorMapBytes);
    StringRef listName = BlkDialect::getTensorMapParamsAttrName();
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto params = func->getAttrOfType<DenseI32ArrayAttr>(listName);
      if (!params)
        return;
      for (int32_t index : params.asArrayRef()) {
        func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(bytes));
        func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                        IntegerAttr::get(IntegerType::get(context, 64),
                                         kTensorMapAlignment));
        func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(context));
      }
      func->removeAttr(listName);
    });
  }
};

} // namespace
