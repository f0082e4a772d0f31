//===- SplitRows.cpp - a row over programs that meet in one launch --------===//
//
// A program that holds its row in registers runs out of room past what a
// cluster holds (a million f32 columns are 4 MiB; 16 CTAs' registers and
// shared memory hold about half of that). The row is then split into parts
// of `row_block` columns, a program each, and the parts of a row meet in
// the launch: every reduction of the row becomes the part's reduction, its
// partial written to scratch memory, a meeting of the row's parts
// (blk.program_barrier), and the reduction of the row's partials, which
// every part computes alike. The rest of the program runs on the part as
// it ran on the row: its columns are the part's (`arange 0 to row_block`
// plus the part's first column), so masks, loads and stores need no
// change. This is python-free-examples/softmax_split_resident.mlir made
// from any program of one row.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/SplitRows.h"
#include "blk/Transforms/MaxExpSum.h"
#include "blk/Transforms/SumCenteredSquares.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSPLITROWS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// `type` as the IR prints it (f32, i64).
std::string getTypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return name;
}

/// Why `op` keeps its kernel's row from being rewritten as `rewrite`, or
/// empty.
std::string whyOpKeepsRowHeld(Operation *op, StringRef rowBlock,
                              HeldRowRewrite rewrite) {
  bool split = rewrite == HeldRowRewrite::split;
  if (isa<LoopLikeOpInterface>(op))
    return "it loops (over its row, or over rows)";
  if (auto id = dyn_cast<ProgramIdOp>(op))
    if (id.getAxis() != ProgramAxis::x)
      return "it reads blk.program_id " +
             stringifyProgramAxis(id.getAxis()).str();
  if (isa<NumProgramsOp, ProgramBarrierOp, DotOp, WarpgroupDotOp>(op))
    return "it has " + op->getName().getStringRef().str();
  if (isa<ReductionOpInterface>(op) && !isa<ReduceOp>(op))
    return "it has " + op->getName().getStringRef().str();
  for (Type type : op->getResultTypes())
    if (auto tensor = dyn_cast<RankedTensorType>(type);
        tensor && tensor.getRank() > 1)
      return "it has blocks of " + std::to_string(tensor.getRank()) +
             " dimensions";
  if (auto value = dyn_cast<ConstexprOp>(op); value && value.getName() == rowBlock)
    return "it reads the value of " + rowBlock.str() + " (blk.constexpr), " +
           (split ? "which is a part's length once split"
                  : "which is a tile's length once walked in tiles");
  if (auto reduce = dyn_cast<ReduceOp>(op);
      split && reduce && isRowReduction(reduce)) {
    Type element = reduce.getType();
    if (!element.isF32() && !element.isInteger(32) && !element.isInteger(64))
      return "it reduces its row to " + getTypeName(element) +
             ", whose partials scratch memory does not keep (f32, i32 and "
             "i64 it does)";
  }
  if (auto named = dyn_cast<ConstantNamesOpInterface>(op);
      named && !isa<ConstexprOp>(op))
    for (StringRef name : named.getConstantNames())
      if (name != rowBlock)
        return "a block's length is '" + name.str() +
               "', not the row's block " + rowBlock.str();
  if (auto arange = dyn_cast<ArangeOp>(op))
    if (isa<StringAttr>(arange.getEnd()) && arange.getStart() != 0)
      return "a blk.arange to " + rowBlock.str() + " starts at " +
             std::to_string(arange.getStart()) + ", not at 0";
  return "";
}

/// A name not in `taken`: `base`, or `base` with a number after it.
std::string getFreshName(const llvm::StringSet<> &taken, StringRef base) {
  std::string name = base.str();
  for (int suffix = 1; taken.contains(name); ++suffix)
    name = base.str() + "_" + std::to_string(suffix);
  return name;
}

