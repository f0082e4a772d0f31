//===- PeelAlignment.cpp - shift a row's block onto the 16-byte grid ------===//
//
// A row whose start is not provably aligned (N = 50257 bf16) could only be
// accessed element by element, or realigned run by run with shuffles
// (blk.realign). Shifting the whole block by the row's misalignment once
// makes every run of every thread an aligned vector; the row's first and
// last runs are partly outside it and go element by element. The pass
// description (Passes.td) states the rewrite and when it applies.
//
//===----------------------------------------------------------------------===//
#include "blk/Analysis/AccessAnalysis.h"
#include "blk/Target/RowPolicy.h"
#include "blk/Target/TargetInfo.h"
#include "blk/Transforms/PeelAlignment.h"
#include "blk/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <array>

namespace mlir::blk {
#define GEN_PASS_DEF_BLKPEELALIGNMENT
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// A row's block and what uses it: the accesses it indexes, the
/// comparisons with the row length that mask them, and other comparisons of
/// its columns (a causal mask's `cols > last`).
struct RowBlock {
  ArangeOp arange;
  /// The scalar the row-length comparisons check the columns against.
  Value bound;
  /// For a part of a split row (softmax_split.mlir), its first column:
  /// the comparisons check `arange + first`, and each access's row start
  /// is `start + first`. Null for a row in one program.
  Value first;
  SmallVector<arith::CmpIOp> compares;
  /// `cmpi` of the arange with a splatted scalar other than the bound:
  /// positional, so they move with the block onto the shifted columns.
  SmallVector<arith::CmpIOp> columnPredicates;
  SmallVector<MemoryAccessOpInterface> accesses;
  /// The first access that addresses a misaligned row: its row start
  /// gives the shift.
  MemoryAccessOpInterface shiftSource;
  /// Elements in 16 bytes.
  int64_t vectorElements = 0;
};

/// The scalar a `blk.splat` fills its block with.
Value getSplatScalar(Value block) {
  auto splat = block.getDefiningOp<SplatOp>();
  return splat ? splat.getSrc() : Value();
}

/// Whether `access` reads or writes a row through `blk.addptr` from a
/// 16-byte-aligned pointer, at a start not provably aligned.
bool addressesMisalignedRow(MemoryAccessOpInterface access,
                            AccessAnalysis &analysis) {
  auto addptr = access.getBase().getDefiningOp<AddPtrOp>();
  if (!addptr ||
      analysis.getPointerDivisibility(addptr.getPtr()) < kVectorBytes)
    return false;
  int64_t elementBytes = addptr.getType().getElementBytes();
  return analysis.getFacts(addptr.getOffset()).divisibility * elementBytes <
         kVectorBytes;
}

/// Whether `access` reads or writes the same columns of every row (no row
/// start: a norm's weight and bias) from a 16-byte-aligned pointer. A row
/// whose start is provably aligned is not one: shifted by another row's
/// misalignment it would give up the vectors it has (an input on an aligned
/// stride, its output on another), so such a program is left unpeeled.
bool addressesAlignedColumns(MemoryAccessOpInterface access,
                             AccessAnalysis &analysis) {
  return !access.getBase().getDefiningOp<AddPtrOp>() &&
         analysis.getPointerDivisibility(access.getBase()) >= kVectorBytes;
}

/// Whether `compare` is `columns < splat(n)`, with the row's one bound n.
bool matchBoundCompare(arith::CmpIOp compare, Value columns, RowBlock &row) {
  Value bound = getSplatScalar(compare.getRhs());
  if (compare.getPredicate() != arith::CmpIPredicate::slt ||
      compare.getLhs() != columns || !bound ||
      (row.bound && row.bound != bound))
    return false;
  row.bound = bound;
  row.compares.push_back(compare);
  return true;
}

/// Whether `compare` is `columns PRED splat(s)` or `splat(s) PRED columns`
/// for any predicate and scalar.
bool comparesColumnsWithSplat(arith::CmpIOp compare, Value columns) {
  return (compare.getLhs() == columns && getSplatScalar(compare.getRhs())) ||
         (compare.getRhs() == columns && getSplatScalar(compare.getLhs()));
}

/// Whether `mask` is `compare`, or a conjunction (`arith.andi`, nested) one
/// of whose terms is: a lane it enables is one `compare` enables.
bool maskImplies(Value mask, arith::CmpIOp compare) {
  if (mask.getDefiningOp() == compare)
    return true;
  auto conjunction = mask.getDefiningOp<arith::AndIOp>();
  return conjunction && (maskImplies(conjunction.getLhs(), compare) ||
                         maskImplies(conjunction.getRhs(), compare));
}

/// Whether every lane `mask` enables is inside the row: it implies one of
/// the row-length comparisons.
bool maskKeepsToRow(Value mask, const RowBlock &row) {
  return llvm::any_of(row.compares, [&](arith::CmpIOp compare) {
    return maskImplies(mask, compare);
  });
}

/// Whether every use of `value` (a column predicate, or a conjunction or
/// negation of one) ends in a value that implies the row bound. Such a
/// value is false on every padding slot, where the shifted block has them
/// (before the row and past it) as where the unshifted one had them (past
/// it); a predicate alone is not: `cols' > last` on the slots before the
/// row differs from `cols > last` past it, and a select or a sum of it
/// would see the difference.
bool staysWithinRow(Value value, const RowBlock &row) {
  if (maskKeepsToRow(value, row))
    return true;
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    return isa<arith::AndIOp, arith::XOrIOp>(user) &&
           staysWithinRow(user->getResult(0), row);
  });
}

