//===- BlkOps.cpp - blk operations: parsing helpers and verifiers ---------===//
#include "blk/IR/BlkDialect.h"
#include "blk/IR/Distribution.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdint>
#include <cstring>

using namespace mlir;
using namespace mlir::blk;

//===----------------------------------------------------------------------===//
// Custom assembly pieces: constant names and block shapes such as [4, BLOCK]
//===----------------------------------------------------------------------===//

static ParseResult parseConstantName(OpAsmParser &parser, StringAttr &name) {
  std::string keyword;
  if (parser.parseKeywordOrString(&keyword))
    return failure();
  name = parser.getBuilder().getStringAttr(keyword);
  return success();
}

static void printConstantName(OpAsmPrinter &printer, Operation *,
                              StringAttr name) {
  printer.printKeywordOrString(name.getValue());
}

/// One dimension: an integer, or the name of a compile-time constant.
static ParseResult parseBlockDim(OpAsmParser &parser, Attribute &dim) {
  int64_t size;
  OptionalParseResult number = parser.parseOptionalInteger(size);
  if (number.has_value()) {
    if (failed(*number))
      return failure();
    dim = parser.getBuilder().getI64IntegerAttr(size);
    return success();
  }
  StringAttr name;
  if (parseConstantName(parser, name))
    return failure();
  dim = name;
  return success();
}

static void printBlockDim(OpAsmPrinter &printer, Operation *op,
                          Attribute dim) {
  if (auto size = dyn_cast<IntegerAttr>(dim))
    printer << size.getInt();
  else
    printConstantName(printer, op, cast<StringAttr>(dim));
}

static OptionalParseResult parseBlockShape(OpAsmParser &parser,
                                           ArrayAttr &shape) {
  if (failed(parser.parseOptionalLSquare()))
    return std::nullopt;
  SmallVector<Attribute> dims;
  if (parser.parseCommaSeparatedList([&]() {
        return parseBlockDim(parser, dims.emplace_back());
      }) ||
      parser.parseRSquare())
    return ParseResult(failure());
  shape = parser.getBuilder().getArrayAttr(dims);
  return ParseResult(success());
}

static void printBlockShape(OpAsmPrinter &printer, Operation *op,
                            ArrayAttr shape) {
  if (!shape)
    return;
  printer << '[';
  llvm::interleaveComma(shape, printer,
                        [&](Attribute dim) { printBlockDim(printer, op, dim); });
  printer << ']';
}

#define GET_OP_CLASSES
#include "blk/IR/BlkOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Verifier helpers
//===----------------------------------------------------------------------===//

/// Prints a shape as in a tensor type: 4x?x1024.
static std::string formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      "x");
  return text;
}

/// Two shapes agree where both dimensions are known.
static bool shapesAgree(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return succeeded(verifyCompatibleShape(a, b));
}

