//===- CloneIntegerBlocks.cpp - the blk-clone-integer-blocks pass ---------===//
//
// An elementwise `linalg.generic` of integers (a mask, a block of offsets)
// read by several generics is cloned for each of them, so that elementwise
// fusion computes it inside every loop that reads it instead of writing
// it to memory once and reading it back.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/Conversion/CPUPasses.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKCLONEINTEGERBLOCKS
#include "blk/Conversion/CPUPasses.h.inc"
} // namespace mlir::blk

using namespace mlir;

namespace {

/// Whether `generic` is an elementwise computation of integers with no
/// effects: as cheap to compute again in each consumer as to read.
bool isIntegerBlock(linalg::GenericOp generic) {
  if (generic.getNumResults() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !isMemoryEffectFree(generic))
    return false;
  Block &body = generic.getRegion().front();
  if (!body.getArguments().back().use_empty() ||
      llvm::any_of(body.without_terminator(),
                   [](Operation &op) { return op.getNumRegions() != 0; }))
    return false;
  return mlir::blk::computesIntegersOnly(generic);
}

struct BlkCloneIntegerBlocksPass
    : public mlir::blk::impl::BlkCloneIntegerBlocksBase<
          BlkCloneIntegerBlocksPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk(
        [&](linalg::GenericOp generic) { generics.push_back(generic); });
    // Users before producers: a mask's copies all read the offsets it
    // compares, which are then cloned for each of them in turn.
    for (linalg::GenericOp generic : llvm::reverse(generics))
      if (isIntegerBlock(generic))
        cloneForEachGeneric(generic);
  }

  /// A copy of `generic` for each generic beside it that reads it, the
  /// original kept for the first of them where nothing else reads it.
  /// Only generics in its block, which fusion can take it into: a copy in
  /// a loop's body would compute the whole block every iteration.
  static void cloneForEachGeneric(linalg::GenericOp generic) {
    SmallVector<OpOperand *> fusable;
    size_t uses = 0;
    for (OpOperand &use : generic->getResult(0).getUses()) {
      ++uses;
      if (isa<linalg::GenericOp>(use.getOwner()) &&
          use.getOwner()->getBlock() == generic->getBlock())
        fusable.push_back(&use);
    }
    if (uses < 2)
      return;
    // The use list is in no useful order; the original goes to the first
    // reader in the program.
    llvm::sort(fusable, [](OpOperand *a, OpOperand *b) {
      return a->getOwner()->isBeforeInBlock(b->getOwner());
    });
    bool othersRead = fusable.size() != uses;
    OpBuilder builder(generic);
    for (OpOperand *use : llvm::drop_begin(fusable, othersRead ? 0 : 1)) {
      builder.setInsertionPoint(use->getOwner());
      use->set(builder.clone(*generic)->getResult(0));
    }
  }
};

} // namespace