/// The scalar `first` of `arange + splat(first)` (either order).
Value getAddedScalar(arith::AddIOp add, Value arange) {
  if (add.getLhs() == arange)
    return getSplatScalar(add.getRhs());
  if (add.getRhs() == arange)
    return getSplatScalar(add.getLhs());
  return Value();
}

/// Whether `add` is the row's `arange + splat(first)`, used only by
/// comparisons with the row's bound.
bool matchFirstColumns(arith::AddIOp add, RowBlock &row) {
  Value first = getAddedScalar(add, row.arange.getResult());
  if (!first || (row.first && row.first != first))
    return false;
  row.first = first;
  for (Operation *user : add->getUsers()) {
    auto compare = dyn_cast<arith::CmpIOp>(user);
    if (!compare || !matchBoundCompare(compare, add.getResult(), row))
      return false;
  }
  return true;
}

/// Whether `value` is provably a multiple of `factor`: by its divisibility
/// (a power of two), or as a product with a constant multiple of it (the
/// first column `part * BLOCK` of a part of 10240 columns).
bool isMultipleOf(Value value, int64_t factor, AccessAnalysis &analysis) {
  if (analysis.getFacts(value).divisibility % factor == 0)
    return true;
  auto product = value.getDefiningOp<arith::MulIOp>();
  if (!product)
    return false;
  return llvm::any_of(product->getOperands(), [&](Value operand) {
    APInt constant;
    return matchPattern(operand, m_ConstantInt(&constant)) &&
           constant.getSExtValue() % factor == 0;
  });
}

/// Whether a part's accesses and its columns move together: the part's
/// first column is a multiple of the block (so parts tile the row and
/// share the row start's misalignment), every comparison adds it, and
/// every access starts at `row start + first`.
bool partsTileRow(RowBlock &row, AccessAnalysis &analysis) {
  int64_t size = row.arange.getType().getDimSize(0);
  if (!isMultipleOf(row.first, size, analysis) ||
      !isMultipleOf(row.first, row.vectorElements, analysis))
    return false;
  for (arith::CmpIOp compare : row.compares)
    if (compare.getLhs() == row.arange.getResult())
      return false;
  return llvm::all_of(row.accesses, [&](MemoryAccessOpInterface access) {
    auto add = access.getBase()
                   .getDefiningOp<AddPtrOp>()
                   .getOffset()
                   .getDefiningOp<arith::AddIOp>();
    return add && (add.getLhs() == row.first || add.getRhs() == row.first);
  });
}