/// Checks a shape list of blk.splat / blk.broadcast against the result type.
static LogicalResult verifyShapeList(Operation *op, ArrayAttr shape,
                                     RankedTensorType resultType) {
  if (!shape) {
    if (resultType.hasStaticShape())
      return success();
    return op->emitOpError()
           << "result shape " << formatShape(resultType.getShape())
           << " has dynamic dimensions; name the compile-time constants that "
              "fix them in a shape list, e.g. [BLOCK]";
  }
  if (shape.size() != static_cast<size_t>(resultType.getRank()))
    return op->emitOpError() << "shape list has " << shape.size()
                             << " entries but the result has rank "
                             << resultType.getRank();
  for (auto [index, entry] : llvm::enumerate(shape)) {
    int64_t resultDim = resultType.getDimSize(index);
    if (auto size = dyn_cast<IntegerAttr>(entry)) {
      if (size.getInt() < 1)
        return op->emitOpError() << "shape entry #" << index
                                 << " must be positive, but got "
                                 << size.getInt();
      if (resultDim != size.getInt())
        return op->emitOpError()
               << "shape entry #" << index << " is " << size.getInt()
               << " but the result dimension is "
               << formatShape(resultDim);
      continue;
    }
    auto name = dyn_cast<StringAttr>(entry);
    if (!name)
      return op->emitOpError() << "shape entry #" << index
                               << " must be an integer or a constant name, "
                                  "but got "
                               << entry;
    if (!ShapedType::isDynamic(resultDim))
      return op->emitOpError()
             << "shape entry #" << index << " names '" << name.getValue()
             << "', so the result dimension must be '?' until it is bound, "
                "but got "
             << resultDim;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Op verifiers
//===----------------------------------------------------------------------===//

LogicalResult ConstexprOp::verify() {
  StringRef name = getName();
  bool isIdentifier =
      !name.empty() && (isalpha(name.front()) || name.front() == '_') &&
      llvm::all_of(name, [](char c) { return isalnum(c) || c == '_'; });
  if (!isIdentifier)
    return emitOpError() << "constant name '" << name
                         << "' is not an identifier";
  return success();
}

LogicalResult ArangeOp::verify() {
  RankedTensorType type = getType();
  if (type.getRank() != 1)
    return emitOpError() << "result must be a 1-D block, but has rank "
                         << type.getRank();
  int64_t start = getStart();
  int64_t resultDim = type.getDimSize(0);
  if (auto name = dyn_cast<StringAttr>(getEnd())) {
    if (start != 0)
      return emitOpError() << "a range ending at constant '" << name.getValue()
                           << "' must start at 0, but starts at " << start;
    if (!ShapedType::isDynamic(resultDim))
      return emitOpError() << "result dimension must be '?' until '"
                           << name.getValue() << "' is bound, but got "
                           << resultDim;
    return success();
  }
  int64_t end = cast<IntegerAttr>(getEnd()).getInt();
  if (end <= start)
    return emitOpError() << "range [" << start << ", " << end << ") is empty";
  // Its values are of the element type: past its largest they would wrap.
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  if (width < 64 && (end - 1 > (int64_t(1) << (width - 1)) - 1 ||
                     start < -(int64_t(1) << (width - 1))))
    return emitOpError() << "range [" << start << ", " << end
                         << ") does not fit its element type "
                         << type.getElementType();
  int64_t length = end - start;
  if (resultDim != length)
    return emitOpError() << "result has " << formatShape(resultDim)
                         << " elements but the range [" << start << ", "
                         << end << ") has " << length;
  return success();
}

LogicalResult SplatOp::verify() {
  RankedTensorType type = getType();
  if (type.getElementType() != getSrc().getType())
    return emitOpError() << "result element type " << type.getElementType()
                         << " does not match the splatted value's type "
                         << getSrc().getType();
  return verifyShapeList(*this, getShapeAttr(), type);
}

LogicalResult ExpandDimsOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError() << "axis " << axis
                         << " is out of range for expanding a rank-"
                         << srcType.getRank() << " block (expected 0.."
                         << srcType.getRank() << ")";
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  RankedTensorType type = getType();
  if (type.getElementType() != srcType.getElementType())
    return emitOpError() << "result element type " << type.getElementType()
                         << " does not match the source's "
                         << srcType.getElementType();
  if (type.getRank() != static_cast<int64_t>(expected.size()) ||
      !shapesAgree(type.getShape(), expected))
    return emitOpError() << "result shape must be " << formatShape(expected)
                         << ", but got " << formatShape(type.getShape());
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  RankedTensorType type = getType();
  if (type.getElementType() != srcType.getElementType())
    return emitOpError() << "result element type " << type.getElementType()
                         << " does not match the source's "
                         << srcType.getElementType()
                         << " (a conversion moves elements between threads)";
  if (type.getRank() != srcType.getRank() ||
      !shapesAgree(type.getShape(), srcType.getShape()))
    return emitOpError() << "result shape must be the source's "
                         << formatShape(srcType.getShape()) << ", but got "
                         << formatShape(type.getShape());
  return success();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  RankedTensorType type = getType();
  if (srcType.getRank() != type.getRank())
    return emitOpError() << "broadcast cannot change the rank ("
                         << srcType.getRank() << " -> " << type.getRank()
                         << "); use blk.expand_dims first";
  if (type.getElementType() != srcType.getElementType())
    return emitOpError() << "result element type " << type.getElementType()
                         << " does not match the source's "
                         << srcType.getElementType();
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    int64_t from = srcType.getDimSize(dim), to = type.getDimSize(dim);
    if (from == 1 || ShapedType::isDynamic(from) || ShapedType::isDynamic(to) ||
        from == to)
      continue;
    return emitOpError() << "dimension #" << dim << " of size " << from
                         << " cannot be broadcast to " << to
                         << " (only dimensions of size 1 can)";
  }
  return verifyShapeList(*this, getShapeAttr(), type);
}

