//===- StreamRows.cpp - a read-only row walked in tiles -------------------===//
//
// A program that reads its row, reduces it and writes none of it (a
// cross-entropy: the row's logsumexp and one logit) need not hold the row:
// it can walk the row in tiles of `row_block` columns, each lane of the
// tile keeping a running value of every reduction, and combine the lanes
// once at the end. Held, a row of 128256 f32 takes a cluster of 8 CTAs
// whose reductions wait at cluster barriers; streamed, it takes one CTA of
// 16 warps (64 registers a thread: two CTAs an SM) that meets no barrier
// until the row's end. This is
// python-free-examples/softmax_online.mlir's first pass made from any
// program of one read-only row.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/StreamRows.h"
#include "blk/Transforms/MaxExpSum.h"
#include "blk/Transforms/Passes.h"
#include "blk/Transforms/SplitRows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <limits>

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSTREAMROWS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// What a streamed kernel reduces, and the ops that compute it.
struct StreamPlan {
  /// Reductions whose lanes keep a running value of their own kind.
  SmallVector<ReduceOp> plain;
  /// A max and its sum of exp(x - max): the lanes keep running (max, sum)
  /// pairs, the sum rescaled where the max grows.
  SmallVector<std::pair<ReduceOp, ReduceOp>> pairs;
  /// The ops of the kernel's body that compute blocks of the row, in
  /// order, but a pair's exp(x - max): what each tile computes again.
  llvm::SetVector<Operation *> rowOps;
  /// A pair's exp(x - max), its difference and its repeat of the max:
  /// replaced by the running pairs.
  llvm::SmallPtrSet<Operation *, 8> pairOps;
  /// Constants (and compile-time constants, blk.constexpr) the row ops use
  /// that come after the first reduction: moved before the loop.
  llvm::SetVector<Operation *> lateConstants;
  /// The first reduction of the row, where the loop over tiles goes.
  ReduceOp first;
};

/// Whether `op` computes a block of the row.
bool computesRowBlock(Operation *op) {
  return llvm::any_of(op->getResultTypes(), isRowBlock);
}

/// Pairs each max of the row with its (first) sum of exps; the ops of the
/// sum's exp(x - max) go to `plan.pairOps` where nothing else uses them.
void findPairs(ArrayRef<ReduceOp> reductions, StreamPlan &plan) {
  llvm::SmallPtrSet<Operation *, 4> paired;
  for (ReduceOp sum : reductions) {
    ReduceOp max = getMatchingMax(sum);
    if (!max || !isRowReduction(max) || !paired.insert(max).second)
      continue;
    Operation *exp = sum.getSrc().getDefiningOp();
    Operation *difference = exp->getOperand(0).getDefiningOp();
    if (!exp->hasOneUse() || !difference->hasOneUse()) {
      paired.erase(max);
      continue;
    }
    paired.insert(sum);
    plan.pairs.push_back({max, sum});
    plan.pairOps.insert(exp);
    plan.pairOps.insert(difference);
    Operation *repeat = difference->getOperand(1).getDefiningOp();
    if (llvm::all_of(repeat->getUsers(), [&](Operation *user) {
          return plan.pairOps.contains(user);
        }))
      plan.pairOps.insert(repeat);
  }
  for (ReduceOp reduce : reductions)
    if (!paired.contains(reduce))
      plan.plain.push_back(reduce);
}

/// The ops of `block` that use, directly or not, a reduction of the row.
llvm::SmallPtrSet<Operation *, 16>
getReductionDependents(Block &block, ArrayRef<ReduceOp> reductions) {
  llvm::SmallPtrSet<Operation *, 16> dependents;
  for (ReduceOp reduce : reductions)
    dependents.insert(reduce);
  for (Operation &op : block)
    for (Value operand : op.getOperands())
      if (Operation *definer = operand.getDefiningOp();
          definer && dependents.contains(definer))
        dependents.insert(&op);
  return dependents;
}

/// Whether `op` may write memory (an op that does not say, may).
bool mayWrite(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return !effects || effects.hasEffect<MemoryEffects::Write>();
}

/// The first op between the row's loads and its first reduction that may
/// write memory (the tiles' loads go where that reduction is, so they would
/// move across it), or null.
Operation *findWriteAmidLoads(const StreamPlan &plan) {
  Operation *from = plan.first, *to = plan.first;
  for (Operation *op : plan.rowOps) {
    if (isMemoryEffectFree(op))
      continue;
    if (op->isBeforeInBlock(from))
      from = op;
    if (to->isBeforeInBlock(op))
      to = op;
  }
  for (Operation *op = from; op != to; op = op->getNextNode())
    if (!plan.rowOps.contains(op) && mayWrite(op))
      return op;
  return nullptr;
}