/// Splits the comparisons of the arange with splats into the row-length
/// bound (`cols < splat(n)`: a split row's scalar if it has one, else the
/// one scalar whose comparison every access's mask implies) and column
/// predicates; false when no scalar, or more than one, can be the bound.
bool chooseBound(ArrayRef<arith::CmpIOp> columnCompares, RowBlock &row) {
  Value columns = row.arange.getResult();
  auto isBoundCandidate = [&](arith::CmpIOp compare, Value scalar) {
    return compare.getPredicate() == arith::CmpIPredicate::slt &&
           compare.getLhs() == columns &&
           getSplatScalar(compare.getRhs()) == scalar;
  };
  auto everyMaskImplies = [&](Value scalar) {
    return llvm::all_of(row.accesses, [&](MemoryAccessOpInterface access) {
      Value mask = access.getMask();
      return mask && llvm::any_of(columnCompares, [&](arith::CmpIOp compare) {
               return isBoundCandidate(compare, scalar) &&
                      maskImplies(mask, compare);
             });
    });
  };
  if (!row.bound) {
    for (arith::CmpIOp compare : columnCompares) {
      Value scalar = getSplatScalar(compare.getRhs());
      if (!isBoundCandidate(compare, scalar) || scalar == row.bound ||
          !everyMaskImplies(scalar))
        continue;
      if (row.bound)
        return false;
      row.bound = scalar;
    }
    if (!row.bound)
      return false;
  }
  for (arith::CmpIOp compare : columnCompares) {
    if (isBoundCandidate(compare, row.bound))
      row.compares.push_back(compare);
    else
      row.columnPredicates.push_back(compare);
  }
  return true;
}

/// The row block of `arange`, if the pass applies to it.
std::optional<RowBlock> matchRowBlock(ArangeOp arange,
                                      AccessAnalysis &analysis) {
  auto type = arange.getType();
  if (arange.getStart() != 0 || type.getRank() != 1 || !type.hasStaticShape())
    return std::nullopt;
  RowBlock row{arange, Value(), Value(), {}, {}, {}, 0};
  SmallVector<arith::CmpIOp> columnCompares;
  Block *block = arange->getBlock();
  for (OpOperand &use : arange->getUses()) {
    Operation *user = use.getOwner();
    if (user->getBlock() != block)
      return std::nullopt;
    if (auto access = dyn_cast<MemoryAccessOpInterface>(user)) {
      if (access.getOffsets() != use.get() ||
          llvm::count(user->getOperands(), use.get()) != 1)
        return std::nullopt;
      row.accesses.push_back(access);
      continue;
    }
    if (auto add = dyn_cast<arith::AddIOp>(user)) {
      if (!matchFirstColumns(add, row))
        return std::nullopt;
      continue;
    }
    auto compare = dyn_cast<arith::CmpIOp>(user);
    if (!compare || !comparesColumnsWithSplat(compare, use.get()))
      return std::nullopt;
    columnCompares.push_back(compare);
  }
  if (row.accesses.empty() || !chooseBound(columnCompares, row) ||
      !llvm::all_of(row.columnPredicates, [&](arith::CmpIOp predicate) {
        return staysWithinRow(predicate.getResult(), row);
      }))
    return std::nullopt;
  llvm::sort(row.accesses,
             [](MemoryAccessOpInterface a, MemoryAccessOpInterface b) {
               return a->isBeforeInBlock(b);
             });
  bool anyAlignedColumns = false;
  for (MemoryAccessOpInterface access : row.accesses) {
    // Padding must stay padding: every access is masked by the row length.
    Value mask = access.getMask();
    if (!mask || !maskKeepsToRow(mask, row))
      return std::nullopt;
    if (addressesMisalignedRow(access, analysis)) {
      if (!row.shiftSource)
        row.shiftSource = access;
    } else if (addressesAlignedColumns(access, analysis)) {
      anyAlignedColumns = true;
    } else {
      return std::nullopt;
    }
    int64_t elements =
        kVectorBytes / access.getBase().getType().getElementBytes();
    if (row.vectorElements && row.vectorElements != elements)
      return std::nullopt;
    row.vectorElements = elements;
  }
  // The parts of a split row share its misalignment, not a weight's.
  if (!row.shiftSource || row.vectorElements < 2 ||
      type.getDimSize(0) < row.vectorElements ||
      (row.first && (anyAlignedColumns || !partsTileRow(row, analysis))))
    return std::nullopt;
  return row;
}

