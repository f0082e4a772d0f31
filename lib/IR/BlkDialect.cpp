//===- BlkDialect.cpp - blk dialect, types and attributes -----------------===//
#include "blk/IR/BlkDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::blk;

#include "blk/IR/BlkOpsDialect.cpp.inc"
#include "blk/IR/BlkOpsEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/IR/BlkOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/IR/BlkOpsAttrs.cpp.inc"

void BlkDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "blk/IR/BlkOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "blk/IR/BlkOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "blk/IR/BlkOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type pointeeType) {
  if (pointeeType.isF32() || pointeeType.isF16() || pointeeType.isBF16() ||
      pointeeType.isInteger(32))
    return success();
  return emitError() << "pointer element type must be f32, f16, bf16 or i32, "
                        "but got "
                     << pointeeType;
}

LogicalResult KernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t numWarps) {
  if (numWarps >= 1 && numWarps <= 32 && llvm::isPowerOf2_64(numWarps))
    return success();
  return emitError() << "num_warps must be a power of two from 1 to 32, but got "
                     << numWarps;
}

Type mlir::blk::getMaskType(Type offsetsType) {
  auto tensor = dyn_cast<RankedTensorType>(offsetsType);
  if (!tensor)
    return offsetsType;
  return tensor.clone(IntegerType::get(offsetsType.getContext(), 1));
}

KernelAttr mlir::blk::getKernelAttr(func::FuncOp func) {
  return func->getAttrOfType<KernelAttr>(BlkDialect::getKernelAttrName());
}

bool mlir::blk::isKernel(func::FuncOp func) {
  return static_cast<bool>(getKernelAttr(func));
}

//===----------------------------------------------------------------------===//
// Attributes on other dialects' operations
//===----------------------------------------------------------------------===//

static bool isKernelArgumentType(Type type) {
  return isa<PtrType, IntegerType, FloatType, IndexType>(type);
}

LogicalResult BlkDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() != getKernelAttrName())
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' is not an operation attribute of the blk "
                              "dialect (expected 'blk.kernel')";
  if (!isa<KernelAttr>(attr.getValue()))
    return op->emitError() << "'blk.kernel' must be a #blk.kernel<...> "
                              "attribute, but got "
                           << attr.getValue();
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    return op->emitError() << "'blk.kernel' applies to func.func, not to '"
                           << op->getName() << "'";
  if (func.getNumResults() != 0)
    return op->emitError() << "a kernel returns nothing, but @"
                           << func.getSymName() << " returns "
                           << func.getNumResults() << " value(s)";
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
    if (!isKernelArgumentType(type))
      return op->emitError() << "kernel argument #" << index << " has type "
                             << type
                             << "; kernels take !blk.ptr pointers and scalars";
  return success();
}

LogicalResult BlkDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  if (attr.getName() != getDivisibilityAttrName())
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' is not an argument attribute of the blk "
                              "dialect (expected 'blk.divisibility')";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getInt() < 1 || !llvm::isPowerOf2_64(value.getInt()))
    return op->emitError() << "blk.divisibility of argument #" << argIndex
                           << " must be a positive power of two, but got "
                           << attr.getValue();
  // Argument attributes exist only on function-like ops.
  Type argType = cast<FunctionOpInterface>(op).getArgumentTypes()[argIndex];
  if (!isa<PtrType, IntegerType, IndexType>(argType))
    return op->emitError() << "blk.divisibility applies to pointer and "
                              "integer arguments, but argument #"
                           << argIndex << " has type " << argType;
  return success();
}
