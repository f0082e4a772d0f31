//===- TileAccess.cpp - 2-D loads that read a box of a matrix -------------===//
#include "blk/Analysis/TileAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// `value` without the ops that only repeat or move its elements: a
/// broadcast keeps an index along the dimensions it does not repeat, and
/// matchAxisIndex checks the length where the index starts.
Value stripRepeats(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<BroadcastOp, ConvertLayoutOp>(op))
      break;
    value = op->getOperand(0);
  }
  return value;
}

/// The scalar every element of `value` is, if it is a splat.
Value getSplatScalar(Value value) {
  auto splat = stripRepeats(value).getDefiningOp<SplatOp>();
  return splat ? splat.getSrc() : Value();
}

/// Whether `value` (2-D, or 1-D where `oneDim`) is `start + k` along `axis`
/// for k = 0 .. length - 1, the same along the other dimension; appends
/// the scalars whose sum is `start` to `start`.
bool matchAxisIndex(Value value, int64_t axis, int64_t length, bool oneDim,
                    SmallVectorImpl<Value> &start) {
  value = stripRepeats(value);
  Operation *op = value.getDefiningOp();
  if (auto add = dyn_cast_or_null<arith::AddIOp>(op)) {
    for (auto [index, scalar] :
         {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}})
      if (Value term = getSplatScalar(scalar);
          term && matchAxisIndex(index, axis, length, oneDim, start)) {
        start.push_back(term);
        return true;
      }
    return false;
  }
  if (auto expand = dyn_cast_or_null<ExpandDimsOp>(op))
    // The 1-D source's dimension lands at `axis` where the new one is the
    // other.
    return !oneDim && static_cast<int64_t>(expand.getAxis()) == 1 - axis &&
           matchAxisIndex(expand.getSrc(), 0, length, /*oneDim=*/true, start);
  if (auto arange = dyn_cast_or_null<ArangeOp>(op))
    return oneDim && arange.getStart() == 0 &&
           arange.getType().getDimSize(0) == length;
  return false;
}

/// The conjuncts of a mask: the operands of its `arith.andi`s.
void collectConjuncts(Value mask, SmallVectorImpl<Value> &conjuncts) {
  mask = stripRepeats(mask);
  if (auto both = mask.getDefiningOp<arith::AndIOp>()) {
    collectConjuncts(both.getLhs(), conjuncts);
    collectConjuncts(both.getRhs(), conjuncts);
    return;
  }
  conjuncts.push_back(mask);
}

/// Whether two sums of scalars have the same terms.
bool sameTerms(ArrayRef<Value> a, ArrayRef<Value> b) {
  SmallVector<Value> left(a), right(b);
  auto order = [](Value x, Value y) {
    return x.getAsOpaquePointer() < y.getAsOpaquePointer();
  };
  llvm::sort(left, order);
  llvm::sort(right, order);
  return left == right;
}

/// The kernel arguments bounding the rows and the columns of a tensor of
/// `extent`.
std::pair<ArgRole, ArgRole> getBoundRoles(ArgExtent extent) {
  switch (extent) {
  case ArgExtent::rows_by_inner:
    return {ArgRole::rows, ArgRole::inner};
  case ArgExtent::inner_by_cols:
    return {ArgRole::inner, ArgRole::cols};
  default:
    return {ArgRole::rows, ArgRole::cols};
  }
}

} // namespace

std::optional<TileAccess> mlir::blk::getTileAccess(LoadOp load) {
  auto matrix = dyn_cast<BlockArgument>(load.getBase());
  auto kernel = matrix ? dyn_cast<func::FuncOp>(matrix.getOwner()->getParentOp())
                       : nullptr;
  RankedTensorType type = load.getType();
  if (!kernel || type.getRank() != 2 || !load.getMask())
    return std::nullopt;
  ArgAttr declared = getArgAttr(kernel, matrix.getArgNumber());
  if (!declared || !declared.isTensor() ||
      !hasRowStride(declared.getExtent()))
    return std::nullopt;
  BlockArgument stride =
      findArgument(kernel, ArgRole::row_stride, declared.getName());
  auto [rowRole, colRole] = getBoundRoles(declared.getExtent());
  BlockArgument rowBound = findArgument(kernel, rowRole);
  BlockArgument colBound = findArgument(kernel, colRole);
  if (!stride || !rowBound || !colBound)
    return std::nullopt;

  // Offsets: (row index) * stride + (column index).
  TileAccess tile{matrix, stride, rowBound, {}, {}};
  auto sum = stripRepeats(load.getOffsets()).getDefiningOp<arith::AddIOp>();
  if (!sum)
    return std::nullopt;
  auto matchRowTimesStride = [&](Value value) {
    auto product = stripRepeats(value).getDefiningOp<arith::MulIOp>();
    if (!product)
      return false;
    for (auto [index, scale] : {std::pair{product.getLhs(), product.getRhs()},
                                {product.getRhs(), product.getLhs()}})
      if (getSplatScalar(scale) == stride &&
          matchAxisIndex(index, 0, type.getDimSize(0), false, tile.rowStart))
        return true;
    tile.rowStart.clear();
    return false;
  };
  bool offsetsMatch = false;
  for (auto [rows, cols] :
       {std::pair{sum.getLhs(), sum.getRhs()}, {sum.getRhs(), sum.getLhs()}}) {
    tile.rowStart.clear();
    tile.colStart.clear();
    if (matchRowTimesStride(rows) &&
        matchAxisIndex(cols, 1, type.getDimSize(1), false, tile.colStart)) {
      offsetsMatch = true;
      break;
    }
  }
  if (!offsetsMatch)
    return std::nullopt;

  // Mask: exactly (row index < rows) and (column index < cols), on the
  // offsets' own indices.
  SmallVector<Value> conjuncts;
  collectConjuncts(load.getMask(), conjuncts);
  bool rowBounded = false, colBounded = false;
  for (Value conjunct : conjuncts) {
    auto compare = stripRepeats(conjunct).getDefiningOp<arith::CmpIOp>();
    if (!compare || compare.getPredicate() != arith::CmpIPredicate::slt)
      return std::nullopt;
    Value bound = getSplatScalar(compare.getRhs());
    SmallVector<Value> start;
    if (bound == rowBound &&
        matchAxisIndex(compare.getLhs(), 0, type.getDimSize(0), false, start) &&
        sameTerms(start, tile.rowStart))
      rowBounded = true;
    else if (bound == colBound &&
             matchAxisIndex(compare.getLhs(), 1, type.getDimSize(1), false,
                            start) &&
             sameTerms(start, tile.colStart))
      colBounded = true;
    else
      return std::nullopt;
  }
  if (!rowBounded || !colBounded)
    return std::nullopt;
  if (Value other = load.getOther()) {
    auto constant = other.getDefiningOp<arith::ConstantOp>();
    auto value = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
    if (!value || !value.getValue().isPosZero())
      return std::nullopt;
  }
  return tile;
}
