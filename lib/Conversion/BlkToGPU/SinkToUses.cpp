//===- SinkToUses.cpp - pure ops and read-only loads at their first use ----===//
//
// The conversion emits a program's ops in its order: a normalization's
// weight and bias are loaded whole, then its row is computed and stored
// run by run, so every run of both is live at the first store. Moving
// each op down to its first use puts a run's loads and arithmetic right
// before its store. The pass description (Passes.td) states what may move.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSINKTOUSES
#include "blk/Conversion/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// An NVVM intrinsic of floats alone (the conversion's ex2, lg2, sqrt and
/// rsqrt): it touches no memory, though `llvm.call_intrinsic` says nothing
/// of its effects.
bool isFloatIntrinsic(Operation *op) {
  auto call = dyn_cast<LLVM::CallIntrinsicOp>(op);
  auto isFloat = [](Type type) { return isa<FloatType>(type); };
  // Not a barrier: something in, something out.
  return call && call.getIntrin().starts_with("llvm.nvvm.") &&
         call->getNumOperands() != 0 && call->getNumResults() != 0 &&
         llvm::all_of(call->getOperandTypes(), isFloat) &&
         llvm::all_of(call->getResultTypes(), isFloat);
}

/// Pure, or a float intrinsic.
bool isEffectFree(Operation *op) { return isPure(op) || isFloatIntrinsic(op); }

/// The function argument `pointer` is an offset of (through
/// `llvm.getelementptr`), or null (a loop's pointer, a select, ...).
BlockArgument getBaseArgument(Value pointer) {
  while (auto gep = pointer.getDefiningOp<LLVM::GEPOp>())
    pointer = gep.getBase();
  auto argument = dyn_cast<BlockArgument>(pointer);
  if (!argument || !argument.getOwner()->isEntryBlock() ||
      !isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
    return nullptr;
  return argument;
}

/// The pointer arguments of `function` that no op of it may write through;
/// empty where some write's target is not known.
llvm::SmallPtrSet<Value, 8> getReadOnlyArguments(FunctionOpInterface function) {
  llvm::SmallPtrSet<Value, 8> written;
  bool unknown = false;
  function->walk([&](Operation *op) {
    if (op == function.getOperation())
      return;
    if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      if (BlockArgument base = getBaseArgument(store.getAddr()))
        written.insert(base);
      else
        unknown = true;
      return;
    }
    // Workgroup memory (a reduction's exchange) is no argument's.
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      unknown |= !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
          store.getMemRefType());
      return;
    }
    if (isa<memref::LoadOp, LLVM::LoadOp>(op) ||
        isEffectFree(op) ||
        op->hasTrait<OpTrait::IsTerminator>() ||
        isa<scf::IfOp, scf::ForOp, scf::WhileOp, gpu::BarrierOp>(op))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.hasEffect<MemoryEffects::Write>())
      unknown = true;
  });
  llvm::SmallPtrSet<Value, 8> readOnly;
  if (unknown)
    return readOnly;
  for (BlockArgument argument : function.getArguments())
    if (isa<LLVM::LLVMPointerType>(argument.getType()) &&
        !written.contains(argument))
      readOnly.insert(argument);
  return readOnly;
}

class Sinker {
public:
  explicit Sinker(llvm::SmallPtrSet<Value, 8> readOnly)
      : readOnly(std::move(readOnly)) {}

  void sink(Block &block) {
    // From the end: an op's users have moved by the time it is reached.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      bool reads = false;
      if (!isMovable(op, reads))
        continue;
      Operation *use = getFirstUse(op);
      if (!use || use == op.getNextNode() ||
          use->hasTrait<OpTrait::IsTerminator>())
        continue;
      if (reads && !mayReadAcross(op, *use))
        continue;
      op.moveBefore(use);
    }
  }