/// The names the split adds to a program: the same in every kernel of the
/// module (constants and tensors are the module's: a tensor's name in two
/// kernels is one buffer), none that a kernel uses already.
struct SplitNames {
  explicit SplitNames(ModuleOp module) {
    llvm::StringSet<> constants;
    for (const std::string &name : getConstantNames(module))
      constants.insert(name);
    splits = getFreshName(constants, "SPLITS");
    for (auto func : module.getOps<func::FuncOp>())
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (ArgAttr arg = getArgAttr(func, i))
          tensors.insert(arg.getName());
    arrivals = getFreshName(tensors, "row_arrivals");
    tensors.insert(arrivals);
  }

  /// The scratch matrix of the partials of `element`.
  StringRef getPartials(Type element) {
    std::string &name = partials[element];
    if (name.empty()) {
      name = getFreshName(tensors, "row_partials_" + getTypeName(element));
      tensors.insert(name);
    }
    return name;
  }

  std::string splits, arrivals;
  llvm::StringSet<> tensors;
  llvm::DenseMap<Type, std::string> partials;
};

/// Appends a scratch tensor argument of `element`s to `kernel`.
Value addScratchArgument(func::FuncOp kernel, Type element, StringRef name,
                         ArgExtent extent) {
  MLIRContext *context = kernel.getContext();
  Builder builder(context);
  SmallVector<NamedAttribute, 2> attrs = {builder.getNamedAttr(
      BlkDialect::getArgAttrName(),
      ArgAttr::get(context, ArgRole::scratch, name, extent))};
  // Partials stay f32 where blk-storage-type narrows the row's tensors.
  if (element.isF32())
    attrs.push_back(builder.getNamedAttr(BlkDialect::getKeepF32AttrName(),
                                         builder.getUnitAttr()));
  unsigned index = kernel.getNumArguments();
  (void)kernel.insertArgument(index, PtrType::get(context, element),
                              builder.getDictionaryAttr(attrs),
                              kernel.getLoc());
  return kernel.getArgument(index);
}

/// Where the split program keeps what the parts of a row share.
struct Meeting {
  /// The row's counter (a per_row i64 scratch tensor).
  Value arrivals;
  /// A matrix of partials per element type reduced: a row's line holds,
  /// for the type's k-th reduction, its SPLITS partials from k * SPLITS.
  llvm::MapVector<Type, Value> partials;
  /// Reductions of each type met so far in this program.
  llvm::DenseMap<Type, int64_t> met;
};

/// The values of one part of one row, inside the loop over them.
struct Part {
  Value row, index, firstColumn, splits, cols;
};

/// The start of the next `slots` unused slots of the row's line in the
/// partials of `element` (each slot SPLITS long): the k-th of a program's
/// partials of a type is at row * cols + k * SPLITS + part.
Value takeSlots(OpBuilder &builder, Location loc, Type element, int64_t slots,
                const Part &part, Meeting &meeting) {
  int64_t first = meeting.met[element];
  meeting.met[element] += slots;
  Value lineStart = arith::MulIOp::create(builder, loc, part.row, part.cols);
  Value slotStart = arith::MulIOp::create(
      builder, loc, part.splits,
      arith::ConstantOp::create(builder, loc,
                                builder.getI32IntegerAttr(first)));
  Value start = arith::AddIOp::create(builder, loc, lineStart, slotStart);
  Value partials = meeting.partials.lookup(element);
  return AddPtrOp::create(builder, loc, partials.getType(), partials, start);
}

/// The slot after `slot`.
Value nextSlot(OpBuilder &builder, Location loc, Value slot, const Part &part) {
  return AddPtrOp::create(builder, loc, slot.getType(), slot, part.splits);
}

RankedTensorType getDynamicBlock(Type element) {
  return RankedTensorType::get({ShapedType::kDynamic}, element);
}

/// Stores `partial` as the part's element of `slot`.
void storePartial(OpBuilder &builder, Location loc, Value slot, Value partial,
                  const Part &part) {
  auto one = [&](Type type) { return RankedTensorType::get({1}, type); };
  Value at = SplatOp::create(builder, loc, one(builder.getI32Type()),
                             part.index, ArrayAttr());
  Value block = SplatOp::create(builder, loc, one(partial.getType()), partial,
                                ArrayAttr());
  StoreOp::create(builder, loc, slot, at, block, Value());
}

