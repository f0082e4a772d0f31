//===- StageHeldLoads.cpp - keep held rows in shared memory ---------------===//
//
// A fused row kernel reads its row once and needs it again after each
// reduction: softmax's exp(x - max) after the max, and again after the sum.
// Held in registers, the row of a 16-bit 4096 x 32768 softmax costs a thread
// of 16 warps 64 f32 registers across the reductions (103 in all, one CTA
// per SM, 75% of a copy on the H200, Nsight Compute in docs/benchmarks.md).
// Here the loads such rows come from are kept in shared memory
// (blk.local_alloc, in their own 16-bit type; f32 rows on clusters where
// blk-async-fill copies them) and what a kernel uses after a reduction is
// recomputed from blk.local_load right after it: a thread holds nothing of
// the row across a reduction.
//
// The reductions this applies to cross warps (or CTAs): their barriers keep
// LLVM from forwarding the stored row to the reloads, which a reduction of
// shuffles alone would not.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"
#include "blk/Transforms/AsyncFill.h"
#include "blk/Transforms/PeelAlignment.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSTAGEHELDLOADS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// 32-bit registers a thread spends on `value`, 0 for a value without a
/// layout.
int64_t getRegisters(Value value) {
  FailureOr<Distribution> distribution = Distribution::get(value.getType());
  if (failed(distribution))
    return 0;
  return getRegistersPerThread(
      distribution->getNumElements(),
      getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth());
}

/// Whether `value` is a row as loaded: a `blk.load`, or a versioned one.
bool isLoadedRow(Value value) {
  return value.getDefiningOp<LoadOp>() || isVersionedLoad(value);
}

/// Whether `value` of `block` is computed from a load of `block` (its own
/// data, not only indices: LLVM folds a thread's offsets into addresses).
bool dependsOnLoad(Value value, Block *block,
                   llvm::DenseSet<Operation *> &visited) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != block || !visited.insert(def).second)
    return false;
  if (isa<LocalLoadOp>(def) || isLoadedRow(value))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnLoad(operand, block, visited);
  });
}

/// Whether `reduce` combines the partials of several warps or CTAs, through
/// shared memory and a barrier.
bool crossesWarps(ReductionOpInterface reduce) {
  FailureOr<Distribution> distribution =
      Distribution::get(reduce.getSrc().getType());
  if (failed(distribution) || distribution->getSlicedDim())
    return false;
  return distribution->getReduceSpread(reduce.getAxis()).crossesWarps();
}

/// Whether `value` is a reduced result (a value per row) of a reduction.
bool isReducedValue(Value value) {
  auto result = dyn_cast<OpResult>(value);
  auto reduce =
      result ? dyn_cast<ReductionOpInterface>(result.getOwner()) : nullptr;
  return reduce && reduce.isReducedResult(result.getResultNumber());
}

/// Whether `user` needs a value of `reduce`'s block after the reduction.
/// The yield of a loop body does not: what it carries to the next iteration
/// (a row loaded ahead by blk-pipeline-loads) is the next iteration's, and
/// keeping it in shared memory would wait for its load before the barrier.
bool usesAfter(ReductionOpInterface reduce, Operation *user) {
  Block *block = reduce->getBlock();
  Operation *ancestor = block->findAncestorOpInBlock(*user);
  if (!ancestor || !reduce->isBeforeInBlock(ancestor))
    return false;
  return !(ancestor == block->getTerminator() &&
           isa<LoopLikeOpInterface>(block->getParentOp()));
}

/// How a block held across a reduction is computed again after it: the
/// pure ops from the rows it comes from (loads, or versioned loads), in
/// program order.
struct Recomputation {
  SmallVector<Operation *> ops;
  llvm::SetVector<Value> rows;
};

/// Block `value` of `block` can be recomputed after `reduce` from rows
/// loaded in `block` that `keeps` accepts (read back from shared memory),
/// pure ops without regions, and values that stay cheap to hold: scalars
/// and blocks reduced from others. Fails on anything else (a loop-carried
/// block, an op with effects).
LogicalResult collectRecomputation(Value value, Block *block,
                                   function_ref<bool(Value)> keeps,
                                   Recomputation &recomputation,
                                   llvm::DenseSet<Operation *> &visited) {
  if (!isa<RankedTensorType>(value.getType()))
    return success();
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure(cast<BlockArgument>(value).getOwner() == block);
  if (isReducedValue(value) || def->getBlock() != block)
    return success();
  // A block computed beside a reduction (blk.max_exp_sum's exps): cloning
  // its op would redo the exchange.
  if (isa<ReductionOpInterface>(def))
    return failure();
  if (!visited.insert(def).second)
    return success();
  if (isLoadedRow(value)) {
    if (!cast<RankedTensorType>(value.getType()).hasStaticShape() ||
        !keeps(value))
      return failure();
    recomputation.rows.insert(value);
    return success();
  }
  // A block read back from shared memory is read again.
  if (isa<LocalLoadOp>(def)) {
    recomputation.ops.push_back(def);
    return success();
  }
  if (def->getNumRegions() != 0 || !isPure(def))
    return failure();
  for (Value operand : def->getOperands())
    if (failed(collectRecomputation(operand, block, keeps, recomputation,
                                    visited)))
      return failure();
  recomputation.ops.push_back(def);
  return success();
}

