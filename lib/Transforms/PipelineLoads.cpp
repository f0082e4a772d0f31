//===- PipelineLoads.cpp - issue a loop's loads iterations ahead ----------===//
//
// A program that loops (over rows, or over a row's tiles) waits for each
// iteration's loads before it can reduce, and while it reduces and stores
// no load of it is in flight. With the next iteration's loads issued at
// the top of the current one, the memory latency of iteration i + 1
// overlaps the reductions and stores of iteration i: the registers of one
// more block buy a stream of loads that never stops.
//
// The rewrite (num_stages = S, L = S - 1 iterations ahead):
//   - before the loop: the loads of iterations k = 0 .. L - 1, each masked
//     by `lb < ub - k * step`;
//   - the loop carries L blocks per load, the oldest is the current
//     iteration's; at the top of the body, the load of iteration i + L,
//     masked by `i < ub - L * step`;
//   - the yield shifts the carried blocks by one.
// The bound is compared as `i < ub - L * step`, not `i + L * step < ub`,
// so that it cannot wrap where ub is near the top of the type.
//
//===----------------------------------------------------------------------===//
#include "PipelinedLoad.h"
#include "blk/Transforms/Passes.h"
#include "blk/Transforms/PipelineDotOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKPIPELINELOADS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Builds `load` as it would be for the iteration whose induction variable
/// is `position`, masked off where `runs` (that iteration runs) is false.
Value createLoadAt(OpBuilder &builder, scf::ForOp loop,
                   const PipelinedLoad &pipelined, Value position, Value runs) {
  IRMapping mapping = createAddressAt(builder, loop, pipelined, position);
  LoadOp load = pipelined.load;
  Value mask = createMaskWhere(builder, mapping, load, runs);
  Value other =
      load.getOther() ? mapping.lookupOrDefault(load.getOther()) : Value();
  return LoadOp::create(builder, load.getLoc(), load.getResult().getType(),
                        mapping.lookupOrDefault(load.getBase()),
                        mapping.lookupOrDefault(load.getOffsets()), mask,
                        other)
      .getResult();
}

/// Loads of iterations 0 .. ahead - 1, built before the loop, load by load.
SmallVector<Value> createPrologue(OpBuilder &builder, scf::ForOp loop,
                                  ArrayRef<PipelinedLoad> loads,
                                  int64_t ahead) {
  Location loc = loop.getLoc();
  // Iteration k's induction variable and whether it runs, for every load.
  SmallVector<std::pair<Value, Value>> iterations;
  for (int64_t k = 0; k < ahead; ++k) {
    Value position = loop.getLowerBound();
    Value bound = loop.getUpperBound();
    if (k > 0) {
      Value steps = createSteps(builder, loop, k);
      position = arith::AddIOp::create(builder, loc, position, steps);
      bound = createBound(builder, loop, steps);
    }
    iterations.push_back(
        {position, createBelow(builder, loc, loop.getLowerBound(), bound)});
  }
  SmallVector<Value> blocks;
  for (const PipelinedLoad &pipelined : loads)
    for (auto [position, runs] : iterations)
      blocks.push_back(createLoadAt(builder, loop, pipelined, position, runs));
  return blocks;
}

/// Loads of iteration `i + ahead`, at the top of the body, load by load.
SmallVector<Value> createPrefetches(scf::ForOp loop,
                                    ArrayRef<PipelinedLoad> loads,
                                    Value aheadSteps, Value lastBound) {
  OpBuilder top = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = loop.getLoc();
  Value iv = loop.getInductionVar();
  Value position = arith::AddIOp::create(top, loc, iv, aheadSteps);
  Value runs = createBelow(top, loc, iv, lastBound);
  SmallVector<Value> next;
  for (const PipelinedLoad &pipelined : loads)
    next.push_back(createLoadAt(top, loop, pipelined, position, runs));
  return next;
}

void pipelineLoop(scf::ForOp loop, int64_t numStages) {
  // Signed bounds only: `ub - k * step` may go below zero.
  if (loop.getUnsignedCmp())
    return;
  // A loop around a loop (attention backward's walk over key tiles): an
  // iteration is the whole inner loop, which hides a load's latency many
  // times over, and the next iteration's blocks would sit in registers
  // through it (the inner loop's own prologue loads among them).
  if (loop.getBody()
          ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return;
  // Loads the body makes after a write to global memory (a store, or a
  // blk.program_barrier where other programs' writes arrive, also inside
  // a branch) may read what was written in their own iteration: they stay
  // where they are. The loads before are issued during the iteration
  // before, ahead of its writes: iterations are taken to touch their own
  // rows (or parts), as the persistent programs' do.
  SmallVector<PipelinedLoad> loads = getLoadsBeforeWrites(loop);
  // Operands blk-pipeline-dot-operands copies ahead into shared memory
  // instead.
  llvm::erase_if(loads, [&](const PipelinedLoad &pipelined) {
    return isCopiedAheadToDot(pipelined.load);
  });
  if (loads.empty())
    return;
  int64_t ahead = numStages - 1;

  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> prologue = createPrologue(rewriter, loop, loads, ahead);
  Value aheadSteps = createSteps(rewriter, loop, ahead);
  Value lastBound = createBound(rewriter, loop, aheadSteps);
  SmallVector<Value> next =
      createPrefetches(loop, loads, aheadSteps, lastBound);

  SmallVector<Value> inits(loop.getInitArgs());
  inits.append(prologue);
  auto pipelined = scf::ForOp::create(
      rewriter, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), inits, [](OpBuilder &, Location, Value, ValueRange) {});
  ArrayRef<BlockArgument> carried =
      pipelined.getRegionIterArgs().take_back(prologue.size());
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [index, load] : llvm::enumerate(loads)) {
    ArrayRef<BlockArgument> blocks = carried.slice(index * ahead, ahead);
    load.load.getResult().replaceAllUsesWith(blocks.front());
    rewriter.eraseOp(load.load);
    SmallVector<Value> shifted(blocks.drop_front());
    shifted.push_back(next[index]);
    yield.getResultsMutable().append(shifted);
  }
  rewriter.mergeBlocks(loop.getBody(), pipelined.getBody(),
                       pipelined.getBody()->getArguments().take_front(
                           loop.getBody()->getNumArguments()));
  rewriter.replaceOp(loop,
                     pipelined.getResults().take_front(loop.getNumResults()));
}

struct BlkPipelineLoadsPass
    : public mlir::blk::impl::BlkPipelineLoadsBase<BlkPipelineLoadsPass> {
  using BlkPipelineLoadsBase::BlkPipelineLoadsBase;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      KernelAttr kernel = getKernelAttr(func);
      if (!kernel || kernel.getNumStages() == 1)
        continue;
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops)
        pipelineLoop(loop, kernel.getNumStages());
    }
  }
};

} // namespace