/// Why the row ops of `kernel` cannot be computed tile by tile before its
/// first reduction, or empty; fills `plan`.
std::string planStream(func::FuncOp kernel, StreamPlan &plan) {
  if (std::string why = whyRowIsNotHeldAlone(kernel, HeldRowRewrite::stream);
      !why.empty())
    return why;
  SmallVector<ReduceOp> reductions = getRowReductions(kernel);
  findPairs(reductions, plan);
  plan.first = reductions.front();
  llvm::SmallPtrSet<Operation *, 8> reductionOps;
  for (ReduceOp reduce : reductions)
    reductionOps.insert(reduce);

  Block &body = kernel.front();
  // The loop clones the row's ops and goes before the first reduction: an
  // op with regions (scf.if) could hide a use of a reduction inside them.
  for (Operation &op : body)
    if (op.getNumRegions() != 0)
      return "it has " + op.getName().getStringRef().str() +
             ", whose regions the tiles would not see into";
  llvm::SmallPtrSet<Operation *, 16> dependents =
      getReductionDependents(body, reductions);
  for (Operation &op : body) {
    if (!computesRowBlock(&op) || plan.pairOps.contains(&op))
      continue;
    for (Operation *user : op.getUsers())
      if (!computesRowBlock(user) && !reductionOps.contains(user))
        return "a block of its row reaches " +
               user->getName().getStringRef().str() +
               ", not only reductions of the row (it writes or keeps its "
               "row)";
    if (dependents.contains(&op))
      return op.getName().getStringRef().str() +
             " computes a block of the row from a reduction of the row "
             "(not a max's sum of exps): the row is needed again after "
             "it";
    for (Value operand : op.getOperands()) {
      Operation *definer = operand.getDefiningOp();
      if (!definer || computesRowBlock(definer) ||
          definer->isBeforeInBlock(plan.first))
        continue;
      if (!definer->hasTrait<OpTrait::ConstantLike>() &&
          !isa<ConstexprOp>(definer))
        return op.getName().getStringRef().str() +
               " uses a value computed after the row's first reduction";
      plan.lateConstants.insert(definer);
    }
    plan.rowOps.insert(&op);
  }
  if (Operation *write = findWriteAmidLoads(plan))
    return write->getName().getStringRef().str() +
           " may write memory between the row's loads and its first "
           "reduction, where the tiles' loads go";
  return "";
}

/// A block of the row's type equal to `value` everywhere (`rowShape`: the
/// row block's shape attribute, [row_block]).
Value createRowSplat(OpBuilder &builder, Location loc, Type rowType,
                     TypedAttr value, ArrayAttr rowShape) {
  Value scalar = arith::ConstantOp::create(builder, loc, value);
  return SplatOp::create(builder, loc, rowType, scalar, rowShape);
}

/// Each lane's running (max, sum) after its tile's value `x`: the max
/// grows to m' = max(m, x) and the sum against it becomes s * exp(m - m')
/// + exp(x - m'), against 0 where m' is still -inf (exp(-inf - -inf)
/// would make the sum NaN).
std::pair<Value, Value> createPairStep(OpBuilder &builder, Location loc,
                                       Value max, Value sum, Value x,
                                       ArrayAttr rowShape) {
  Type f32 = builder.getF32Type();
  Type rowType = x.getType();
  Value ninf = createRowSplat(
      builder, loc, rowType,
      builder.getF32FloatAttr(-std::numeric_limits<float>::infinity()),
      rowShape);
  Value zero = createRowSplat(builder, loc, rowType,
                              builder.getFloatAttr(f32, 0), rowShape);
  Value grown = arith::MaximumFOp::create(builder, loc, max, x);
  Value none = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ,
                                     grown, ninf);
  Value shift = arith::SelectOp::create(builder, loc, none, zero, grown);
  Value rescale = math::ExpOp::create(
      builder, loc, arith::SubFOp::create(builder, loc, max, shift));
  Value term = math::ExpOp::create(
      builder, loc, arith::SubFOp::create(builder, loc, x, shift));
  Value summed = arith::AddFOp::create(
      builder, loc, arith::MulFOp::create(builder, loc, sum, rescale), term);
  return {grown, summed};
}

/// Computes the row ops of `plan` for the tile at column `first`: each
/// `blk.arange 0 to row_block` becomes the tile's columns.
void cloneRowOps(OpBuilder &builder, const StreamPlan &plan, Value first,
                 ArrayAttr rowShape, IRMapping &mapping) {
  for (Operation *op : plan.rowOps) {
    Operation *copy = builder.clone(*op, mapping);
    auto arange = dyn_cast<ArangeOp>(copy);
    if (!arange || !isa<StringAttr>(arange.getEnd()))
      continue;
    Location loc = arange.getLoc();
    Value firsts =
        SplatOp::create(builder, loc, arange.getType(), first, rowShape);
    mapping.map(op->getResult(0),
                arith::AddIOp::create(builder, loc, arange, firsts));
  }
}