/// Shared by load and store: the data block matches the offsets' shape and
/// the pointer's element type.
static LogicalResult verifyAccess(Operation *op, PtrType base,
                                  RankedTensorType offsets,
                                  RankedTensorType data, StringRef dataName) {
  if (data.getRank() != offsets.getRank() ||
      !shapesAgree(data.getShape(), offsets.getShape()))
    return op->emitOpError()
           << dataName << " shape " << formatShape(data.getShape())
           << " does not match the offsets' shape "
           << formatShape(offsets.getShape());
  if (data.getElementType() != base.getPointeeType())
    return op->emitOpError()
           << dataName << " element type " << data.getElementType()
           << " does not match the pointer's element type "
           << base.getPointeeType();
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError() << "'other' needs a 'mask': it is the value of the "
                            "masked-off elements";
  return verifyAccess(*this, getBase().getType(), getOffsets().getType(),
                      getType(), "result");
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getBase().getType(), getOffsets().getType(),
                      getValue().getType(), "stored value");
}

/// The block in registers and the block in shared memory of a local_alloc or
/// local_load agree in shape and element type (the layout is the block's
/// alone).
static LogicalResult verifySharedBlock(Operation *op, RankedTensorType block,
                                       SharedType shared, StringRef blockName) {
  if (block.getShape() == shared.getShape() &&
      block.getElementType() == shared.getElementType())
    return success();
  return op->emitOpError() << "expected the " << blockName
                           << " to have the shape and element "
                           << "type of " << shared << ", but found "
                           << RankedTensorType::get(block.getShape(),
                                                    block.getElementType());
}

LogicalResult LocalAllocOp::verify() {
  if (!getSrc()) {
    if (!getType().getEncoding())
      return emitOpError() << "expected a #blk.swizzled buffer where there is "
                              "no block to keep, but found "
                           << getType();
    return success();
  }
  if (getType().getEncoding()) {
    // A block stored where blk.warpgroup_dot reads it, by every thread of
    // the CTA.
    RankedTensorType src = getSrc().getType();
    FailureOr<Distribution> distribution = Distribution::get(src);
    if (failed(distribution) || distribution->getSlicedDim() ||
        getType().getShape().size() != 2 ||
        src.getShape() != getType().getShape() ||
        src.getElementType() != getType().getElementType())
      return emitOpError() << "expected a 2-D block laid out #blk.blocked of "
                              "the swizzled buffer's shape and element type, "
                           << getType() << ", but found " << src;
    auto func = (*this)->getParentOfType<func::FuncOp>();
    KernelAttr kernel = func ? getKernelAttr(func) : KernelAttr();
    BlockedLayoutAttr layout = distribution->getLayout();
    if (kernel && (layout.getNumWarps() != kernel.getNumWarps() ||
                   layout.getNumCtas() != 1))
      return emitOpError() << "expected the block laid out over the kernel's "
                           << kernel.getNumWarps()
                           << " warps of one CTA, but found " << layout;
    return success();
  }
  if (!getSrc().getType().hasStaticShape())
    return emitOpError() << "expected a block of static shape, but found "
                         << getSrc().getType();
  return verifySharedBlock(*this, getSrc().getType(), getType(), "source");
}

LogicalResult LocalIndexOp::verify() {
  SharedType ring = getRing().getType(), slot = getType();
  if (!ring.getEncoding() || ring.getShape().size() != 3)
    return emitOpError() << "expected a ring of #blk.swizzled buffers (3-D), "
                            "but found "
                         << ring;
  SharedType expected = ring.getSlotType();
  if (slot != expected)
    return emitOpError() << "expected a slot of type " << expected
                         << ", but found " << slot;
  return success();
}

/// `value`'s type is a 2-D #blk.swizzled buffer whose encoding is
/// `encoding`; `name` says which operand it is.
static LogicalResult verifySwizzledOperand(Operation *op, SharedType type,
                                           SwizzledSharedAttr encoding,
                                           StringRef name) {
  if (type.getShape().size() == 2 && type.getEncoding() == encoding)
    return success();
  return op->emitOpError() << "expected " << name
                           << " to be a 2-D buffer arranged " << encoding
                           << ", but found " << type;
}

