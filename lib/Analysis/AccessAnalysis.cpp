//===- AccessAnalysis.cpp - contiguity and alignment of accesses ----------===//
#include "blk/Analysis/AccessAnalysis.h"

#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;
using namespace mlir::blk;

namespace {

int64_t lowestSetBit(int64_t value) {
  if (value == 0)
    return AccessAnalysis::kMaxDivisibility;
  // In unsigned arithmetic: negating INT64_MIN would overflow.
  uint64_t bits = static_cast<uint64_t>(value);
  return static_cast<int64_t>(
      std::min<uint64_t>(bits & (~bits + 1), AccessAnalysis::kMaxDivisibility));
}

/// Size of the last dimension of a block; 1 for a scalar.
int64_t lastDimSize(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || tensor.getRank() == 0 || tensor.isDynamicDim(tensor.getRank() - 1))
    return 1;
  return tensor.getShape().back();
}

/// Facts of a value that is the same everywhere (a scalar or a splat).
IntegerFacts uniform(Value value, int64_t divisibility) {
  return {divisibility, 1, lastDimSize(value)};
}

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// What divides every element (not only the first of each run): inside a
/// run of consecutive integers, only 1 does.
int64_t elementDivisibility(const IntegerFacts &facts) {
  return facts.contiguity > 1 ? 1 : facts.divisibility;
}

/// Runs of equal bits of `lhs pred rhs`. Comparing runs of consecutive
/// integers with a bound that is the same along them keeps each aligned
/// sub-run whose length divides both the run starts and the bound on one side
/// of it, for the orders whose boundary falls between two multiples (x < n,
/// x >= n, and n > x, n <= x).
int64_t compareConstancy(arith::CmpIPredicate predicate,
                         const IntegerFacts &lhs, const IntegerFacts &rhs) {
  using P = arith::CmpIPredicate;
  int64_t bothConstant = std::gcd(lhs.constancy, rhs.constancy);
  auto runsAgainstBound = [](const IntegerFacts &runs,
                             const IntegerFacts &bound) {
    int64_t length =
        std::min({runs.contiguity, bound.constancy,
                  lowestSetBit(std::gcd(runs.divisibility, bound.divisibility))});
    return int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, length));
  };
  switch (predicate) {
  case P::slt:
  case P::ult:
  case P::sge:
  case P::uge:
    return std::max(bothConstant, runsAgainstBound(lhs, rhs));
  case P::sgt:
  case P::ugt:
  case P::sle:
  case P::ule:
    return std::max(bothConstant, runsAgainstBound(rhs, lhs));
  default:
    return bothConstant;
  }
}

/// The facts of `a + b` (`a - b` where `subtract`), elementwise.
IntegerFacts getSumFacts(const IntegerFacts &a, const IntegerFacts &b,
                         bool subtract) {
  int64_t contiguity = std::gcd(a.contiguity, b.constancy);
  // Adding a run of consecutive integers to a constant keeps it a run;
  // subtracting one does not.
  if (!subtract)
    contiguity = std::max(contiguity, std::gcd(b.contiguity, a.constancy));
  // Shorter runs than an operand's start inside its runs, where only the
  // run length is known to divide them.
  int64_t divisibility = std::min(a.divisibility, b.divisibility);
  if (contiguity < std::max(a.contiguity, b.contiguity))
    divisibility = std::min(divisibility, contiguity);
  return IntegerFacts{divisibility, contiguity,
                      std::gcd(a.constancy, b.constancy)};
}

std::optional<int64_t> constantInteger(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
    return integer.getInt();
  if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
    if (isa<IntegerType>(splat.getElementType()))
      return splat.getSplatValue<APInt>().getSExtValue();
  return std::nullopt;
}

} // namespace

IntegerFacts AccessAnalysis::getFacts(Value value) {
  auto it = facts.find(value);
  if (it != facts.end())
    return it->second;
  // Cycles (loop-carried values) resolve to the conservative answer.
  facts[value] = IntegerFacts{};
  IntegerFacts result = compute(value);
  facts[value] = result;
  return result;
}

