//===- LayoutClasses.cpp - which blocks of a kernel share a layout --------===//
#include "LayoutClasses.h"

#include "blk/IR/BlkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Ops a recomputed block may take (a tree of them, counted with
/// repetitions): a matmul's offsets and masks take about 10.
constexpr int64_t kMaxRecomputedOps = 64;

bool isBlock(Value value) { return isa<RankedTensorType>(value.getType()); }

/// Whether `op` computes one block from scalars and from blocks of ops in
/// `recomputable`, cheaply and without side effects.
bool isRecomputable(Operation *op,
                    const llvm::DenseMap<Operation *, int64_t> &recomputable) {
  if (op->getNumResults() != 1 || !isBlock(op->getResult(0)) ||
      op->getNumRegions() != 0 || !isPure(op))
    return false;
  bool cheap = isa<arith::ConstantOp, SplatOp, ArangeOp, ExpandDimsOp,
                   BroadcastOp>(op) ||
               (op->hasTrait<OpTrait::Elementwise>() &&
                isa<arith::ArithDialect>(op->getDialect()));
  return cheap && llvm::all_of(op->getOperands(), [&](Value operand) {
           Operation *producer = operand.getDefiningOp();
           return !isBlock(operand) ||
                  (producer && recomputable.contains(producer));
         });
}

} // namespace

SmallVector<RecomputedCopy>
mlir::blk::unshareRecomputableBlocks(func::FuncOp func) {
  // Ops in an order where producers come before their users (post-order:
  // a loop's body after the values defined before the loop), with the
  // size of the tree of ops each computes its block from.
  SmallVector<Operation *> order;
  llvm::DenseMap<Operation *, int64_t> treeSizes;
  func.walk([&](Operation *op) {
    if (!isRecomputable(op, treeSizes))
      return;
    // Saturated: x + x doubles the tree at each step.
    int64_t size = 1;
    for (Value operand : op->getOperands())
      if (isBlock(operand))
        size = std::min(size + treeSizes.lookup(operand.getDefiningOp()),
                        kMaxRecomputedOps + 1);
    treeSizes[op] = size;
    order.push_back(op);
  });
  // Users first: a producer then sees the copies its users got.
  OpBuilder builder(func.getContext());
  SmallVector<RecomputedCopy> copies;
  for (Operation *op : llvm::reverse(order)) {
    if (treeSizes.lookup(op) > kMaxRecomputedOps)
      continue;
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getResult(0).getUses())
      uses.push_back(&use);
    if (uses.size() < 2)
      continue;
    builder.setInsertionPointAfter(op);
    for (OpOperand *use : llvm::drop_begin(uses)) {
      Operation *copy = builder.clone(*op);
      use->set(copy->getResult(0));
      copies.push_back({copy, op});
    }
  }
  // Producers' copies first, as mergeIdenticalCopies needs them.
  std::reverse(copies.begin(), copies.end());
  return copies;
}

void mlir::blk::mergeIdenticalCopies(ArrayRef<RecomputedCopy> copies) {
  auto alike = [](Operation *a, Operation *b) {
    return a->getResultTypes() == b->getResultTypes() &&
           llvm::equal(a->getOperands(), b->getOperands()) &&
           a->getAttrDictionary() == b->getAttrDictionary();
  };
  // The original of each group of copies and the copies kept so far.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> kept;
  for (auto [copy, original] : copies) {
    SmallVector<Operation *> &group = kept[original];
    if (group.empty())
      group.push_back(original);
    // A copy's operands are its original's, or copies of them merged back
    // already (producers come first): alike where they are alike.
    auto twin = llvm::find_if(group, [&](Operation *op) {
      return alike(op, copy);
    });
    if (twin == group.end()) {
      group.push_back(copy);
      continue;
    }
    copy->replaceAllUsesWith(*twin);
    copy->erase();
  }
}

void LayoutClasses::join(Value a, Value b) {
  if (!isBlock(a) || !isBlock(b))
    return;
  classes.unionSets(a, b);
  if (cast<RankedTensorType>(a.getType()).getRank() ==
      cast<RankedTensorType>(b.getType()).getRank())
    sameRank.unionSets(a, b);
}

void LayoutClasses::joinAll(ValueRange values) {
  for (Value a : values)
    for (Value b : values)
      join(a, b);
}

std::optional<int64_t> LayoutClasses::getSlicedDim(Value block) const {
  auto it = slicedDims.find(sameRank.getLeaderValue(block));
  if (it == slicedDims.end())
    return std::nullopt;
  return it->second;
}