/// Whether every block of the row's shape whose elements depend on their
/// position comes from the row's arange or its accesses: those are all
/// shifted together. Another arange of that shape, an access through other
/// offsets, or a constant that is not a splat would keep its positions,
/// and a mask of the row guarding such an access would move off its
/// elements.
bool onlyRowIsPositional(RowBlock &row, func::FuncOp func) {
  ArrayRef<int64_t> shape = row.arange.getType().getShape();
  auto hasRowShape = [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getShape() == shape;
  };
  auto isRowAccess = [&](Operation *op) {
    return llvm::is_contained(row.accesses, op);
  };
  for (arith::CmpIOp compare : row.compares)
    for (Operation *user : compare->getUsers())
      if (isa<MemoryAccessOpInterface>(user) && !isRowAccess(user))
        return false;
  WalkResult result = func.walk([&](Operation *op) {
    // An arange of another shape (the parts of softmax_split's normalize
    // kernel) cannot meet the row's blocks elementwise.
    if (auto arange = dyn_cast<ArangeOp>(op))
      return arange == row.arange || !hasRowShape(arange.getType())
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    if (auto access = dyn_cast<MemoryAccessOpInterface>(op))
      return !hasRowShape(access.getOffsets().getType()) || isRowAccess(op)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (dense && !dense.isSplat())
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The arange's first user in its block, where the shifted columns go.
Operation *getFirstUser(ArangeOp arange) {
  Operation *first = nullptr;
  for (Operation *user : arange->getUsers())
    if (!first || user->isBeforeInBlock(first))
      first = user;
  return first;
}

Value createIntConstant(OpBuilder &builder, Location loc, Type type,
                        int64_t value) {
  return arith::ConstantOp::create(builder, loc, type,
                                   builder.getIntegerAttr(type, value));
}

/// The row start of an access that addresses a misaligned row (i32 or
/// i64).
Value getRowStart(MemoryAccessOpInterface access) {
  return access.getBase().getDefiningOp<AddPtrOp>().getOffset();
}

/// How far past the 16-byte grid the row start of `access` (one that
/// addresses a misaligned row) is, in elements, as an i32.
Value createMisalignment(OpBuilder &builder, Location loc,
                         MemoryAccessOpInterface access,
                         int64_t vectorElements) {
  Value start = getRowStart(access);
  Value misalignment = arith::AndIOp::create(
      builder, loc, start,
      createIntConstant(builder, loc, start.getType(), vectorElements - 1));
  if (!misalignment.getType().isInteger(32))
    misalignment = arith::TruncIOp::create(builder, loc, builder.getI32Type(),
                                           misalignment);
  return misalignment;
}

class RowPeeler {
public:
  explicit RowPeeler(RowBlock &row) : row(row) {}

  void peel() {
    createShiftedColumns();
    for (arith::CmpIOp compare : row.compares)
      boundBelow(compare);
    for (arith::CmpIOp predicate : row.columnPredicates)
      predicate->replaceUsesOfWith(row.arange.getResult(), shiftedColumns);
    for (MemoryAccessOpInterface access : row.accesses)
      versionAccess(access);
  }

private:
  /// shift (the first misaligned row's misalignment, or 0 where the shifted row
  /// would not fit its blocks) and cols' = arange - shift, before the
  /// first use of the arange.
  void createShiftedColumns() {
    OpBuilder builder(getFirstUser(row.arange));
    Location loc = row.arange.getLoc();
    Type i32 = builder.getI32Type();
    Value misalignment = createMisalignment(builder, loc, row.shiftSource,
                                            row.vectorElements);
    Value room = arith::SubIOp::create(
        builder, loc, createRowCapacity(builder, loc), misalignment);
    Value fits = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sle,
                                       row.bound, room);
    shift = arith::SelectOp::create(builder, loc, fits, misalignment,
                                    createIntConstant(builder, loc, i32, 0));
    Value negated = arith::SubIOp::create(
        builder, loc, createIntConstant(builder, loc, i32, 0), shift);
    RankedTensorType type = row.arange.getType();
    Value splat = SplatOp::create(builder, loc, type, negated, ArrayAttr());
    shiftedColumns =
        arith::AddIOp::create(builder, loc, row.arange.getResult(), splat);
  }

  /// The columns the row's blocks hold: BLOCK for a row in one program;
  /// for a split row, its length rounded up to whole parts
  /// (ceil(n / BLOCK) * BLOCK), assuming, as the unshifted program does,
  /// that its parts cover the row.
  Value createRowCapacity(OpBuilder &builder, Location loc) {
    Type i32 = builder.getI32Type();
    int64_t size = row.arange.getType().getDimSize(0);
    Value block = createIntConstant(builder, loc, i32, size);
    if (!row.first)
      return block;
    Value padded =
        arith::AddIOp::create(builder, loc, row.bound,
                              createIntConstant(builder, loc, i32, size - 1));
    Value parts = arith::DivUIOp::create(builder, loc, padded, block);
    return arith::MulIOp::create(builder, loc, parts, block);
  }

  /// cols < n becomes 0 <= cols' < n (and cols + first < n of a split row
  /// 0 <= cols' + first < n).
  void boundBelow(arith::CmpIOp compare) {
    OpBuilder builder(compare);
    Location loc = compare.getLoc();
    RankedTensorType type = row.arange.getType();
    Value columns = shiftedColumns;
    if (row.first)
      columns = arith::AddIOp::create(
          builder, loc, columns,
          SplatOp::create(builder, loc, type, row.first, ArrayAttr()));
    Value zeros = SplatOp::create(
        builder, loc, type,
        createIntConstant(builder, loc, builder.getI32Type(), 0), ArrayAttr());
    Value above = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                        columns, zeros);
    Value below = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                        columns, compare.getRhs());
    Value inRow = arith::AndIOp::create(builder, loc, above, below);
    Operation *firstColumns = compare.getLhs().getDefiningOp();
    compare.replaceAllUsesWith(inRow);
    compare.erase();
    if (firstColumns && firstColumns->use_empty())
      firstColumns->erase();
  }

  /// if (misalignment == shift) access aligned_base[arange]
  /// else access base[cols'] {blk.fallback}
  /// where an access of aligned columns (a weight) has misalignment 0 and
  /// aligned_base = base (it has no row start): the shift costs it its
  /// vectors on every row the shift moves. Its bytes are the same on every
  /// row, read from cache; the row's own come from memory once, and they
  /// get the vectors.
  void versionAccess(MemoryAccessOpInterface access) {
    OpBuilder builder(access);
    Location loc = access.getLoc();
    Value aligned, alignedBase;
    auto addptr = access.getBase().getDefiningOp<AddPtrOp>();
    if (!addptr) {
      aligned = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, shift,
          createIntConstant(builder, loc, builder.getI32Type(), 0));
      alignedBase = access.getBase();
    } else {
      Value start = addptr.getOffset();
      aligned = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq,
          createMisalignment(builder, loc, access, row.vectorElements), shift);
      Value alignedStart = arith::AndIOp::create(
          builder, loc, start,
          createIntConstant(builder, loc, start.getType(),
                            ~(row.vectorElements - 1)));
      alignedBase = AddPtrOp::create(builder, loc, addptr.getType(),
                                     addptr.getPtr(), alignedStart);
    }

    auto branch = scf::IfOp::create(builder, loc, access->getResultTypes(),
                                    aligned, /*withElseRegion=*/true);
    auto cloneInto = [&](Region &region, IRMapping &mapping) {
      auto bodyBuilder = OpBuilder::atBlockBegin(&region.front());
      Operation *clone = bodyBuilder.clone(*access, mapping);
      if (clone->getNumResults() == 0)
        return clone;
      // An scf.if with results has no terminator yet.
      scf::YieldOp::create(bodyBuilder, loc, clone->getResults());
      return clone;
    };
    IRMapping toAligned;
    toAligned.map(access.getBase(), alignedBase);
    cloneInto(branch.getThenRegion(), toAligned);
    IRMapping toShifted;
    toShifted.map(row.arange.getResult(), shiftedColumns);
    Operation *fallback = cloneInto(branch.getElseRegion(), toShifted);
    fallback->setAttr(BlkDialect::getFallbackAttrName(), builder.getUnitAttr());
    access->replaceAllUsesWith(branch.getResults());
    access->erase();
  }

  RowBlock &row;
  Value shift;
  Value shiftedColumns;
};

} // namespace