LogicalResult LocalLoadOp::verify() {
  if (getSrc().getType().getEncoding())
    return emitOpError() << "expected a buffer a block was kept in (no "
                            "encoding), but found "
                         << getSrc().getType();
  return verifySharedBlock(*this, getType(), getSrc().getType(), "result");
}

RankedTensorType AsyncCopyOp::getBlockType() {
  return getOffsets().getType().clone(getType().getElementType());
}

LogicalResult AsyncCopyOp::verify() {
  RankedTensorType offsets = getOffsets().getType();
  if (failed(Distribution::get(offsets)))
    return emitOpError() << "expected offsets laid out over threads (the op "
                            "comes after blk-distribute), but found "
                         << offsets;
  if (getOther() && !getMask())
    return emitOpError() << "'other' needs a 'mask': it is the value of the "
                            "masked-off elements";
  if (failed(verifySharedBlock(*this, getBlockType(), getType(), "offsets")))
    return failure();
  return verifyAccess(*this, getBase().getType(), offsets, getBlockType(),
                      "buffer");
}

LogicalResult AsyncCopyIntoOp::verify() {
  RankedTensorType offsets = getOffsets().getType();
  if (failed(Distribution::get(offsets)))
    return emitOpError() << "expected offsets laid out over threads (the op "
                            "comes after blk-distribute), but found "
                         << offsets;
  SharedType dest = getDest().getType();
  if (!dest.getEncoding())
    return emitOpError() << "expected a #blk.swizzled buffer to copy into, "
                            "but found "
                         << dest;
  auto block = offsets.clone(dest.getElementType());
  if (failed(verifySharedBlock(*this, block, dest, "offsets")))
    return failure();
  return verifyAccess(*this, getBase().getType(), offsets, block, "buffer");
}

LogicalResult TensorCopyIntoOp::verify() {
  TensorMapType map = getMap().getType();
  SharedType dest = getDest().getType();
  SwizzledSharedAttr encoding = dest.getEncoding();
  if (dest.getShape().size() != 2 || !encoding || encoding.getTransposed())
    return emitOpError() << "expected a 2-D #blk.swizzled buffer, not "
                            "transposed, to copy into, but found "
                         << dest;
  if (dest.getElementType() != map.getElementType())
    return emitOpError() << "expected the buffer's elements to be the tensor "
                            "map's, "
                         << map.getElementType() << ", but found "
                         << dest.getElementType();
  ArrayRef<int64_t> box = map.getBox(), shape = dest.getShape();
  if (std::optional<BitRotation> rotation = getRowRotation(map)) {
    std::optional<BitRotation> arranged = getRowRotation(encoding);
    if (!arranged || arranged->first != rotation->first ||
        arranged->count != rotation->count || shape[0] != box[0] ||
        shape[1] != box[1])
      return emitOpError()
             << "expected a buffer of one box of the rotated map, "
             << box[0] << " x " << box[1] << " with its rows rotated as the "
             << "map's, but found " << dest;
    return success();
  }
  if (shape[0] % box[0] != 0 || shape[1] % box[1] != 0)
    return emitOpError() << "expected a buffer of whole boxes of " << box[0]
                         << " x " << box[1] << ", but found " << shape[0]
                         << " x " << shape[1];
  // A rotation moves groups of rows: a box must stay inside one.
  if (std::optional<BitRotation> rotation = getRowRotation(encoding);
      rotation && box[0] > (int64_t(1) << rotation->first))
    return emitOpError() << "expected boxes of at most "
                         << (int64_t(1) << rotation->first)
                         << " rows, which the buffer's row rotation keeps "
                            "together, but found "
                         << box[0];
  return success();
}

int64_t TensorCopyIntoOp::getCopiedBytes() {
  SharedType dest = getDest().getType();
  return dest.getShape()[0] * dest.getShape()[1] *
         dest.getElementType().getIntOrFloatBitWidth() / 8;
}

std::pair<ArrayRef<int64_t>, Type> WarpgroupDotOp::getAShape() {
  if (auto block = dyn_cast<RankedTensorType>(getA().getType()))
    return {block.getShape(), block.getElementType()};
  auto buffer = cast<SharedType>(getA().getType());
  return {buffer.getShape(), buffer.getElementType()};
}