class KernelStager {
public:
  /// Rows of 32-bit elements are kept only on clusters, where they are
  /// copied (RowPolicy::keepsWideRowsIn): on one CTA of 16 warps, f32 4096
  /// x 24576 kept and copied ran softmax 1.00x / 1.01x (H100 / H200),
  /// log_softmax 1.01x / 1.02x, rms_norm 0.99x / 0.86x.
  KernelStager(func::FuncOp kernel, const RowPolicy &policy,
               bool keepsPeeledRows)
      : policy(policy), keepsPeeledRows(keepsPeeledRows),
        onCluster(getKernelAttr(kernel).getNumCtas() > 1),
        keepsWideRows(
            policy.keepsWideRowsIn(getKernelAttr(kernel).getNumCtas())) {
    // Room for a second CTA on the SM, less each CTA's reduction buffers.
    int64_t threadsPerCta = kWarpSize * getKernelAttr(kernel).getNumWarps();
    int64_t reductions = 0;
    kernel.walk([&](ReductionOpInterface reduce) {
      reductions += crossesWarps(reduce);
    });
    maxSharedBytes = policy.getMaxKeptBytes(threadsPerCta, reductions);
  }

  void stageBlock(Block &block) {
    SmallVector<ReductionOpInterface> reductions;
    for (Operation &op : block)
      if (auto reduce = dyn_cast<ReductionOpInterface>(op);
          reduce && crossesWarps(reduce))
        reductions.push_back(reduce);
    // Only kernels that need their rows after the last reduction (to write
    // a row) are staged. Cross-entropy needs its row only until the sum of
    // exp (it writes a loss per row): kept in shared memory across the max
    // alone, bf16 4096 x 24576 ran at 0.91x (H100) / 0.90x (H200), 32768
    // at 0.98x / 1.10x.
    if (reductions.empty() || streamsRowsAfter(reductions.back()) ||
        !policy.keepsRegisters(planAcross(reductions.back()).registers))
      return;
    for (ReductionOpInterface reduce : reductions)
      stageAcross(reduce);
    // A block recomputed after one reduction and again after the next may
    // be left without uses between them.
    for (Operation *clone : llvm::reverse(clones))
      if (isOpTriviallyDead(clone))
        clone->erase();
    clones.clear();
  }

private:
  /// Whether two or more rows are loaded after the last reduction, to be
  /// used beside what the kernel held: that phase, not the reductions,
  /// sets the kernel's registers. H200, LayerNorm (weight and bias after
  /// its reductions) bf16 4096 x 32768: 128 registers held, 112 staged,
  /// one CTA per SM either way, and the reloads made it 0.89x.
  bool streamsRowsAfter(ReductionOpInterface last) {
    int64_t rows = 0;
    for (Operation &op : llvm::make_range(std::next(last->getIterator()),
                                          last->getBlock()->end()))
      op.walk([&](LoadOp load) {
        // A versioned row's fallback is the same row as its aligned twin.
        if (!load->hasAttr(BlkDialect::getFallbackAttrName()) &&
            policy.keepsRegisters(getRegisters(load.getResult())))
          ++rows;
      });
    return rows >= 2;
  }

  /// Blocks of `reduce`'s block defined before it and used after it.
  SmallVector<Value> getHeldBlocks(ReductionOpInterface reduce) {
    Block *block = reduce->getBlock();
    SmallVector<Value> held;
    for (Operation &op :
         llvm::make_range(block->begin(), reduce->getIterator()))
      for (Value result : op.getResults())
        if (isa<RankedTensorType>(result.getType()) &&
            llvm::any_of(result.getUsers(), [&](Operation *user) {
              return usesAfter(reduce, user);
            }))
          held.push_back(result);
    return held;
  }

  /// What recomputing the blocks held across `reduce` takes, and the
  /// registers a thread would no longer hold.
  struct Plan {
    Recomputation recomputation;
    SmallVector<Value> recomputed;
    int64_t registers = 0;
  };

  Plan planAcross(ReductionOpInterface reduce) {
    Block *block = reduce->getBlock();
    Plan plan;
    llvm::DenseSet<Operation *> visited;
    for (Value held : getHeldBlocks(reduce)) {
      Recomputation candidate = plan.recomputation;
      llvm::DenseSet<Operation *> candidateVisited = visited;
      if (failed(collectRecomputation(
              held, block, [&](Value row) { return keepsRow(row); },
              candidate, candidateVisited)))
        continue;
      plan.recomputation = std::move(candidate);
      visited = std::move(candidateVisited);
      // Blocks reduced from others stay held (a value per row).
      if (isReducedValue(held))
        continue;
      plan.recomputed.push_back(held);
      llvm::DenseSet<Operation *> loadSearch;
      if (dependsOnLoad(held, block, loadSearch))
        plan.registers += getRegisters(held);
    }
    return plan;
  }

