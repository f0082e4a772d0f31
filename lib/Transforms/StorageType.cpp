//===- StorageType.cpp - f32 programs over f16/bf16 memory ----------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSTORAGETYPE
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

Type narrow(Type type, FloatType storage) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(storage);
  return storage;
}

bool isF32Pointer(Type type) {
  auto pointer = dyn_cast<PtrType>(type);
  return pointer && pointer.getPointeeType().isF32();
}

void retypeKernel(func::FuncOp func, FloatType storage) {
  auto pointer = PtrType::get(func.getContext(), storage);
  // Every f32 pointer of the kernel (arguments, addptr results, pointers
  // carried by loops and branches) points to the narrow type now.
  auto retype = [&](Value value) {
    if (isF32Pointer(value.getType()))
      value.setType(pointer);
  };
  func.walk([&](Block *block) { llvm::for_each(block->getArguments(), retype); });
  func.walk([&](Operation *op) { llvm::for_each(op->getResults(), retype); });
  func.setType(FunctionType::get(func.getContext(),
                                 func.getBody().getArgumentTypes(), {}));

  func.walk([&](Operation *op) {
    OpBuilder builder(op);
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (load.getBase().getType() != pointer)
        return;
      Value other = load.getOther();
      if (other)
        other = arith::TruncFOp::create(builder, load.getLoc(), storage, other);
      auto narrowLoad = LoadOp::create(
          builder, load.getLoc(), narrow(load.getType(), storage),
          load.getBase(), load.getOffsets(), load.getMask(), other);
      narrowLoad->setDiscardableAttrs(load->getDiscardableAttrDictionary());
      Value wide = arith::ExtFOp::create(builder, load.getLoc(),
                                         load.getType(), narrowLoad.getResult());
      load.replaceAllUsesWith(wide);
      load.erase();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      if (store.getBase().getType() != pointer)
        return;
      Value value = store.getValue();
      Value narrowValue = arith::TruncFOp::create(
          builder, store.getLoc(), narrow(value.getType(), storage), value);
      store.getValueMutable().assign(narrowValue);
    }
  });
}

struct BlkStorageTypePass
    : public blk::impl::BlkStorageTypeBase<BlkStorageTypePass> {
  using BlkStorageTypeBase::BlkStorageTypeBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    FloatType storage;
    if (storageType == "f32")
      return;
    if (storageType == "f16")
      storage = Float16Type::get(context);
    else if (storageType == "bf16")
      storage = BFloat16Type::get(context);
    else {
      getOperation().emitError() << "blk-storage-type: type must be f16, "
                                    "bf16 or f32, not '"
                                 << storageType << "'";
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (isKernel(func))
        retypeKernel(func, storage);
  }
};

} // namespace