/// Waits at the row's counter until its SPLITS parts have arrived.
void meet(OpBuilder &builder, Location loc, const Part &part,
          const Meeting &meeting) {
  Value counter = AddPtrOp::create(builder, loc, meeting.arrivals.getType(),
                                   meeting.arrivals, part.row);
  ProgramBarrierOp::create(builder, loc, counter, part.splits);
}

/// The row's SPLITS partials in `slot`.
Value loadPartials(OpBuilder &builder, Location loc, Value slot, Type element,
                   StringRef splitsName) {
  Value parts =
      ArangeOp::create(builder, loc, getDynamicBlock(builder.getI32Type()), 0,
                       builder.getStringAttr(splitsName));
  return LoadOp::create(builder, loc, getDynamicBlock(element), slot, parts,
                        Value(), Value());
}

/// The part's `partials` (of one element type) in consecutive slots of the
/// row's line, the meeting, and the row's SPLITS partials of each, in the
/// same order.
SmallVector<Value> meetWithPartials(OpBuilder &builder, Location loc,
                                    ArrayRef<Value> partials, const Part &part,
                                    StringRef splitsName, Meeting &meeting) {
  Type element = partials.front().getType();
  SmallVector<Value> slots = {
      takeSlots(builder, loc, element, partials.size(), part, meeting)};
  while (slots.size() < partials.size())
    slots.push_back(nextSlot(builder, loc, slots.back(), part));
  for (auto [slot, partial] : llvm::zip_equal(slots, partials))
    storePartial(builder, loc, slot, partial, part);
  meet(builder, loc, part, meeting);
  return llvm::map_to_vector(slots, [&](Value slot) {
    return loadPartials(builder, loc, slot, element, splitsName);
  });
}

/// Every use of `value`, to be pointed elsewhere once the replacement
/// exists (after ops that use `value` themselves were added).
SmallVector<OpOperand *> getUses(Value value) {
  return llvm::to_vector(llvm::map_range(
      value.getUses(), [](OpOperand &use) { return &use; }));
}

/// `reduce` of the part becomes the reduction of the row: its partial in
/// the row's line of scratch, the meeting, and the reduction of the row's
/// partials, which replaces it everywhere.
void meetForReduction(ReduceOp reduce, const Part &part, StringRef splitsName,
                      Meeting &meeting) {
  OpBuilder builder(reduce->getContext());
  builder.setInsertionPointAfter(reduce);
  Location loc = reduce.getLoc();
  Type element = reduce.getType();
  SmallVector<OpOperand *> uses = getUses(reduce);
  Value partials = meetWithPartials(builder, loc, {reduce.getResult()}, part,
                                    splitsName, meeting)
                       .front();
  Value total =
      ReduceOp::create(builder, loc, element, reduce.getKind(), partials, 0);
  for (OpOperand *use : uses)
    use->set(total);
}

/// A row's max and its sum of exp(x - max) (getMatchingMax) meet once, as
/// (max, sum) pairs of the parts (softmax_split_resident's combination):
/// the part's sum is taken against its own max (0 where it has no finite
/// value, so that the sum is 0 and not NaN), and the row's is
///   S = sum over parts with a finite value of s * exp(m - M), M = max m,
/// NaN where the row has no finite value (as exp(-inf - -inf) makes it
/// unsplit). The program's max and sum become M and S; its own exps, now
/// against M, stay for its other uses.
void meetForMaxAndSum(ReduceOp max, ReduceOp sum, const Part &part,
                      StringRef splitsName, StringRef rowBlock,
                      Meeting &meeting) {
  OpBuilder builder(max->getContext());
  builder.setInsertionPointAfter(max);
  Location loc = max.getLoc();
  Type f32 = builder.getF32Type();
  SmallVector<OpOperand *> maxUses = getUses(max);
  Value x = max.getSrc();
  Value ninf = arith::ConstantOp::create(
      builder, loc,
      builder.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(0));
  Value none =
      arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ, max, ninf);
  Value shift = arith::SelectOp::create(builder, loc, none, zero, max);
  Value shifts =
      SplatOp::create(builder, loc, x.getType(), shift,
                      builder.getArrayAttr({builder.getStringAttr(rowBlock)}));
  Value exps = math::ExpOp::create(
      builder, loc, arith::SubFOp::create(builder, loc, x, shifts));
  Value partSum = ReduceOp::create(builder, loc, f32, ReduceKind::sum, exps, 0);

  SmallVector<Value> met = meetWithPartials(
      builder, loc, {max.getResult(), partSum}, part, splitsName, meeting);
  auto [rowMax, rowSum] = createMergedMaxAndSum(
      builder, loc, met[0], met[1],
      builder.getArrayAttr({builder.getStringAttr(splitsName)}));

  for (OpOperand *use : maxUses)
    use->set(rowMax);
  sum.getResult().replaceAllUsesWith(rowSum);
  Operation *sumExps = sum.getSrc().getDefiningOp();
  sum.erase();
  eraseIfDead(sumExps);
}