bool mlir::blk::isVersionedLoad(Value value) {
  auto ifOp = value.getDefiningOp<scf::IfOp>();
  if (!ifOp || ifOp.getNumResults() != 1 || !ifOp.elseBlock())
    return false;
  return llvm::all_of(
      std::array<Block *, 2>{ifOp.thenBlock(), ifOp.elseBlock()},
      [](Block *branch) {
        auto load = branch->getTerminator()
                        ->getOperand(0)
                        .getDefiningOp<LoadOp>();
        return load && load->getBlock() == branch;
      });
}

namespace {

struct BlkPeelAlignmentPass
    : public mlir::blk::impl::BlkPeelAlignmentBase<BlkPeelAlignmentPass> {
  using BlkPeelAlignmentBase::BlkPeelAlignmentBase;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!isKernel(func))
        continue;
      AccessAnalysis analysis;
      DominanceInfo dominance(func);
      SmallVector<ArangeOp> aranges;
      func.walk([&](ArangeOp arange) { aranges.push_back(arange); });
      // Every row is matched before any is rewritten: the analysis caches
      // facts of values that the rewrite erases.
      SmallVector<RowBlock> rows;
      for (ArangeOp arange : aranges) {
        std::optional<RowBlock> row = matchRowBlock(arange, analysis);
        if (row && holdsRunsToPeel(*row, func) &&
            onlyRowIsPositional(*row, func) &&
            startsDominateFirstUse(*row, dominance))
          rows.push_back(std::move(*row));
      }
      for (RowBlock &row : rows)
        RowPeeler(row).peel();
    }
  }

  /// Whether the row's block gives each thread of the program (the
  /// kernel's warps and CTAs) enough runs of 16 bytes that shifting it pays
  /// (RowPolicy::peelsRow, the rule the binding fits blocks by).
  bool holdsRunsToPeel(RowBlock &row, func::FuncOp func) {
    KernelAttr kernel = getKernelAttr(func);
    int64_t threads =
        kernel ? kWarpSize * kernel.getNumWarps() * kernel.getNumCtas()
               : kWarpSize;
    int64_t blockBytes = row.arange.getType().getDimSize(0) *
                         (kVectorBytes / row.vectorElements);
    return RowPolicy::peelsRow(blockBytes, threads);
  }

  /// The shift is computed before the arange's first use, from the first
  /// misaligned row's start and the bound: both must be available there. A
  /// start computed later (after the mask, as cross_entropy.mlir does) by
  /// pure scalar ops is moved up.
  static bool startsDominateFirstUse(const RowBlock &row,
                                     DominanceInfo &dominance) {
    Operation *firstUser = getFirstUser(row.arange);
    return makeAvailableBefore(getRowStart(row.shiftSource), firstUser,
                               dominance) &&
           makeAvailableBefore(row.bound, firstUser, dominance);
  }

  /// Moves the pure ops that compute `value` in `point`'s block, from
  /// after it, to just before it; false if some op cannot move.
  static bool makeAvailableBefore(Value value, Operation *point,
                                  DominanceInfo &dominance) {
    if (dominance.properlyDominates(value, point))
      return true;
    Operation *def = value.getDefiningOp();
    if (!canMoveBefore(def, point) || !canComputeBefore(def, point, dominance))
      return false;
    SmallVector<Operation *> toMove;
    collectAfter(def, point, dominance, toMove);
    for (Operation *op : toMove)
      op->moveBefore(point);
    return true;
  }

  /// A pure op without regions after `point` in its block (not `point`
  /// itself, which the shift is computed before).
  static bool canMoveBefore(Operation *def, Operation *point) {
    return def && def->getBlock() == point->getBlock() &&
           point->isBeforeInBlock(def) && isPure(def) &&
           def->getNumRegions() == 0;
  }

  static bool canComputeBefore(Operation *op, Operation *point,
                               DominanceInfo &dominance) {
    for (Value operand : op->getOperands()) {
      if (dominance.properlyDominates(operand, point))
        continue;
      Operation *def = operand.getDefiningOp();
      if (!canMoveBefore(def, point) ||
          !canComputeBefore(def, point, dominance))
        return false;
    }
    return true;
  }

  /// `op` and the ops it needs that are not available before `point`,
  /// operands first.
  static void collectAfter(Operation *op, Operation *point,
                           DominanceInfo &dominance,
                           SmallVectorImpl<Operation *> &ops) {
    if (llvm::is_contained(ops, op))
      return;
    for (Value operand : op->getOperands())
      if (!dominance.properlyDominates(operand, point))
        collectAfter(operand.getDefiningOp(), point, dominance, ops);
    ops.push_back(op);
  }
};

} // namespace