LogicalResult WarpgroupDotOp::verify() {
  auto acc = dyn_cast<RankedTensorType>(getAcc().getType());
  FailureOr<Distribution> c =
      acc ? Distribution::get(acc) : FailureOr<Distribution>(failure());
  if (failed(c) || acc.getRank() != 2 || !acc.getElementType().isF32())
    return emitOpError() << "expected a 2-D f32 accumulator laid out over "
                            "threads, but found "
                         << getAcc().getType();
  int64_t warps = c->getLayout().getNumWarps();
  auto func = (*this)->getParentOfType<func::FuncOp>();
  KernelAttr kernel = func ? getKernelAttr(func) : KernelAttr();
  if (kernel && kernel.getNumWarps() != warps)
    return emitOpError() << "expected the accumulator laid out over the "
                            "kernel's "
                         << kernel.getNumWarps() << " warps, but found "
                         << warps;
  BlockedLayoutAttr wgmma = getWgmmaAccumulatorLayout(getContext(), warps);
  if (c->getLayout() != wgmma)
    return emitOpError() << "expected the accumulator laid out for wgmma, "
                         << wgmma << ", but found " << acc.getEncoding();
  // B is read N-major, or K-major from a transposed buffer.
  SwizzledSharedAttr bEncoding = getB().getType().getEncoding();
  bool bKMajor = bEncoding && bEncoding.getTransposed();
  if (failed(verifySwizzledOperand(
          *this, getB().getType(),
          getWgmmaOperandEncoding(getContext(), warps, 1, bKMajor), "B")))
    return failure();
  if (auto aBlock = dyn_cast<RankedTensorType>(getA().getType())) {
    // A in registers: wgmma's fragments of A are the accumulator's.
    if (!holdsWgmmaFragmentsOfA(aBlock, warps))
      return emitOpError()
             << "expected A in registers to be a 2-D 16-bit block of K a "
                "multiple of "
             << kWgmmaK << " laid out as the accumulator, " << wgmma
             << ", but found " << aBlock;
  } else if (failed(verifySwizzledOperand(
                 *this, cast<SharedType>(getA().getType()),
                 getWgmmaOperandEncoding(getContext(), warps, 0), "A"))) {
    return failure();
  }
  auto [a, aElement] = getAShape();
  ArrayRef<int64_t> b = getB().getType().getShape();
  if (a[1] != b[0] || a[0] != acc.getDimSize(0) || b[1] != acc.getDimSize(1))
    return emitOpError() << "expected A (M x K), B (K x N) and the "
                            "accumulator (M x N) to agree, but found "
                         << a[0] << "x" << a[1] << ", " << b[0] << "x" << b[1]
                         << " and " << acc.getDimSize(0) << "x"
                         << acc.getDimSize(1);
  if (aElement != getB().getType().getElementType())
    return emitOpError() << "expected A and B of one element type, but found "
                         << aElement << " and "
                         << getB().getType().getElementType();
  int64_t rowsPerGroup = kWgmmaM * (warps / kWarpsPerWarpgroup);
  if (warps % kWarpsPerWarpgroup != 0 || a[0] % rowsPerGroup != 0 ||
      b[1] > kWgmmaMaxN)
    return emitOpError() << "expected whole warpgroups, M a multiple of "
                         << kWgmmaM << " rows a warpgroup and N at most "
                         << kWgmmaMaxN << ", but found " << warps
                         << " warps, M = " << a[0] << ", N = " << b[1];
  return success();
}

LogicalResult ProgramBarrierOp::verify() {
  Type counter = getCounter().getType().getPointeeType();
  if (!counter.isInteger(64))
    return emitOpError() << "expected a pointer to an i64 counter, but found "
                         << getCounter().getType();
  auto func = (*this)->getParentOfType<func::FuncOp>();
  KernelAttr kernel = func ? getKernelAttr(func) : KernelAttr();
  if (!kernel)
    return emitOpError() << "expected to be in a kernel (a function marked "
                            "blk.kernel), whose grid says whether its "
                            "programs run at once";
  if (kernel.getGrid() != GridKind::persistent)
    return emitOpError() << "expected a kernel of grid = persistent (the "
                            "programs that meet here must all be resident), "
                            "but found grid = "
                         << stringifyGridKind(kernel.getGrid());
  if (kernel.getNumCtas() != 1)
    return emitOpError() << "expected a kernel of one CTA a program, but "
                            "found num_ctas = "
                         << kernel.getNumCtas();
  if (std::optional<int64_t> count = getConstantIntValue(getCount());
      count && *count < 1)
    return emitOpError() << "expected a count of at least 1 program, but "
                            "found "
                         << *count;
  return success();
}