/// The SumCenteredSquares of `reductions` that meet as one, by their sums:
/// not those whose sum another meeting replaces first (a max's sum of
/// exps, or another pattern's squares), which meet alone.
llvm::MapVector<Operation *, SumCenteredSquares>
getSumCenteredSquaresBySum(ArrayRef<ReduceOp> reductions) {
  SmallVector<SumCenteredSquares> matches;
  llvm::SmallPtrSet<Operation *, 4> squares;
  for (ReduceOp reduce : reductions)
    if (std::optional<SumCenteredSquares> match = getSumCenteredSquares(reduce);
        match && isRowReduction(match->sum)) {
      matches.push_back(*match);
      squares.insert(match->squares);
    }
  llvm::MapVector<Operation *, SumCenteredSquares> bySum;
  for (const SumCenteredSquares &match : matches)
    if (!squares.contains(match.sum) && !getMatchingMax(match.sum))
      bySum.try_emplace(match.sum, match);
  return bySum;
}

/// `bound` where `mask` is `columns < splat(bound)` over the part's
/// columns (the row's bounds check, `cols < n_cols`), else null.
Value getColumnBound(Value mask, const Part &part) {
  auto compare = mask.getDefiningOp<arith::CmpIOp>();
  if (!compare || compare.getPredicate() != arith::CmpIPredicate::slt)
    return nullptr;
  auto columns = compare.getLhs().getDefiningOp<arith::AddIOp>();
  auto bound = compare.getRhs().getDefiningOp<SplatOp>();
  if (!columns || !bound)
    return nullptr;
  auto arange = columns.getLhs().getDefiningOp<ArangeOp>();
  auto firsts = columns.getRhs().getDefiningOp<SplatOp>();
  if (!arange || arange.getStart() != 0 || !firsts ||
      firsts.getSrc() != part.firstColumn)
    return nullptr;
  return bound.getSrc();
}

/// How many of the part's columns lie below `bound`: bound - first
/// column, within 0 and the part's length.
Value createColumnsBelow(OpBuilder &builder, Location loc, Value bound,
                         const Part &part, StringRef rowBlock) {
  Type i32 = builder.getI32Type();
  Value below = arith::SubIOp::create(builder, loc, bound, part.firstColumn);
  Value none =
      arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(0));
  Value lanes = ConstexprOp::create(builder, loc, i32, rowBlock);
  return arith::MinSIOp::create(
      builder, loc, arith::MaxSIOp::create(builder, loc, below, none), lanes);
}

