//===- PipelinedLoad.cpp - a loop's loads issued iterations ahead ---------===//
#include "PipelinedLoad.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::blk;

std::optional<PipelinedLoad> mlir::blk::getPipelinedLoad(scf::ForOp loop,
                                                          LoadOp load) {
  if (!load.getResult().getType().hasStaticShape())
    return std::nullopt;
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(load->getOperands());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value == loop.getInductionVar())
      continue;
    Operation *owner =
        isa<BlockArgument>(value)
            ? cast<BlockArgument>(value).getOwner()->getParentOp()
            : value.getDefiningOp();
    if (!loop->isAncestor(owner))
      continue; // defined outside the loop
    // A loop-carried value, or one computed inside a nested region.
    if (isa<BlockArgument>(value) || owner->getBlock() != loop.getBody())
      return std::nullopt;
    if (owner->getNumRegions() != 0 || !isMemoryEffectFree(owner))
      return std::nullopt;
    if (slice.insert(owner))
      worklist.append(owner->operand_begin(), owner->operand_end());
  }
  SmallVector<Operation *> ops = slice.takeVector();
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return PipelinedLoad{load, std::move(ops)};
}

bool mlir::blk::mayWriteGlobalMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect()) &&
           !isa<SharedMemoryResource>(e.getResource());
  });
}

SmallVector<PipelinedLoad> mlir::blk::getLoadsBeforeWrites(scf::ForOp loop) {
  SmallVector<PipelinedLoad> loads;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (std::optional<PipelinedLoad> pipelined = getPipelinedLoad(loop, load))
        loads.push_back(std::move(*pipelined));
      continue;
    }
    if (mayWriteGlobalMemory(&op))
      break;
  }
  return loads;
}

IRMapping mlir::blk::createAddressAt(OpBuilder &builder, scf::ForOp loop,
                                     const PipelinedLoad &pipelined,
                                     Value position) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), position);
  for (Operation *op : pipelined.addressOps)
    builder.clone(*op, mapping);
  return mapping;
}

Value mlir::blk::createMaskWhere(OpBuilder &builder, const IRMapping &mapping,
                                 LoadOp load, Value runs) {
  Location loc = load.getLoc();
  auto maskType =
      cast<RankedTensorType>(getMaskType(load.getOffsets().getType()));
  Value mask = SplatOp::create(builder, loc, maskType, runs, /*shape=*/nullptr);
  if (Value original = load.getMask())
    mask = arith::AndIOp::create(builder, loc,
                                 mapping.lookupOrDefault(original), mask);
  return mask;
}

Value mlir::blk::createSteps(OpBuilder &builder, scf::ForOp loop, int64_t k) {
  Location loc = loop.getLoc();
  Type type = loop.getStep().getType();
  return arith::MulIOp::create(
      builder, loc, loop.getStep(),
      arith::ConstantOp::create(builder, loc, builder.getIntegerAttr(type, k)));
}

Value mlir::blk::createBound(OpBuilder &builder, scf::ForOp loop,
                             Value steps) {
  return arith::SubIOp::create(builder, loop.getLoc(), loop.getUpperBound(),
                               steps);
}

Value mlir::blk::createBelow(OpBuilder &builder, Location loc, Value position,
                             Value bound) {
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                               position, bound);
}