  void stageAcross(ReductionOpInterface reduce) {
    Plan plan = planAcross(reduce);
    if (plan.recomputed.empty() || !policy.keepsRegisters(plan.registers))
      return;
    // On a cluster, only one row kept was measured (a softmax's).
    if (onCluster && plan.recomputation.rows.size() > 1)
      return;
    Recomputation &recomputation = plan.recomputation;
    int64_t bytes = stagedBytes;
    for (Value row : recomputation.rows)
      if (!buffers.count(row))
        bytes += *getKeptBlockBytes(cast<RankedTensorType>(row.getType()));
    if (bytes > maxSharedBytes)
      return;
    stagedBytes = bytes;

    // Right after the reduction: the reloads, then the recomputing ops in
    // program order (operands before users).
    OpBuilder builder(reduce->getContext());
    builder.setInsertionPointAfter(reduce);
    IRMapping mapping;
    for (Value row : recomputation.rows)
      mapping.map(row, LocalLoadOp::create(builder, row.getLoc(),
                                           row.getType(), getBuffer(row)));
    llvm::sort(recomputation.ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *op : recomputation.ops)
      clones.push_back(builder.clone(*op, mapping));
    for (Value held : plan.recomputed) {
      Value again = mapping.lookup(held);
      held.replaceUsesWithIf(again, [&](OpOperand &use) {
        return usesAfter(reduce, use.getOwner());
      });
    }
  }

  /// The shared-memory copy of `row`, made right after the op that loads
  /// it.
  Value getBuffer(Value row) {
    auto [it, inserted] = buffers.try_emplace(row, nullptr);
    if (!inserted)
      return it->second;
    OpBuilder builder(row.getContext());
    builder.setInsertionPointAfterValue(row);
    auto type = cast<RankedTensorType>(row.getType());
    auto shared = SharedType::get(row.getContext(), type.getShape(),
                                  type.getElementType());
    it->second = LocalAllocOp::create(builder, row.getLoc(), shared, row);
    return it->second;
  }

  /// A versioned row (peeled by blk-peel-alignment) is kept only where
  /// asked (`peeled-rows`; slower where measured: docs/benchmarks.md), and only of 16-bit elements:
  /// blk-async-fill copies a row from its one load, so a 32-bit versioned
  /// row would be filled through registers, which loses (keepsLoad).
  bool keepsRow(Value row) {
    if (auto load = row.getDefiningOp<LoadOp>())
      return keepsLoad(load);
    return keepsPeeledRows &&
           cast<RankedTensorType>(row.getType()).getElementTypeBitWidth() < 32;
  }

  /// A row of 32-bit elements filled through registers costs shared memory
  /// what it saves in registers, and twice the bytes a thread of a 16-bit
  /// row has in flight keep its loads streaming: H100, 4096 x 24576 f32
  /// kept so ran at 0.99x (97.3 vs 98.3% of a copy). Copied by cp.async
  /// (blk-async-fill), f32 rows kept on 4 and 8 CTAs of 8 warps ran faster
  /// (H100 / H200): softmax 1024 x 65536 1.01x / 1.04x, 512 x 131072 1.01x
  /// / 1.05x; log_softmax 1.27x / 1.39x and 1.29x / 1.43x; rms_norm 1.16x /
  /// 1.17x and 1.16x / 1.19x, 256 x 262144 (16 CTAs) 1.25x / 1.35x.
  bool keepsLoad(LoadOp load) {
    unsigned bits = load.getType().getElementTypeBitWidth();
    return bits < 32 || (bits == 32 && keepsWideRows &&
                         isFilledAsynchronously(load, policy, analysis));
  }

  const RowPolicy &policy;
  bool keepsPeeledRows;
  bool onCluster;
  bool keepsWideRows;
  AccessAnalysis analysis;
  int64_t maxSharedBytes = 0;
  int64_t stagedBytes = 0;
  llvm::MapVector<Value, Value> buffers;
  /// The ops stageBlock made, in the order made.
  SmallVector<Operation *> clones;
};

struct BlkStageHeldLoadsPass
    : public mlir::blk::impl::BlkStageHeldLoadsBase<BlkStageHeldLoadsPass> {
  using BlkStageHeldLoadsBase::BlkStageHeldLoadsBase;

  void runOnOperation() override {
    if (wideMinRuns < 0) {
      getOperation().emitError() << "blk-stage-held-loads: wide-min-runs "
                                    "must be 0 (never) or more, but got "
                                 << static_cast<int64_t>(wideMinRuns);
      return signalPassFailure();
    }
    // The chip's shared memory bounds the rows kept: they must leave room
    // for a second CTA on the SM (staging is for kernels whose registers
    // allow only one).
    RowPolicy policy(getTargetInfo(getOperation()), minRegisters, onClusters,
                     wideMinRuns);
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      KernelAttr attr = getKernelAttr(kernel);
      if (!attr || !policy.keepsRowsIn(attr.getNumWarps(), attr.getNumCtas()))
        continue;
      KernelStager stager(kernel, policy, peeledRows);
      SmallVector<Block *> blocks;
      kernel.walk([&](Block *block) { blocks.push_back(block); });
      for (Block *block : blocks)
        stager.stageBlock(*block);
    }
  }
};

} // namespace