/// A row's sum and its sum of squares about the mean meet once, as the
/// parts' (sum, count, squares about the part's own mean), merged as Chan,
/// Golub and LeVeque's parallel variance:
///   S = sum of s,  mean = S / n,  Q = sum of q + c (s / c - mean)^2
/// over the parts that count a lane (c > 0). The program's sum and squares
/// become S and Q; its mean and centered row, now against S, stay as they
/// were. NaN and infinity reach Q as unsplit: a NaN or an infinite lane
/// makes its part's q NaN.
void meetForSumCenteredSquares(const SumCenteredSquares &match,
                               const Part &part, StringRef splitsName,
                               StringRef rowBlock, Meeting &meeting) {
  ReduceOp sum = match.sum;
  ReduceOp squaresOfRow = match.squares;
  OpBuilder builder(sum);
  Location loc = sum.getLoc();
  Type f32 = builder.getF32Type();
  SmallVector<OpOperand *> sumUses = getUses(sum);
  Value x = sum.getSrc();
  ArrayAttr rowShape = builder.getArrayAttr({builder.getStringAttr(rowBlock)});
  auto constant = [&](float value) {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getF32FloatAttr(value));
  };
  auto rowSplat = [&](Value scalar) {
    return SplatOp::create(builder, loc, x.getType(), scalar, rowShape);
  };
  Value zero = constant(0);

  // The part's lanes counted, its own mean and squares about it. A part
  // that counts nothing has a NaN mean, which its squares leave out (none
  // is counted) and so does the merge below.
  Value count;
  if (!match.mask)
    count = arith::SIToFPOp::create(
        builder, loc, f32,
        ConstexprOp::create(builder, loc, builder.getI32Type(), rowBlock));
  else if (Value bound = getColumnBound(match.mask, part))
    count = arith::SIToFPOp::create(
        builder, loc, f32,
        createColumnsBelow(builder, loc, bound, part, rowBlock));
  else
    count = ReduceOp::create(builder, loc, f32, ReduceKind::sum,
                             arith::SelectOp::create(builder, loc, match.mask,
                                                     rowSplat(constant(1)),
                                                     rowSplat(zero)),
                             0);
  builder.setInsertionPointAfter(sum);
  Value partMean = arith::DivFOp::create(builder, loc, sum, count);
  Value centered = arith::SubFOp::create(builder, loc, x, rowSplat(partMean));
  if (match.mask)
    centered = arith::SelectOp::create(builder, loc, match.mask, centered,
                                       rowSplat(zero));
  Value partSquares = ReduceOp::create(
      builder, loc, f32, ReduceKind::sum,
      arith::MulFOp::create(builder, loc, centered, centered), 0);

  SmallVector<Value> met =
      meetWithPartials(builder, loc, {sum.getResult(), count, partSquares},
                       part, splitsName, meeting);
  Value sums = met[0], counts = met[1], squares = met[2];
  ArrayAttr partsShape =
      builder.getArrayAttr({builder.getStringAttr(splitsName)});
  auto repeat = [&](Value scalar) {
    return SplatOp::create(builder, loc, sums.getType(), scalar, partsShape);
  };
  Value rowSum = ReduceOp::create(builder, loc, f32, ReduceKind::sum, sums, 0);
  Value rowMean = arith::DivFOp::create(builder, loc, rowSum, match.divisor);
  Value partsCounted = arith::CmpFOp::create(
      builder, loc, arith::CmpFPredicate::OGT, counts, repeat(zero));
  Value offsets = arith::SubFOp::create(
      builder, loc, arith::DivFOp::create(builder, loc, sums, counts),
      repeat(rowMean));
  Value shifts = arith::MulFOp::create(
      builder, loc, counts,
      arith::MulFOp::create(builder, loc, offsets, offsets));
  Value terms = arith::SelectOp::create(
      builder, loc, partsCounted,
      arith::AddFOp::create(builder, loc, squares, shifts), repeat(zero));
  Value rowSquares =
      ReduceOp::create(builder, loc, f32, ReduceKind::sum, terms, 0);

  for (OpOperand *use : sumUses)
    use->set(rowSum);
  squaresOfRow.getResult().replaceAllUsesWith(rowSquares);
  Operation *squaresSource = squaresOfRow.getSrc().getDefiningOp();
  squaresOfRow.erase();
  eraseIfDead(squaresSource);
}

