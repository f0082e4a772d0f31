//===- PipelinedLoad.h - a loop's loads issued iterations ahead -*- C++ -*-===//
//
// What blk-pipeline-loads (into loop-carried registers) and
// blk-pipeline-dot-operands (into rings of shared buffers) share: which
// loads of a loop body can be made for another iteration, their address
// computed again there, and the bounds that say whether that iteration
// runs. The bound is compared as `i < ub - k * step`, not
// `i + k * step < ub`, so that it cannot wrap where ub is near the top of
// the type.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_TRANSFORMS_PIPELINEDLOAD_H
#define LIB_TRANSFORMS_PIPELINEDLOAD_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::blk {

/// A load of the loop body and the body's ops its operands are computed
/// from, in program order.
struct PipelinedLoad {
  LoadOp load;
  SmallVector<Operation *> addressOps;
};

/// The body ops `load`'s operands come from, if they can be computed for
/// another iteration: pure ops without regions, fed by the induction
/// variable and values from outside the loop only.
std::optional<PipelinedLoad> getPipelinedLoad(scf::ForOp loop, LoadOp load);

/// The loads of `loop`'s body that come before anything in it may write
/// global memory (mayWriteGlobalMemory) and can be pipelined.
SmallVector<PipelinedLoad> getLoadsBeforeWrites(scf::ForOp loop);

/// Whether `op`, with the ops it holds, may write global memory: a store, a
/// blk.program_barrier (where other programs' writes arrive), or an op
/// whose effects are unknown. Shared memory is the CTA's own.
bool mayWriteGlobalMemory(Operation *op);

/// Clones `pipelined`'s address ops at `builder` for the iteration whose
/// induction variable is `position`; returns the mapping to the clones.
IRMapping createAddressAt(OpBuilder &builder, scf::ForOp loop,
                          const PipelinedLoad &pipelined, Value position);

/// The load's mask, mapped by `mapping` (none: all true), and `runs`
/// (whether that iteration runs) over every element.
Value createMaskWhere(OpBuilder &builder, const IRMapping &mapping,
                      LoadOp load, Value runs);

/// `step * k`, before the loop.
Value createSteps(OpBuilder &builder, scf::ForOp loop, int64_t k);

/// `ub - steps`, before the loop: iteration `i + k` runs iff `i < ub - k *
/// step`, which does not wrap where `i + k * step` would.
Value createBound(OpBuilder &builder, scf::ForOp loop, Value steps);

/// `position < bound` (signed).
Value createBelow(OpBuilder &builder, Location loc, Value position,
                  Value bound);

} // namespace mlir::blk

#endif // LIB_TRANSFORMS_PIPELINEDLOAD_H