IntegerFacts AccessAnalysis::compute(Value value) {
  if (std::optional<int64_t> constant = constantInteger(value))
    return uniform(value, lowestSetBit(*constant));

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto function = dyn_cast<FunctionOpInterface>(owner)) {
      if (auto attr = function.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(), BlkDialect::getDivisibilityAttrName()))
        return uniform(value, attr.getInt());
      return {};
    }
    if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      if (value == loop.getInductionVar())
        return uniform(value,
                       std::min(getFacts(loop.getLowerBound()).divisibility,
                                getFacts(loop.getStep()).divisibility));
    }
    return {};
  }

  Operation *op = value.getDefiningOp();
  return TypeSwitch<Operation *, IntegerFacts>(op)
      .Case<ArangeOp>([&](ArangeOp arange) {
        int64_t size = arange.getType().getDimSize(0);
        return IntegerFacts{lowestSetBit(arange.getStart()), size, 1};
      })
      .Case<SplatOp>([&](SplatOp splat) {
        return uniform(value, getFacts(splat.getSrc()).divisibility);
      })
      .Case<arith::AddIOp, arith::SubIOp>([&](auto binary) {
        return getSumFacts(getFacts(binary.getLhs()),
                           getFacts(binary.getRhs()),
                           isa<arith::SubIOp>(binary));
      })
      .Case<arith::MulIOp>([&](arith::MulIOp mul) {
        IntegerFacts a = getFacts(mul.getLhs());
        IntegerFacts b = getFacts(mul.getRhs());
        if (constantInteger(mul.getRhs()) == 1)
          return a;
        if (constantInteger(mul.getLhs()) == 1)
          return b;
        // No runs survive a product: each element is divisible by what
        // divides the corresponding elements of both factors.
        return IntegerFacts{std::min(kMaxDivisibility, elementDivisibility(a) *
                                                           elementDivisibility(b)),
                            1, gcd(a.constancy, b.constancy)};
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp compare) {
        return IntegerFacts{1, 1,
                            compareConstancy(compare.getPredicate(),
                                             getFacts(compare.getLhs()),
                                             getFacts(compare.getRhs()))};
      })
      .Case<arith::AndIOp>([&](arith::AndIOp bits) {
        IntegerFacts a = getFacts(bits.getLhs());
        IntegerFacts b = getFacts(bits.getRhs());
        // Low bits clear in either operand stay clear: x & ~7 (the start of
        // a row rounded down to 8 elements) is divisible by 8.
        return IntegerFacts{
            std::max(elementDivisibility(a), elementDivisibility(b)), 1,
            gcd(a.constancy, b.constancy)};
      })
      .Case<arith::OrIOp, arith::XOrIOp>([&](Operation *bits) {
        return IntegerFacts{1, 1,
                            gcd(getFacts(bits->getOperand(0)).constancy,
                                getFacts(bits->getOperand(1)).constancy)};
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(
          [&](Operation *cast) { return getFacts(cast->getOperand(0)); })
      .Case<ExpandDimsOp>([&](ExpandDimsOp expand) {
        IntegerFacts src = getFacts(expand.getSrc());
        // A new last dimension has size 1: every element is a run of its
        // own, so the divisibility must hold for each element, which a run
        // of consecutive integers does not give.
        if (static_cast<int64_t>(expand.getAxis()) ==
            expand.getSrc().getType().getRank())
          return IntegerFacts{elementDivisibility(src), 1, 1};
        return src;
      })
      .Case<BroadcastOp>([&](BroadcastOp broadcast) {
        IntegerFacts src = getFacts(broadcast.getSrc());
        if (lastDimSize(broadcast.getSrc()) == 1 && lastDimSize(value) > 1)
          return IntegerFacts{src.divisibility, 1, lastDimSize(value)};
        return src;
      })
      .Default([](Operation *) { return IntegerFacts{}; });
}

int64_t AccessAnalysis::getPointerDivisibility(Value pointer) {
  auto it = pointerFacts.find(pointer);
  if (it != pointerFacts.end())
    return it->second;
  int64_t result = 1;
  if (auto arg = dyn_cast<BlockArgument>(pointer)) {
    auto function =
        dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (function)
      if (auto attr = function.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(), BlkDialect::getDivisibilityAttrName()))
        result = attr.getInt();
  } else if (auto addptr = pointer.getDefiningOp<AddPtrOp>()) {
    int64_t elementBytes = addptr.getType().getElementBytes();
    int64_t offsetBytes = std::min(
        kMaxDivisibility, getFacts(addptr.getOffset()).divisibility * elementBytes);
    result = std::min(getPointerDivisibility(addptr.getPtr()), offsetBytes);
  }
  pointerFacts[pointer] = result;
  return result;
}

int64_t AccessAnalysis::getVectorWidth(Value base, Value offsets,
                                       int64_t maxElements) {
  return getVectorWidth(base, getFacts(offsets), maxElements);
}