/// Walks `kernel`'s row (one that planStream accepts) in tiles: a loop
/// over the row's columns, `row_block` a step, before its first
/// reduction (with the constants its row ops use), each lane keeping a
/// running value of every reduction; the reductions then combine the lanes.
void streamRows(func::FuncOp kernel, StreamPlan &plan) {
  StringRef rowBlock = getKernelAttr(kernel).getRowBlock();
  for (Operation *constant : plan.lateConstants)
    constant->moveBefore(plan.first);
  OpBuilder builder(plan.first);
  Location loc = plan.first.getLoc();
  Type i32 = builder.getI32Type();
  ArrayAttr rowShape = builder.getArrayAttr({builder.getStringAttr(rowBlock)});

  SmallVector<Value> inits;
  for (ReduceOp reduce : plan.plain) {
    auto type = cast<RankedTensorType>(reduce.getSrc().getType());
    inits.push_back(createRowSplat(
        builder, loc, type,
        ReduceOp::getIdentity(reduce.getKind(), type.getElementType(), builder),
        rowShape));
  }
  for (auto [max, sum] : plan.pairs) {
    Type type = max.getSrc().getType();
    inits.push_back(createRowSplat(
        builder, loc, type,
        builder.getF32FloatAttr(-std::numeric_limits<float>::infinity()),
        rowShape));
    inits.push_back(createRowSplat(builder, loc, type,
                                   builder.getF32FloatAttr(0), rowShape));
  }
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(0));
  Value step = ConstexprOp::create(builder, loc, i32, rowBlock);
  Value cols = findArgument(kernel, ArgRole::cols);
  auto loop = scf::ForOp::create(
      builder, loc, zero, cols, step, inits,
      [&](OpBuilder &b, Location l, Value first, ValueRange running) {
        IRMapping mapping;
        cloneRowOps(b, plan, first, rowShape, mapping);
        SmallVector<Value> next;
        for (auto [reduce, value] : llvm::zip(plan.plain, running))
          next.push_back(ReduceOp::combine(b, l, reduce.getKind(), value,
                                           mapping.lookup(reduce.getSrc())));
        ValueRange pairs = running.drop_front(plan.plain.size());
        for (auto [index, pair] : llvm::enumerate(plan.pairs)) {
          auto [grown, summed] =
              createPairStep(b, l, pairs[2 * index], pairs[2 * index + 1],
                             mapping.lookup(pair.first.getSrc()), rowShape);
          next.push_back(grown);
          next.push_back(summed);
        }
        scf::YieldOp::create(b, l, next);
      });

  ValueRange results = loop.getResults();
  for (auto [reduce, lanes] : llvm::zip(plan.plain, results))
    reduce.getResult().replaceAllUsesWith(ReduceOp::create(
        builder, loc, reduce.getType(), reduce.getKind(), lanes, 0));
  ValueRange pairs = results.drop_front(plan.plain.size());
  for (auto [index, pair] : llvm::enumerate(plan.pairs)) {
    auto [rowMax, rowSum] = createMergedMaxAndSum(
        builder, loc, pairs[2 * index], pairs[2 * index + 1], rowShape);
    pair.first.getResult().replaceAllUsesWith(rowMax);
    pair.second.getResult().replaceAllUsesWith(rowSum);
  }

  // The held computation, now unused: reductions first, then the pairs'
  // exps, then the row ops from the last.
  for (ReduceOp reduce : plan.plain)
    reduce.erase();
  for (auto [max, sum] : plan.pairs) {
    sum.erase();
    max.erase();
  }
  SmallVector<Operation *> dead(plan.pairOps.begin(), plan.pairOps.end());
  llvm::append_range(dead, plan.rowOps);
  llvm::sort(dead,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *op : dead)
    op->erase();
}

struct BlkStreamRowsPass
    : public mlir::blk::impl::BlkStreamRowsBase<BlkStreamRowsPass> {
  void runOnOperation() override {
    // Every kernel is checked before any changes.
    std::vector<std::pair<func::FuncOp, StreamPlan>> kernels;
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (!isKernel(kernel))
        continue;
      StreamPlan plan;
      std::string why = planStream(kernel, plan);
      if (!why.empty()) {
        kernel.emitError() << "cannot stream the row of @"
                           << kernel.getSymName() << ": " << why;
        return signalPassFailure();
      }
      kernels.emplace_back(kernel, std::move(plan));
    }
    for (auto &[kernel, plan] : kernels)
      streamRows(kernel, plan);
  }
};

} // namespace

std::string mlir::blk::whyRowsCannotStream(func::FuncOp kernel) {
  StreamPlan plan;
  return planStream(kernel, plan);
}
