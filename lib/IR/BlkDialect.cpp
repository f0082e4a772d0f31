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

#include "blk/IR/BlkInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/IR/BlkOpsTypes.cpp.inc"

/// `(, grid = "...")? (, num_ctas = N)?` in either order, each at most once;
/// the defaults ("rows", 1) are not printed.
static ParseResult parseKernelOptions(AsmParser &parser,
                                      std::string &grid, int64_t &numCtas) {
  grid = "rows";
  numCtas = 1;
  bool seenGrid = false, seenCtas = false;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "grid" && !seenGrid) {
      std::string value;
      if (parser.parseString(&value))
        return failure();
      grid = value;
      seenGrid = true;
    } else if (key == "num_ctas" && !seenCtas) {
      int64_t value;
      if (parser.parseInteger(value))
        return failure();
      numCtas = value;
      seenCtas = true;
    } else {
      return parser.emitError(at)
             << "expected 'grid' or 'num_ctas' (each at most once), got '"
             << key << "'";
    }
  }
  return success();
}

static void printKernelOptions(AsmPrinter &printer, StringRef grid,
                               int64_t numCtas) {
  if (grid != "rows")
    printer << ", grid = \"" << grid << "\"";
  if (numCtas != 1)
    printer << ", num_ctas = " << numCtas;
}

#define GET_ATTRDEF_CLASSES
#include "blk/IR/BlkOpsAttrs.cpp.inc"

namespace {
/// Prints the layouts as #blocked, #slice aliases, as Triton's IR does.
struct BlkOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceLayoutAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void BlkDialect::initialize() {
  addInterfaces<BlkOpAsmInterface>();
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

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> elems, ArrayRef<int64_t> lanes,
                          ArrayRef<int64_t> warps, ArrayRef<int64_t> ctas) {
  if (elems.empty() || elems.size() != lanes.size() ||
      elems.size() != warps.size())
    return emitError() << "elems, lanes and warps must have one entry per "
                          "dimension (got "
                       << elems.size() << ", " << lanes.size() << ", "
                       << warps.size() << ")";
  if (!ctas.empty() && ctas.size() != elems.size())
    return emitError() << "ctas must have one entry per dimension ("
                       << elems.size() << ") or be left out, but has "
                       << ctas.size();
  auto powersOfTwo = [](ArrayRef<int64_t> values) {
    return llvm::all_of(values, [](int64_t v) {
      return v >= 1 && llvm::isPowerOf2_64(v);
    });
  };
  if (!powersOfTwo(elems) || !powersOfTwo(lanes) || !powersOfTwo(warps) ||
      !powersOfTwo(ctas))
    return emitError() << "elems, lanes, warps and ctas must be powers of two";
  int64_t laneCount = llvm::product_of(lanes);
  if (laneCount != 32)
    return emitError() << "lanes must multiply to 32 (a warp), but multiply to "
                       << laneCount;
  return success();
}

int64_t BlockedLayoutAttr::getNumWarps() const {
  return llvm::product_of(getWarps());
}

int64_t BlockedLayoutAttr::getCtasAlong(int64_t d) const {
  return getCtas().empty() ? 1 : getCtas()[d];
}

int64_t BlockedLayoutAttr::getNumCtas() const {
  return getCtas().empty() ? 1 : llvm::product_of(getCtas());
}

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t dim, BlockedLayoutAttr parent) {
  if (dim < 0 || dim >= parent.getRank() || parent.getRank() < 2)
    return emitError() << "slice dimension " << dim
                       << " is out of range for a rank-" << parent.getRank()
                       << " parent (a slice needs rank 2 or more)";
  return success();
}