Value ReduceOp::combine(OpBuilder &builder, Location loc, ReduceKind kind,
                        Value lhs, Value rhs) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case ReduceKind::max:
    return isFloat ? arith::MaximumFOp::create(builder, loc, lhs, rhs)
                         .getResult()
                   : arith::MaxSIOp::create(builder, loc, lhs, rhs).getResult();
  case ReduceKind::min:
    return isFloat ? arith::MinimumFOp::create(builder, loc, lhs, rhs)
                         .getResult()
                   : arith::MinSIOp::create(builder, loc, lhs, rhs).getResult();
  case ReduceKind::sum:
    break;
  }
  return isFloat ? arith::AddFOp::create(builder, loc, lhs, rhs).getResult()
                 : arith::AddIOp::create(builder, loc, lhs, rhs).getResult();
}

TypedAttr ReduceOp::getIdentity(ReduceKind kind, Type elementType,
                                Builder &builder) {
  if (kind == ReduceKind::sum)
    return builder.getZeroAttr(elementType);
  bool negative = kind == ReduceKind::max;
  if (auto floatType = dyn_cast<FloatType>(elementType))
    return builder.getFloatAttr(
        floatType,
        APFloat::getInf(floatType.getFloatSemantics(), negative));
  unsigned width = elementType.isIndex()
                       ? IndexType::kInternalStorageBitWidth
                       : elementType.getIntOrFloatBitWidth();
  return builder.getIntegerAttr(elementType,
                                negative ? APInt::getSignedMinValue(width)
                                         : APInt::getSignedMaxValue(width));
}

/// Checks that `resultType` is what reducing `srcType` along `axis` gives:
/// a scalar of its element type for a 1-D block, else the block without
/// that axis.
static LogicalResult verifyReduction(Operation *op, RankedTensorType srcType,
                                     int64_t axis, Type resultType) {
  if (axis < 0 || axis >= srcType.getRank())
    return op->emitOpError()
           << "reduce axis " << axis << " is out of range for a rank-"
           << srcType.getRank() << " block";
  Type elementType = srcType.getElementType();
  if (getElementTypeOrSelf(resultType) != elementType)
    return op->emitOpError()
           << "result element type " << getElementTypeOrSelf(resultType)
           << " does not match the source's " << elementType;
  if (srcType.getRank() == 1) {
    if (resultType != elementType)
      return op->emitOpError()
             << "reducing a 1-D block gives a scalar " << elementType
             << ", but the result is " << resultType;
    return success();
  }
  SmallVector<int64_t> expected(srcType.getShape());
  expected.erase(expected.begin() + axis);
  auto resultTensor = dyn_cast<RankedTensorType>(resultType);
  if (!resultTensor ||
      resultTensor.getRank() != static_cast<int64_t>(expected.size()) ||
      !shapesAgree(resultTensor.getShape(), expected))
    return op->emitOpError() << "result shape must be " << formatShape(expected)
                             << " (the source without axis " << axis
                             << "), but got " << resultType;
  return success();
}

LogicalResult ReduceOp::verify() {
  return verifyReduction(*this, getSrc().getType(), getAxis(), getType());
}