/// Joins the blocks an op with regions other than scf.for and scf.if passes
/// to and from them (scf.while, scf.execute_region, ...): its operands and
/// results, its regions' arguments and what their terminators pass on, all
/// in one class.
static SmallVector<Value> getRegionBlocks(Operation *op) {
  SmallVector<Value> values(op->getOperands());
  values.append(op->result_begin(), op->result_end());
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      values.append(block.args_begin(), block.args_end());
      if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
        values.append(block.back().operand_begin(), block.back().operand_end());
    }
  return values;
}

void LayoutClasses::keepCopiesWithTheirOriginals(
    int64_t rank, ArrayRef<RecomputedCopy> copies) {
  // A class without a block of the kernel's highest rank has no layout to
  // be a slice of: its copies go back to their originals' classes.
  bool changed = true;
  while (changed) {
    changed = false;
    llvm::DenseSet<Value> anchored;
    for (const auto *member : classes) {
      Value block = member->getData();
      if (cast<RankedTensorType>(block.getType()).getRank() == rank)
        anchored.insert(classes.getLeaderValue(block));
    }
    for (auto [copy, original] : copies) {
      Value copied = copy->getResult(0), source = original->getResult(0);
      if (anchored.contains(getClass(copied)) ||
          getClass(copied) == getClass(source))
        continue;
      join(copied, source);
      changed = true;
    }
  }
}

LogicalResult LayoutClasses::build(func::FuncOp func, int64_t rank,
                                   ArrayRef<RecomputedCopy> copies) {
  auto insert = [&](Value value) {
    if (isBlock(value)) {
      classes.insert(value);
      sameRank.insert(value);
    }
  };
  func.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      insert(arg);
  });
  // (block, dimension it is a slice of, the op that says so)
  SmallVector<std::tuple<Value, int64_t, Operation *>> seeds;
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      insert(result);
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg, result, yielded] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                     loop.getResults(), loop.getYieldedValues()))
        joinAll({init, arg, result, yielded});
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (auto [index, result] : llvm::enumerate(branch.getResults())) {
        join(result, branch.thenYield().getOperand(index));
        if (!branch.getElseRegion().empty())
          join(result, branch.elseYield().getOperand(index));
      }
      return;
    }
    if (op->getNumRegions() != 0 && !isa<func::FuncOp>(op)) {
      joinAll(getRegionBlocks(op));
      return;
    }
    // A region's results are its parent's to join (above).
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    if (auto dot = dyn_cast<DotOp>(op)) {
      // A and B pass through shared memory from any layout.
      join(dot.getAcc(), dot.getResult());
      return;
    }
    // A conversion's source and result are laid out apart: that is what
    // it is for.
    if (isa<ConvertLayoutOp>(op))
      return;
    if (auto reload = dyn_cast<LocalLoadOp>(op)) {
      // A block read back from shared memory has the layout it was written
      // in: each thread reads what it wrote.
      if (auto alloc = reload.getSrc().getDefiningOp<LocalAllocOp>())
        join(alloc.getSrc(), reload.getResult());
      if (auto copy = reload.getSrc().getDefiningOp<AsyncCopyOp>())
        join(copy.getOffsets(), reload.getResult());
      return;
    }
    if (auto expand = dyn_cast<ExpandDimsOp>(op))
      seeds.push_back({expand.getSrc(), expand.getAxis(), op});
    if (auto reduce = dyn_cast<ReductionOpInterface>(op))
      for (OpResult result : op->getResults())
        if (reduce.isReducedResult(result.getResultNumber()) &&
            isBlock(result))
          seeds.push_back({result, reduce.getAxis(), op});
    SmallVector<Value> values(op->getOperands());
    values.append(op->result_begin(), op->result_end());
    joinAll(values);
  });
  keepCopiesWithTheirOriginals(rank, copies);
  for (auto [value, dim, op] : seeds) {
    auto [it, inserted] =
        slicedDims.try_emplace(sameRank.getLeaderValue(value), dim);
    if (!inserted && it->second != dim)
      return op->emitOpError()
             << "needs its 1-D block as a slice of dimension " << dim
             << " of the 2-D layout, but the block is already a slice of "
                "dimension "
             << it->second
             << " (per-row values slice dimension 1, column indices "
                "dimension 0); converting between them is not supported";
  }
  return success();
}