private:
  /// Whether `op` may move down to its first use: a pure op without
  /// regions, a load of a read-only argument, or an `scf.if` of such ops
  /// (`reads` says whether it reads memory).
  bool isMovable(Operation &op, bool &reads) {
    if (op.getNumResults() == 0 || op.hasTrait<OpTrait::IsTerminator>())
      return false;
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      BlockArgument base = getBaseArgument(load.getAddr());
      reads = true;
      // An atomic load orders the accesses after it.
      return base && readOnly.contains(base) && !load.getVolatile_() &&
             load.getOrdering() == LLVM::AtomicOrdering::not_atomic;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      bool movable = true;
      branch->walk([&](Operation *nested) {
        if (nested == branch.getOperation() || isa<scf::YieldOp>(nested))
          return;
        bool nestedReads = false;
        if (nested->getNumRegions() != 0 && !isa<scf::IfOp>(nested))
          movable = false;
        else if (!isa<scf::IfOp>(nested) && !isMovable(*nested, nestedReads))
          movable = false;
        reads |= nestedReads;
      });
      return movable;
    }
    return isEffectFree(&op) && op.getNumRegions() == 0;
  }

  /// The first op of `op`'s block that uses one of its results (itself or
  /// through its regions).
  static Operation *getFirstUse(Operation &op) {
    Operation *first = nullptr;
    for (Operation *user : op.getUsers()) {
      Operation *ancestor = op.getBlock()->findAncestorOpInBlock(*user);
      if (ancestor && (!first || ancestor->isBeforeInBlock(first)))
        first = ancestor;
    }
    return first;
  }

  /// Whether every op from after `op` to `use` lets a read of a read-only
  /// argument pass: stores (to other arguments or workgroup memory), loads
  /// and pure ops, not barriers or ops of unknown effects.
  static bool mayReadAcross(Operation &op, Operation &use) {
    for (Operation *between = op.getNextNode(); between != &use;
         between = between->getNextNode()) {
      bool passable = true;
      between->walk([&](Operation *nested) {
        if (isa<LLVM::StoreOp, LLVM::LoadOp, memref::LoadOp, memref::StoreOp,
                scf::IfOp, scf::YieldOp>(nested) ||
            isEffectFree(nested))
          return;
        passable = false;
      });
      if (!passable)
        return false;
    }
    return true;
  }

  llvm::SmallPtrSet<Value, 8> readOnly;
};

/// The element bits of the widest load of a read-only argument after
/// `function`'s last barrier in its entry block, outside loops (a
/// normalization's weight or bias); 0 where there is none.
unsigned getEpilogueLoadBits(FunctionOpInterface function,
                             const llvm::SmallPtrSet<Value, 8> &readOnly) {
  Block &entry = function.getFunctionBody().front();
  Operation *lastBarrier = nullptr;
  for (Operation &op : entry)
    if (isa<gpu::BarrierOp>(op))
      lastBarrier = &op;
  if (!lastBarrier)
    return 0;
  unsigned bits = 0;
  for (Operation *op = lastBarrier->getNextNode(); op; op = op->getNextNode())
    op->walk([&](LLVM::LoadOp load) {
      BlockArgument base = getBaseArgument(load.getAddr());
      // A loop's loads (a row walked in tiles) are not an epilogue's.
      if (!base || !readOnly.contains(base) ||
          load->getParentOfType<LoopLikeOpInterface>())
        return;
      Type type = load.getType();
      if (auto vector = dyn_cast<VectorType>(type))
        type = vector.getElementType();
      if (type.isIntOrFloat())
        bits = std::max(bits, type.getIntOrFloatBitWidth());
    });
  return bits;
}

/// Threads of a `gpu.func` kernel's CTA (known_block_size), else 0.
int64_t getThreads(FunctionOpInterface function) {
  auto kernel = dyn_cast<gpu::GPUFuncOp>(function.getOperation());
  if (!kernel)
    return 0;
  std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
  return size ? (*size)[0] * (*size)[1] * (*size)[2] : 0;
}

struct SinkToUsesPass
    : public mlir::blk::impl::BlkSinkToUsesBase<SinkToUsesPass> {
  using BlkSinkToUsesBase::BlkSinkToUsesBase;

  /// Whether `function`, of read-only arguments `readOnly`, is one the
  /// pass reorders (the description's rule).
  bool isCandidate(FunctionOpInterface function,
                   const llvm::SmallPtrSet<Value, 8> &readOnly) {
    unsigned bits = getEpilogueLoadBits(function, readOnly);
    if (bits == 0)
      return false;
    return bits >= 32 || getThreads(function) >= minWarps16Bit * 32;
  }

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateScalarizeElementwisePatterns(patterns, /*allValues=*/true);
    vector::ExtractOp::getCanonicalizationPatterns(patterns, &getContext());
    FrozenRewritePatternSet scalarize(std::move(patterns));
    getOperation()->walk([&](FunctionOpInterface function) {
      if (function.isExternal())
        return WalkResult::skip();
      // Scalarizing adds no write: the arguments stay read-only.
      llvm::SmallPtrSet<Value, 8> readOnly = getReadOnlyArguments(function);
      if (!isCandidate(function, readOnly))
        return WalkResult::skip();
      if (failed(applyPatternsGreedily(function, scalarize))) {
        signalPassFailure();
        return WalkResult::interrupt();
      }
      Sinker sinker(std::move(readOnly));
      SmallVector<Block *> blocks;
      function->walk([&](Block *block) { blocks.push_back(block); });
      for (Block *block : blocks)
        sinker.sink(*block);
      return WalkResult::skip();
    });
  }
};

} // namespace