/// Splits `kernel` (one that whyRowsCannotSplit accepts): a persistent
/// loop over the parts of the rows around its body, the row and the part's
/// columns from the loop's index, a meeting at each reduction of the row.
void splitRows(func::FuncOp kernel, SplitNames &names) {
  StringRef splitsName = names.splits;
  MLIRContext *context = kernel.getContext();
  KernelAttr attr = getKernelAttr(kernel);
  StringRef rowBlock = attr.getRowBlock();
  SmallVector<ReduceOp> reductions = getRowReductions(kernel);

  Meeting meeting;
  for (ReduceOp reduce : reductions) {
    Type element = reduce.getType();
    if (meeting.partials.count(element))
      continue;
    meeting.partials[element] = addScratchArgument(
        kernel, element, names.getPartials(element), ArgExtent::matrix);
  }
  meeting.arrivals =
      addScratchArgument(kernel, IntegerType::get(context, 64),
                         names.arrivals, ArgExtent::per_row);

  Block &body = kernel.front();
  Operation *terminator = body.getTerminator();
  Operation *firstOp = &body.front();
  OpBuilder builder(context);
  builder.setInsertionPoint(firstOp);
  Location loc = kernel.getLoc();
  Type i32 = builder.getI32Type();
  Part part;
  part.cols = findArgument(kernel, ArgRole::cols);
  Value first = ProgramIdOp::create(builder, loc, i32, ProgramAxis::x);
  Value step = NumProgramsOp::create(builder, loc, i32, ProgramAxis::x);
  part.splits = ConstexprOp::create(builder, loc, i32, splitsName);
  Value block = ConstexprOp::create(builder, loc, i32, rowBlock);
  Value items = arith::MulIOp::create(
      builder, loc, findArgument(kernel, ArgRole::rows), part.splits);
  auto loop = scf::ForOp::create(builder, loc, first, items, step);
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(firstOp->getIterator(), terminator->getIterator())))
    op.moveBefore(yield);

  builder.setInsertionPointToStart(loop.getBody());
  Value item = loop.getInductionVar();
  part.row = arith::DivUIOp::create(builder, loc, item, part.splits);
  part.index = arith::RemUIOp::create(builder, loc, item, part.splits);
  part.firstColumn = arith::MulIOp::create(builder, loc, part.index, block);

  // The program's row is the part's; its columns are the part's.
  loop.getBody()->walk([&](ProgramIdOp id) {
    id.getResult().replaceAllUsesWith(part.row);
    id.erase();
  });
  ArrayAttr rowShape = builder.getArrayAttr({builder.getStringAttr(rowBlock)});
  loop.getBody()->walk([&](ArangeOp arange) {
    if (!isa<StringAttr>(arange.getEnd()))
      return;
    builder.setInsertionPointAfter(arange);
    Value firsts = SplatOp::create(builder, arange.getLoc(), arange.getType(),
                                   part.firstColumn, rowShape);
    Value columns =
        arith::AddIOp::create(builder, arange.getLoc(), arange, firsts);
    arange.getResult().replaceAllUsesExcept(columns, columns.getDefiningOp());
  });
  // A max and its (first) sum of exps meet once, and a sum and its squares
  // about the mean; every other reduction alone.
  llvm::DenseMap<Operation *, ReduceOp> sumOfMax;
  llvm::MapVector<Operation *, SumCenteredSquares> meanSquares =
      getSumCenteredSquaresBySum(reductions);
  llvm::SmallPtrSet<Operation *, 4> paired;
  for (auto &[sum, match] : meanSquares)
    paired.insert(match.squares);
  for (ReduceOp reduce : reductions)
    if (ReduceOp max = getMatchingMax(reduce);
        max && isRowReduction(max) && sumOfMax.try_emplace(max, reduce).second)
      paired.insert(reduce);
  for (ReduceOp reduce : reductions) {
    if (paired.contains(reduce))
      continue;
    if (ReduceOp sum = sumOfMax.lookup(reduce))
      meetForMaxAndSum(reduce, sum, part, splitsName, rowBlock, meeting);
    else if (auto match = meanSquares.find(reduce); match != meanSquares.end())
      meetForSumCenteredSquares(match->second, part, splitsName, rowBlock,
                                meeting);
    else
      meetForReduction(reduce, part, splitsName, meeting);
  }

  // The next part's loads are issued before this one's meetings, so that
  // they are in flight while it waits (softmax_split_resident: 70.4% of a
  // copy with two stages, 59.2% with one, f32 64 x 1048576 on an H100).
  kernel->setAttr(BlkDialect::getKernelAttrName(),
                  KernelAttr::get(context, attr.getNumWarps(),
                                  GridKind::persistent, attr.getNumCtas(),
                                  std::max<int64_t>(2, attr.getNumStages()),
                                  attr.getMinCtasPerSm(), rowBlock,
                                  attr.getRowsPerProgram(), splitsName,
                                  attr.getInnerBlock()));
}