LogicalResult KernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t numWarps, StringRef grid,
                                 int64_t numCtas) {
  if (numWarps < 1 || numWarps > 32 || !llvm::isPowerOf2_64(numWarps))
    return emitError()
           << "num_warps must be a power of two from 1 to 32, but got "
           << numWarps;
  if (grid != "rows" && grid != "persistent")
    return emitError() << "grid must be \"rows\" or \"persistent\", but got \""
                       << grid << "\"";
  if (numCtas < 1 || numCtas > kMaxClusterCtas || !llvm::isPowerOf2_64(numCtas))
    return emitError() << "num_ctas must be a power of two from 1 to "
                       << kMaxClusterCtas << ", but got " << numCtas;
  if (numCtas > 1 && grid != "rows")
    return emitError() << "num_ctas = " << numCtas
                       << " needs grid = \"rows\": a persistent grid of "
                          "clusters is not supported";
  return success();
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

static LogicalResult verifyKernelAttr(Operation *op, Attribute value) {
  if (!isa<KernelAttr>(value))
    return op->emitError() << "'blk.kernel' must be a #blk.kernel<...> "
                              "attribute, but got "
                           << value;
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

static LogicalResult verifyLaunchAttr(Operation *op, Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  if (!isa<ModuleOp>(op) || !list ||
      !llvm::all_of(list, [](Attribute a) { return isa<LaunchAttr>(a); }))
    return op->emitError() << "'blk.launch' must be a list of #blk.launch "
                              "attributes on a builtin.module";
  return success();
}

static LogicalResult verifyVectorAttr(Operation *op, Attribute value) {
  auto width = dyn_cast<IntegerAttr>(value);
  if (!isa<MemoryAccessOpInterface>(op) || !width || width.getInt() < 1 ||
      !llvm::isPowerOf2_64(width.getInt()))
    return op->emitError() << "'blk.vector' must be a positive power of two "
                              "on a blk.load or blk.store, but got "
                           << value;
  return success();
}

LogicalResult BlkDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getKernelAttrName())
    return verifyKernelAttr(op, attr.getValue());
  if (name == getLaunchAttrName())
    return verifyLaunchAttr(op, attr.getValue());
  if (name == getVectorAttrName())
    return verifyVectorAttr(op, attr.getValue());
  return op->emitError() << "'" << name
                         << "' is not an operation attribute of the blk "
                            "dialect (expected 'blk.kernel', 'blk.launch' or "
                            "'blk.vector')";
}

static LogicalResult verifyDivisibilityAttr(Operation *op, unsigned argIndex,
                                            Attribute value, Type argType) {
  auto divisibility = dyn_cast<IntegerAttr>(value);
  if (!divisibility || divisibility.getInt() < 1 ||
      !llvm::isPowerOf2_64(divisibility.getInt()))
    return op->emitError() << "blk.divisibility of argument #" << argIndex
                           << " must be a positive power of two, but got "
                           << value;
  if (!isa<PtrType, IntegerType, IndexType>(argType))
    return op->emitError() << "blk.divisibility applies to pointer and "
                              "integer arguments, but argument #"
                           << argIndex << " has type " << argType;
  return success();
}

static LogicalResult verifyScratchAttr(Operation *op, unsigned argIndex,
                                       Attribute value, Type argType) {
  auto kind = dyn_cast<StringAttr>(value);
  if (!kind || (kind.getValue() != "rows" && kind.getValue() != "matrix"))
    return op->emitError() << "blk.scratch of argument #" << argIndex
                           << " must be \"rows\" (one element per row) or "
                              "\"matrix\" (n_rows x n_cols), but got "
                           << value;
  if (!isa<PtrType>(argType))
    return op->emitError() << "blk.scratch applies to pointer arguments, but "
                              "argument #"
                           << argIndex << " has type " << argType;
  return success();
}

LogicalResult BlkDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  // Argument attributes exist only on function-like ops.
  Type argType = cast<FunctionOpInterface>(op).getArgumentTypes()[argIndex];
  if (attr.getName() == getDivisibilityAttrName())
    return verifyDivisibilityAttr(op, argIndex, attr.getValue(), argType);
  if (attr.getName() == getScratchAttrName())
    return verifyScratchAttr(op, argIndex, attr.getValue(), argType);
  return op->emitError() << "'" << attr.getName().getValue()
                         << "' is not an argument attribute of the blk "
                            "dialect (expected 'blk.divisibility' or "
                            "'blk.scratch')";
}