int64_t AccessAnalysis::getVectorWidth(Value base, IntegerFacts offsetFacts,
                                       int64_t maxElements) {
  int64_t elementBytes = cast<PtrType>(base.getType()).getElementBytes();
  int64_t baseElements =
      std::max<int64_t>(1, getPointerDivisibility(base) / elementBytes);
  int64_t width = std::min({maxElements, offsetFacts.contiguity,
                            offsetFacts.divisibility, baseElements});
  // Widths are powers of two; round down whatever the facts combined to.
  return int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, width));
}

bool AccessAnalysis::isRealignable(MemoryAccessOpInterface access) {
  Value offsets = access.getOffsets();
  int64_t row = lastDimSize(offsets);
  if (row < 2 || getFacts(offsets).contiguity < row)
    return false;
  Value mask = access.getMask();
  if (!mask)
    return true;
  auto compare = mask.getDefiningOp<arith::CmpIOp>();
  return compare && compare.getPredicate() == arith::CmpIPredicate::slt &&
         getFacts(compare.getLhs()).contiguity >= row &&
         getFacts(compare.getRhs()).constancy >= row;
}

bool AccessAnalysis::isUniformOverRuns(Value mask, int64_t width,
                                       bool downColumns) {
  IntegerFacts maskFacts = downColumns ? getColumnFacts(mask) : getFacts(mask);
  return maskFacts.constancy % width == 0;
}

int64_t AccessAnalysis::getColumnContiguity(Value block) {
  return getColumnFacts(block).contiguity;
}

int64_t AccessAnalysis::getColumnVectorWidth(Value base, Value offsets,
                                             int64_t maxElements) {
  return getVectorWidth(base, getColumnFacts(offsets), maxElements);
}

IntegerFacts AccessAnalysis::getColumnFacts(Value block) {
  auto type = dyn_cast<RankedTensorType>(block.getType());
  if (!type || type.getRank() != 2 || type.isDynamicDim(0))
    return {};
  int64_t rows = type.getDimSize(0);
  // The same all down each column: divisible as every element of the row.
  auto constantDown = [&](IntegerFacts alongRow) {
    return IntegerFacts{elementDivisibility(alongRow), 1, rows};
  };
  if (constantInteger(block))
    return constantDown(getFacts(block));
  Operation *op = block.getDefiningOp();
  if (!op)
    return {};
  return llvm::TypeSwitch<Operation *, IntegerFacts>(op)
      .Case([&](SplatOp) { return constantDown(getFacts(block)); })
      .Case([&](BroadcastOp broadcast) {
        auto source = cast<RankedTensorType>(broadcast.getSrc().getType());
        return source.getDimSize(0) == 1
                   ? constantDown(getFacts(broadcast.getSrc()))
                   : getColumnFacts(broadcast.getSrc());
      })
      .Case([&](ExpandDimsOp expand) -> IntegerFacts {
        // A column [M, 1] of a 1-D block: its facts along its one axis.
        if (expand.getAxis() != 1)
          return {};
        return getFacts(expand.getSrc());
      })
      .Case<arith::AddIOp, arith::SubIOp>([&](auto binary) {
        return getSumFacts(getColumnFacts(binary.getLhs()),
                           getColumnFacts(binary.getRhs()),
                           isa<arith::SubIOp>(binary));
      })
      .Case([&](arith::MulIOp mul) -> IntegerFacts {
        IntegerFacts lhs = getColumnFacts(mul.getLhs());
        IntegerFacts rhs = getColumnFacts(mul.getRhs());
        return {std::min(elementDivisibility(lhs) * elementDivisibility(rhs),
                         kMaxDivisibility),
                1, gcd(lhs.constancy, rhs.constancy)};
      })
      .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
          [&](Operation *logical) -> IntegerFacts {
            // Equal where both operands are (masks combined).
            return {1, 1,
                    gcd(getColumnFacts(logical->getOperand(0)).constancy,
                        getColumnFacts(logical->getOperand(1)).constancy)};
          })
      .Case([&](arith::CmpIOp compare) -> IntegerFacts {
        return {1, 1,
                compareConstancy(compare.getPredicate(),
                                 getColumnFacts(compare.getLhs()),
                                 getColumnFacts(compare.getRhs()))};
      })
      .Case([&](ConvertLayoutOp convert) {
        return getColumnFacts(convert.getSrc());
      })
      .Default([](Operation *) { return IntegerFacts{}; });
}