LogicalResult DotOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(),
                   acc = getAcc().getType();
  for (auto [name, type] : {std::pair{"a", a}, {"b", b}, {"acc", acc}})
    if (type.getRank() != 2)
      return emitOpError() << "expected 2-D blocks, but '" << name
                           << "' is " << type;
  auto agree = [](int64_t x, int64_t y) {
    return ShapedType::isDynamic(x) || ShapedType::isDynamic(y) || x == y;
  };
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = acc.getShape();
  if (!agree(as[1], bs[0]) || !agree(as[0], cs[0]) || !agree(bs[1], cs[1]))
    return emitOpError() << "expected a M x K, b K x N and acc M x N, but "
                            "found "
                         << formatShape(as) << ", " << formatShape(bs)
                         << " and " << formatShape(cs);
  Type in = a.getElementType(), out = acc.getElementType();
  if (in != b.getElementType())
    return emitOpError() << "expected a and b of one element type, but "
                            "found "
                         << in << " and " << b.getElementType();
  if (!(in.isF16() || in.isBF16() || in.isF32()) || !out.isF32())
    return emitOpError() << "expected f16, bf16 or f32 inputs and an f32 "
                            "accumulator, but found "
                         << in << " inputs and a " << out << " accumulator";
  if (getPrecision() == InputPrecision::tf32 && !in.isF32())
    return emitOpError() << "expected f32 inputs for precision tf32 (it "
                            "rounds f32 to tf32), but found "
                         << in << " inputs";
  return success();
}

/// tf32 keeps f32's sign, exponent and top 10 mantissa bits: half the unit
/// of the 13 bits it drops, and the mask that keeps the rest.
constexpr uint32_t kTf32HalfDropped = 0x1000u, kTf32Kept = 0xFFFFE000u;

Value mlir::blk::createTf32Rounding(OpBuilder &builder, Location loc,
                                    Value value) {
  // Half of the 13 dropped bits' unit added to the magnitude, then the
  // dropped bits cleared: to nearest, ties away from zero; an infinity
  // stays one, a NaN could carry into the sign and is kept as it is.
  Type i32 = builder.getI32Type();
  auto constant = [&](int64_t bits) {
    return arith::ConstantOp::create(builder, loc, i32,
                                     builder.getI32IntegerAttr(bits));
  };
  Value bits = arith::BitcastOp::create(builder, loc, i32, value);
  Value rounded = arith::AndIOp::create(
      builder, loc,
      arith::AddIOp::create(builder, loc, bits, constant(kTf32HalfDropped)),
      constant(int32_t(kTf32Kept)));
  Value isNan = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO,
                                      value, value);
  return arith::SelectOp::create(
      builder, loc, isNan, value,
      arith::BitcastOp::create(builder, loc, value.getType(), rounded));
}

double mlir::blk::roundToTf32(double value) {
  // As the GPU does it: the value is an f32 first (an operand the reference
  // holds in double is one on the GPU), then the bits of createTf32Rounding
  // (tf32's range and grid are f32's: past its largest value is infinite,
  // and subnormals keep f32's spacing).
  float single = static_cast<float>(value);
  if (std::isnan(single))
    return value;
  uint32_t bits = 0;
  std::memcpy(&bits, &single, sizeof(bits));
  bits = (bits + kTf32HalfDropped) & kTf32Kept;
  std::memcpy(&single, &bits, sizeof(bits));
  return single;
}

bool mlir::blk::hasTf32Product(Operation *root) {
  return root
      ->walk([](DotOp dot) {
        return dot.getPrecision() == InputPrecision::tf32
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

bool ReduceOp::isReducedResult(unsigned) { return true; }

bool MaxExpSumOp::isReducedResult(unsigned index) {
  return index != cast<OpResult>(getExps()).getResultNumber();
}

bool SumCenteredSquaresOp::isReducedResult(unsigned) { return true; }

LogicalResult SumCenteredSquaresOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  if (srcType.getRank() != 1 || !srcType.getElementType().isF32())
    return emitOpError() << "expected a 1-D block of f32 (a row), but found "
                         << srcType;
  if (Value mask = getMask();
      mask && !shapesAgree(cast<RankedTensorType>(mask.getType()).getShape(),
                           srcType.getShape()))
    return emitOpError() << "expected a mask of the row's shape "
                         << formatShape(srcType.getShape()) << ", but found "
                         << mask.getType();
  return verifyReduction(*this, srcType, getAxis(), getSum().getType());
}

LogicalResult MaxExpSumOp::verify() {
  Type elementType = getSrc().getType().getElementType();
  if (!elementType.isF32())
    return emitOpError() << "expected a block of f32 (exp is computed in "
                            "f32), but found elements of "
                         << elementType;
  return verifyReduction(*this, getSrc().getType(), getAxis(),
                         getMax().getType());
}
