//===- StorageType.cpp - f32 programs over f16/bf16 memory ----------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSTORAGETYPE
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

bool isF32Pointer(Type type) {
  auto pointer = dyn_cast<PtrType>(type);
  return pointer && pointer.getPointeeType().isF32();
}

/// Makes an access through a narrowed pointer move `storage` elements: the
/// values it writes or fills in are truncated before it, and what it reads
/// is extended after it, so the program around it keeps computing in f32.
void narrowAccess(MemoryAccessOpInterface access, FloatType storage) {
  OpBuilder builder(access);
  Location loc = access.getLoc();
  for (Value wide : {access.getFillValue(), access.getStoredValue()}) {
    if (!wide)
      continue;
    Value narrowed = arith::TruncFOp::create(
        builder, loc, withElementType(wide.getType(), storage), wide);
    access->replaceUsesOfWith(wide, narrowed);
  }
  if (!access.isRead())
    return;
  Value read = access.getDataBlock();
  Type wideType = read.getType();
  read.setType(withElementType(wideType, storage));
  builder.setInsertionPointAfter(access);
  auto extended = arith::ExtFOp::create(builder, loc, wideType, read);
  read.replaceAllUsesExcept(extended, extended);
}

/// The pointers of `func` that stay f32: its blk.keep_f32 arguments and
/// what blk.addptr derives from them. Fails where one is used otherwise
/// (carried by a loop or a branch, whose other pointers would narrow).
FailureOr<DenseSet<Value>> getKeptPointers(func::FuncOp func) {
  DenseSet<Value> kept;
  for (BlockArgument argument : func.getArguments())
    if (func.getArgAttr(argument.getArgNumber(),
                        BlkDialect::getKeepF32AttrName()))
      kept.insert(argument);
  // An addptr's pointer is defined before it (dominance), and the walk
  // visits that definition first.
  func.walk([&](AddPtrOp addptr) {
    if (kept.contains(addptr.getPtr()))
      kept.insert(addptr.getResult());
  });
  for (Value pointer : kept)
    for (OpOperand &use : pointer.getUses()) {
      auto access = dyn_cast<MemoryAccessOpInterface>(use.getOwner());
      if (isa<AddPtrOp>(use.getOwner()) ||
          (access && access.getBase() == pointer))
        continue;
      return use.getOwner()->emitError()
             << "a blk.keep_f32 pointer may only be offset (blk.addptr) "
                "and accessed, not carried by '"
             << use.getOwner()->getName() << "'";
    }
  return kept;
}

LogicalResult retypeKernel(func::FuncOp func, FloatType storage) {
  auto pointer = PtrType::get(func.getContext(), storage);
  FailureOr<DenseSet<Value>> kept = getKeptPointers(func);
  if (failed(kept))
    return failure();
  // Every other f32 pointer of the kernel (arguments, addptr results,
  // pointers carried by loops and branches) points to the narrow type now.
  auto retype = [&](Value value) {
    if (isF32Pointer(value.getType()) && !kept->contains(value))
      value.setType(pointer);
  };
  func.walk([&](Block *block) { llvm::for_each(block->getArguments(), retype); });
  func.walk([&](Operation *op) { llvm::for_each(op->getResults(), retype); });
  func.setType(FunctionType::get(func.getContext(),
                                 func.getBody().getArgumentTypes(), {}));

  func.walk([&](MemoryAccessOpInterface access) {
    if (access.getBase().getType() == pointer)
      narrowAccess(access, storage);
  });
  return success();
}

/// Rounds each f32 operand of a blk.dot that is not read from memory (a
/// computed block, attention's P) to `storage` and back: a product of a
/// 16-bit program multiplies 16-bit numbers, what tensor cores take and
/// what Triton programs write as `p.to(v.dtype)`; blk.dot's canonicalizer
/// then gives the dot the narrow operands themselves.
void roundDotOperands(func::FuncOp func, FloatType storage) {
  func.walk([&](DotOp dot) {
    for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()}) {
      Value wide = operand->get();
      auto widened = wide.getDefiningOp<arith::ExtFOp>();
      if (!getElementTypeOrSelf(wide.getType()).isF32() ||
          (widened && getElementTypeOrSelf(widened.getIn().getType()) == storage))
        continue;
      // Where the block is made, not at the product: one computed before
      // a loop (attention's Q, its sign applied) is rounded there once.
      OpBuilder builder(dot);
      builder.setInsertionPointAfterValue(wide);
      Value narrow = arith::TruncFOp::create(
          builder, dot.getLoc(), withElementType(wide.getType(), storage),
          wide);
      operand->set(
          arith::ExtFOp::create(builder, dot.getLoc(), wide.getType(), narrow));
    }
  });
}

struct BlkStorageTypePass
    : public mlir::blk::impl::BlkStorageTypeBase<BlkStorageTypePass> {
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
      if (isKernel(func)) {
        if (failed(retypeKernel(func, storage)))
          return signalPassFailure();
        roundDotOperands(func, storage);
      }
  }
};

} // namespace
