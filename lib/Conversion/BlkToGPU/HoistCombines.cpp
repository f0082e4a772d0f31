//===- HoistCombines.cpp - combines right after the values they combine ---===//
//
// A thread's reduction tree comes after all of its leaves: the leaves of
// the first combine are live until the last leaf is computed. Moving each
// combine up to its operands makes the tree depth first, so few leaves are
// live at once. The pass description (Passes.td) states the rule and why
// it never makes a point of the block hold more values.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKHOISTCOMBINES
#include "blk/Conversion/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;

namespace {

/// The op of `op`'s block after which `op` may go: the last one defining
/// an operand of `op`, where `op` is a pure op of one result without
/// regions (not a terminator: func.return and scf.yield are pure too) and
/// at least two of those operands are used by `op` alone; null where `op`
/// should stay.
Operation *getHoistPoint(Operation &op) {
  if (!isPure(&op) || op.getNumRegions() != 0 || op.getNumResults() != 1 ||
      op.hasTrait<OpTrait::IsTerminator>())
    return nullptr;
  Block *block = op.getBlock();
  Operation *last = nullptr;
  int64_t dying = 0;
  for (Value operand : op.getOperands()) {
    Operation *definer = operand.getDefiningOp();
    if (!definer || definer->getBlock() != block)
      continue;
    if (operand.hasOneUse())
      ++dying;
    if (!last || last->isBeforeInBlock(definer))
      last = definer;
  }
  if (dying < 2 || last->getNextNode() == &op)
    return nullptr;
  return last;
}

void hoistCombines(Block &block) {
  // In block order: an inner combine's operands have moved by the time it
  // is reached.
  for (Operation &op : llvm::make_early_inc_range(block))
    if (Operation *point = getHoistPoint(op))
      op.moveAfter(point);
}

struct HoistCombinesPass
    : public mlir::blk::impl::BlkHoistCombinesBase<HoistCombinesPass> {
  void runOnOperation() override {
    // Function bodies only: their regions order their ops (SSA dominance).
    getOperation()->walk([](FunctionOpInterface function) {
      function->walk([](Block *block) { hoistCombines(*block); });
    });
  }
};

} // namespace
