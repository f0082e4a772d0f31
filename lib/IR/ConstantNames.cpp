//===- ConstantNames.cpp - compile-time constants in ops and programs -----===//
//
// The ops that name compile-time constants implement
// ConstantNamesOpInterface here: which names they use, and how each is
// rewritten once the names have values. --blk-specialize and the program
// binding ask the interface; findUnspecialized is the one place that says
// whether a program still depends on any name.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkDialect.h"

#include <set>

using namespace mlir;
using namespace mlir::blk;

using Constants = llvm::StringMap<int64_t>;

/// The value of a compile-time constant, or failure (with a diagnostic on
/// `op`) if it is unbound.
static FailureOr<int64_t> lookupConstant(Operation *op, StringRef name,
                                         const Constants &constants) {
  auto it = constants.find(name);
  if (it == constants.end())
    return op->emitOpError() << "compile-time constant '" << name
                             << "' is not bound; bind it with "
                                "--blk-specialize=\""
                             << name << "=<value>\"";
  return it->second;
}

/// The static dimension an entry of a shape list stands for, or failure
/// (with a diagnostic on `op`) if it names an unbound constant or one bound
/// to a size that is not positive.
static FailureOr<int64_t> bindDim(Operation *op, Attribute dim,
                                  const Constants &constants) {
  if (auto size = dyn_cast<IntegerAttr>(dim))
    return size.getInt();
  StringRef name = cast<StringAttr>(dim).getValue();
  FailureOr<int64_t> size = lookupConstant(op, name, constants);
  if (succeeded(size) && *size < 1)
    return op->emitOpError() << "compile-time constant '" << name << "' = "
                             << *size
                             << " is used as a block size, which must be "
                                "positive";
  return size;
}

/// The names among the entries of a shape list (none when there is no
/// list).
static SmallVector<StringRef> getNamesIn(ArrayAttr shape) {
  SmallVector<StringRef> names;
  if (shape)
    for (Attribute dim : shape)
      if (auto name = dyn_cast<StringAttr>(dim))
        names.push_back(name.getValue());
  return names;
}

/// Binds the shape list of a blk.splat or blk.broadcast: the list goes, and
/// the result type takes the sizes it stood for.
template <typename ShapedOp>
static LogicalResult bindShapeList(ShapedOp op, RewriterBase &rewriter,
                                   const Constants &constants) {
  ArrayAttr shape = op.getShapeAttr();
  if (!shape)
    return success();
  SmallVector<int64_t> dims;
  for (Attribute dim : shape) {
    FailureOr<int64_t> size = bindDim(op, dim, constants);
    if (failed(size))
      return failure();
    dims.push_back(*size);
  }
  rewriter.modifyOpInPlace(op, [&] {
    op.removeShapeAttr();
    op.getResult().setType(op.getType().clone(dims));
  });
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantNamesOpInterface
//===----------------------------------------------------------------------===//

SmallVector<StringRef> ConstexprOp::getConstantNames() { return {getName()}; }

LogicalResult ConstexprOp::bindConstants(RewriterBase &rewriter,
                                         const Constants &constants) {
  FailureOr<int64_t> value = lookupConstant(*this, getName(), constants);
  if (failed(value))
    return failure();
  // A value that its type cannot hold would be truncated without a word.
  Type type = getType();
  if (!type.isIndex() && type.getIntOrFloatBitWidth() < 64 &&
      !llvm::isIntN(type.getIntOrFloatBitWidth(), *value))
    return emitOpError() << "constant " << getName() << " = " << *value
                         << " does not fit its type " << type;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(*this);
  rewriter.replaceOpWithNewOp<arith::ConstantOp>(
      *this, rewriter.getIntegerAttr(getType(), *value));
  return success();
}

SmallVector<StringRef> ArangeOp::getConstantNames() {
  if (auto name = dyn_cast<StringAttr>(getEnd()))
    return {name.getValue()};
  return {};
}

LogicalResult ArangeOp::bindConstants(RewriterBase &rewriter,
                                      const Constants &constants) {
  FailureOr<int64_t> end = bindDim(*this, getEnd(), constants);
  if (failed(end))
    return failure();
  // The verifier then reports a range that is not a power of two.
  rewriter.modifyOpInPlace(*this, [&] {
    setEndAttr(rewriter.getI64IntegerAttr(*end));
    getResult().setType(getType().clone({*end - getStart()}));
  });
  return success();
}

SmallVector<StringRef> SplatOp::getConstantNames() {
  return getNamesIn(getShapeAttr());
}

LogicalResult SplatOp::bindConstants(RewriterBase &rewriter,
                                     const Constants &constants) {
  return bindShapeList(*this, rewriter, constants);
}

SmallVector<StringRef> BroadcastOp::getConstantNames() {
  return getNamesIn(getShapeAttr());
}

LogicalResult BroadcastOp::bindConstants(RewriterBase &rewriter,
                                         const Constants &constants) {
  return bindShapeList(*this, rewriter, constants);
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

std::vector<std::string> mlir::blk::getConstantNames(Operation *root) {
  std::set<std::string> names;
  root->walk([&](ConstantNamesOpInterface op) {
    for (StringRef name : op.getConstantNames())
      names.insert(name.str());
  });
  return {names.begin(), names.end()};
}

static bool isDynamicBlock(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor && !tensor.hasStaticShape();
}

/// The first dynamic block among `op`'s results, then among the arguments of
/// its regions; null when there is none.
static Value findDynamicBlock(Operation *op) {
  for (Value result : op->getResults())
    if (isDynamicBlock(result))
      return result;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments())
        if (isDynamicBlock(argument))
          return argument;
  return {};
}

InFlightDiagnostic Unspecialized::emitError() const {
  if (dynamicBlock)
    return op->emitOpError()
           << "block " << dynamicBlock.getType() << " has a dynamic shape";
  return op->emitOpError() << "compile-time constant '" << constantName
                           << "' is not bound";
}

std::optional<Unspecialized> mlir::blk::findUnspecialized(Operation *root) {
  std::optional<Unspecialized> found;
  root->walk([&](Operation *op) {
    if (Value block = findDynamicBlock(op)) {
      found = Unspecialized{op, block, {}};
      return WalkResult::interrupt();
    }
    auto named = dyn_cast<ConstantNamesOpInterface>(op);
    if (!named)
      return WalkResult::advance();
    SmallVector<StringRef> names = named.getConstantNames();
    if (names.empty())
      return WalkResult::advance();
    found = Unspecialized{op, {}, names.front()};
    return WalkResult::interrupt();
  });
  return found;
}
