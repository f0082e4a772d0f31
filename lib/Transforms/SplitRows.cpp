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
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSPLITROWS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// A one-dimensional block whose length is still a name: in a kernel that
/// whyRowsCannotSplit accepts, the row's `row_block`.
bool isRowBlock(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 1 && tensor.isDynamicDim(0);
}

/// A reduction of a row's block to a scalar: the ones the parts must meet
/// for. Reductions of blocks of known length (a label read as a block of
/// one) are the same in every part.
bool isRowReduction(ReduceOp reduce) {
  return isRowBlock(reduce.getSrc().getType());
}

/// Why `op` keeps its kernel's row from being split, or empty.
std::string whyOpCannotSplit(Operation *op, StringRef rowBlock) {
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

/// A compile-time constant name that `kernel` does not use: `base`, or
/// `base` with a number after it.
std::string getFreshConstantName(func::FuncOp kernel, StringRef base) {
  std::vector<std::string> used = getConstantNames(kernel);
  std::string name = base.str();
  for (int suffix = 1; llvm::is_contained(used, name); ++suffix)
    name = base.str() + "_" + std::to_string(suffix);
  return name;
}

/// A tensor name that no argument of `kernel` declares: `base`, or `base`
/// with a number after it.
std::string getFreshTensorName(func::FuncOp kernel, StringRef base) {
  auto taken = [&](StringRef name) {
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
      if (ArgAttr arg = getArgAttr(kernel, i); arg && arg.getName() == name)
        return true;
    return false;
  };
  std::string name = base.str();
  for (int suffix = 1; taken(name); ++suffix)
    name = base.str() + "_" + std::to_string(suffix);
  return name;
}

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

/// `reduce` of the part becomes the reduction of the row: its partial in
/// the row's line of scratch, the meeting, and the reduction of the row's
/// partials, which replaces it everywhere.
void meetForReduction(ReduceOp reduce, const Part &part, StringRef splitsName,
                      Meeting &meeting) {
  OpBuilder builder(reduce->getContext());
  builder.setInsertionPointAfter(reduce);
  Location loc = reduce.getLoc();
  Type element = reduce.getType();
  Type i32 = builder.getI32Type();
  int64_t slot = meeting.met[element]++;
  Value lineStart = arith::MulIOp::create(builder, loc, part.row, part.cols);
  Value slotStart = arith::MulIOp::create(
      builder, loc, part.splits,
      arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(slot)));
  Value start = arith::AddIOp::create(builder, loc, lineStart, slotStart);
  Value partials = meeting.partials.lookup(element);
  Value line =
      AddPtrOp::create(builder, loc, partials.getType(), partials, start);
  auto one = [&](Type type) { return RankedTensorType::get({1}, type); };
  Value at = SplatOp::create(builder, loc, one(i32), part.index, ArrayAttr());
  Value partial =
      SplatOp::create(builder, loc, one(element), reduce, ArrayAttr());
  StoreOp::create(builder, loc, line, at, partial, Value());
  Value counter = AddPtrOp::create(builder, loc, meeting.arrivals.getType(),
                                   meeting.arrivals, part.row);
  ProgramBarrierOp::create(builder, loc, counter, part.splits);
  auto dynamic = [&](Type type) {
    return RankedTensorType::get({ShapedType::kDynamic}, type);
  };
  Value parts = ArangeOp::create(builder, loc, dynamic(i32), 0,
                                 builder.getStringAttr(splitsName));
  Value rowPartials = LoadOp::create(builder, loc, dynamic(element), line,
                                     parts, Value(), Value());
  Value total = ReduceOp::create(builder, loc, element, reduce.getKind(),
                                 rowPartials, 0);
  reduce.getResult().replaceAllUsesExcept(total, partial.getDefiningOp());
}

/// Splits `kernel` (one that whyRowsCannotSplit accepts): a persistent
/// loop over the parts of the rows around its body, the row and the part's
/// columns from the loop's index, a meeting at each reduction of the row.
void splitRows(func::FuncOp kernel, StringRef splitsName) {
  MLIRContext *context = kernel.getContext();
  KernelAttr attr = getKernelAttr(kernel);
  StringRef rowBlock = attr.getRowBlock();
  SmallVector<ReduceOp> reductions;
  kernel.walk([&](ReduceOp reduce) {
    if (isRowReduction(reduce))
      reductions.push_back(reduce);
  });

  Meeting meeting;
  for (ReduceOp reduce : reductions) {
    Type element = reduce.getType();
    if (meeting.partials.count(element))
      continue;
    std::string typeName;
    llvm::raw_string_ostream os(typeName);
    element.print(os);
    meeting.partials[element] = addScratchArgument(
        kernel, element, getFreshTensorName(kernel, "row_partials_" + typeName),
        ArgExtent::matrix);
  }
  meeting.arrivals = addScratchArgument(
      kernel, IntegerType::get(context, 64),
      getFreshTensorName(kernel, "row_arrivals"), ArgExtent::per_row);

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
  for (ReduceOp reduce : reductions)
    meetForReduction(reduce, part, splitsName, meeting);

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
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (!isKernel(kernel))
        continue;
      std::string why = whyRowsCannotSplit(kernel);
      if (!why.empty()) {
        kernel.emitError() << "cannot split the rows of @"
                           << kernel.getSymName() << ": " << why;
        return signalPassFailure();
      }
      splitRows(kernel, getFreshConstantName(kernel, "SPLITS"));
    }
  }
};

} // namespace

std::string mlir::blk::whyRowsCannotSplit(func::FuncOp kernel) {
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
  if (!findArgument(kernel, ArgRole::rows) ||
      !findArgument(kernel, ArgRole::cols))
    return "it takes no rows or no cols argument";
  if (findArgument(kernel, ArgRole::batch) ||
      findArgument(kernel, ArgRole::heads))
    return "it solves a batch of problems";
  std::string why;
  int64_t rowReductions = 0;
  kernel.walk([&](Operation *op) {
    why = whyOpCannotSplit(op, attr.getRowBlock());
    if (auto reduce = dyn_cast<ReduceOp>(op); reduce && isRowReduction(reduce))
      ++rowReductions;
    return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (!why.empty())
    return why;
  if (rowReductions == 0)
    return "no blk.reduce combines its row";
  return "";
}