struct BlkSplitRowsPass
    : public mlir::blk::impl::BlkSplitRowsBase<BlkSplitRowsPass> {
  void runOnOperation() override {
    // Every kernel is checked, and the names chosen, before any changes.
    SmallVector<func::FuncOp> kernels;
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (!isKernel(kernel))
        continue;
      std::string why = whyRowsCannotSplit(kernel);
      if (!why.empty()) {
        kernel.emitError() << "cannot split the rows of @"
                           << kernel.getSymName() << ": " << why;
        return signalPassFailure();
      }
      kernels.push_back(kernel);
    }
    SplitNames names(getOperation());
    for (func::FuncOp kernel : kernels)
      splitRows(kernel, names);
  }
};

} // namespace

bool mlir::blk::isRowBlock(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 1 && tensor.isDynamicDim(0);
}

bool mlir::blk::isRowReduction(ReduceOp reduce) {
  return isRowBlock(reduce.getSrc().getType());
}

SmallVector<ReduceOp> mlir::blk::getRowReductions(func::FuncOp kernel) {
  SmallVector<ReduceOp> reductions;
  kernel.walk([&](ReduceOp reduce) {
    if (isRowReduction(reduce))
      reductions.push_back(reduce);
  });
  return reductions;
}

std::string mlir::blk::whyRowsCannotSplit(func::FuncOp kernel) {
  return whyRowIsNotHeldAlone(kernel, HeldRowRewrite::split);
}

std::string mlir::blk::whyRowIsNotHeldAlone(func::FuncOp kernel,
                                            HeldRowRewrite rewrite) {
  KernelAttr attr = getKernelAttr(kernel);
  if (!attr)
    return "it is not a kernel (no blk.kernel)";
  if (attr.getRowBlock().empty())
    return "it declares no row_block";
  if (!attr.getRowSplits().empty() || !attr.getRowsPerProgram().empty())
    return "it declares row_splits or rows_per_program";
  if (attr.getGrid() != GridKind::rows)
    return "its grid is persistent";
  if (attr.getNumCtas() > 1)
    return "it runs on a cluster of " + std::to_string(attr.getNumCtas()) +
           " CTAs";
  if (!kernel.getBody().hasOneBlock())
    return "its body is not one block";
  BlockArgument rows = findArgument(kernel, ArgRole::rows);
  BlockArgument cols = findArgument(kernel, ArgRole::cols);
  if (!rows || !cols)
    return "it takes no rows or no cols argument";
  if (rewrite == HeldRowRewrite::stream && !cols.getType().isInteger(32))
    return "its cols argument is not i32 (a tile's columns are i32)";
  if (rewrite == HeldRowRewrite::split &&
      (!rows.getType().isInteger(32) || !cols.getType().isInteger(32)))
    return "its rows and cols arguments are not both i32 (the parts are "
           "counted in i32)";
  if (findArgument(kernel, ArgRole::batch) ||
      findArgument(kernel, ArgRole::heads))
    return "it solves a batch of problems";
  std::string why;
  kernel.walk([&](Operation *op) {
    why = whyOpKeepsRowHeld(op, attr.getRowBlock(), rewrite);
    return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (!why.empty())
    return why;
  if (getRowReductions(kernel).empty())
    return "no blk.reduce combines its row";
  return "";
}

int64_t mlir::blk::countRowSlots(func::FuncOp kernel) {
  SmallVector<ReduceOp> reductions = getRowReductions(kernel);
  // A sum and its squares about the mean keep three partials.
  return reductions.size() + getSumCenteredSquaresBySum(reductions).size();
}
