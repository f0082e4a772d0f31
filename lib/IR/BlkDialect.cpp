//===- BlkDialect.cpp - blk dialect, types and attributes -----------------===//
#include "blk/IR/BlkDialect.h"
#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::blk;

#include "blk/IR/BlkOpsDialect.cpp.inc"
#include "blk/IR/BlkOpsEnums.cpp.inc"

#include "blk/IR/BlkInterfaces.cpp.inc"

/// `32768xbf16`: the dimensions of a static shape, then the element type.
static ParseResult parseStaticShape(AsmParser &parser,
                                    SmallVector<int64_t> &shape,
                                    Type &elementType) {
  return failure(parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
                 parser.parseType(elementType));
}

static void printStaticShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                             Type elementType) {
  for (int64_t dim : shape)
    printer << dim << 'x';
  printer << elementType;
}

#define GET_TYPEDEF_CLASSES
#include "blk/IR/BlkOpsTypes.cpp.inc"

LogicalResult
TensorMapType::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> box, Type elementType,
                      int64_t rotationFirst, int64_t rotationBits) {
  // cuTensorMapEncodeTiled: at most 256 elements a box dimension; the
  // 128-byte swizzle takes rows of at most 128 bytes.
  if (box.size() != 2 || llvm::any_of(box, [](int64_t dim) {
        return dim < 1 || dim > 256;
      }))
    return emitError() << "expected a box of 2 dimensions of 1 to 256 "
                          "elements, but got "
                       << box.size() << " dimension(s)";
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() != 16)
    return emitError() << "expected 16-bit elements, but got " << elementType;
  if (box[1] * 2 != kPanelRowBytes)
    return emitError() << "expected box rows of " << kPanelRowBytes
                       << " bytes (the swizzle's width), but got " << box[1]
                       << " elements of 2 bytes";
  // A rotated box is a whole block of 2^(first + bits) rows, the rotation's
  // top bit and at least one more within it.
  if (rotationBits != 0 &&
      (rotationFirst < 0 || rotationBits < 2 || rotationFirst + rotationBits > 8 ||
       box[0] != int64_t(1) << (rotationFirst + rotationBits)))
    return emitError() << "expected a rotation of 2 or more bits whose rows "
                          "make the box's "
                       << box[0] << ", but got rotation = [" << rotationFirst
                       << ", " << rotationBits << "]";
  return success();
}

LogicalResult
BarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                     int64_t count) {
  if (count < 1 || count > 8)
    return emitError() << "expected 1 to 8 barriers, but got " << count;
  return success();
}

/// A count (warps, CTAs, stages): MLIR's parseInteger also takes `true`
/// and `false`, as one-bit integers (`num_warps = true` was -1).
static ParseResult parseCount(AsmParser &parser, int64_t &count) {
  SMLoc at = parser.getCurrentLocation();
  StringRef word;
  if (succeeded(parser.parseOptionalKeyword(&word)))
    return parser.emitError(at)
           << "expected an integer, got '" << word << "'";
  return parser.parseInteger(count);
}

static void printCount(AsmPrinter &printer, int64_t count) { printer << count; }

/// `(, key = value)*` after num_warps, each key at most once, in any order:
/// `grid = rows|persistent`, `num_ctas = N`, `num_stages = N`,
/// `min_ctas_per_sm = N`, and the
/// constants' roles
/// `row_block = NAME`, `rows_per_program = NAME`, `row_splits = NAME`,
/// `inner_block = NAME`. Defaults are not printed.
static ParseResult parseKernelOptions(AsmParser &parser, GridKind &grid,
                                      int64_t &numCtas, int64_t &numStages,
                                      int64_t &minCtasPerSm,
                                      std::string &rowBlock,
                                      std::string &rowsPerProgram,
                                      std::string &rowSplits,
                                      std::string &innerBlock) {
  grid = GridKind::rows;
  numCtas = 1;
  numStages = 1;
  minCtasPerSm = 0;
  llvm::StringMap<std::string *> constantRoles = {
      {"row_block", &rowBlock},
      {"rows_per_program", &rowsPerProgram},
      {"row_splits", &rowSplits},
      {"inner_block", &innerBlock}};
  llvm::StringSet<> seen;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second || key == "num_warps")
      return parser.emitError(at) << "'" << key << "' is given twice";
    if (key == "grid") {
      StringRef value;
      SMLoc valueAt = parser.getCurrentLocation();
      if (parser.parseKeyword(&value))
        return failure();
      std::optional<GridKind> kind = symbolizeGridKind(value);
      if (!kind)
        return parser.emitError(valueAt)
               << "expected grid = rows or persistent, got '" << value << "'";
      grid = *kind;
    } else if (key == "num_ctas") {
      if (parseCount(parser, numCtas))
        return failure();
    } else if (key == "num_stages") {
      if (parseCount(parser, numStages))
        return failure();
    } else if (key == "min_ctas_per_sm") {
      if (parseCount(parser, minCtasPerSm))
        return failure();
    } else if (std::string *name = constantRoles.lookup(key)) {
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      *name = value.str();
    } else {
      return parser.emitError(at)
             << "expected 'grid', 'num_ctas', 'num_stages', "
                "'min_ctas_per_sm', 'row_block', 'rows_per_program', "
                "'row_splits' or 'inner_block', got '"
             << key << "'";
    }
  }
  return success();
}

static void printKernelOptions(AsmPrinter &printer, GridKind grid,
                               int64_t numCtas, int64_t numStages,
                               int64_t minCtasPerSm, StringRef rowBlock,
                               StringRef rowsPerProgram, StringRef rowSplits,
                               StringRef innerBlock) {
  if (grid != GridKind::rows)
    printer << ", grid = " << stringifyGridKind(grid);
  if (numCtas != 1)
    printer << ", num_ctas = " << numCtas;
  if (numStages != 1)
    printer << ", num_stages = " << numStages;
  if (minCtasPerSm != 0)
    printer << ", min_ctas_per_sm = " << minCtasPerSm;
  if (!rowBlock.empty())
    printer << ", row_block = " << rowBlock;
  if (!rowsPerProgram.empty())
    printer << ", rows_per_program = " << rowsPerProgram;
  if (!rowSplits.empty())
    printer << ", row_splits = " << rowSplits;
  if (!innerBlock.empty())
    printer << ", inner_block = " << innerBlock;
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
      pointeeType.isInteger(32) || pointeeType.isInteger(64))
    return success();
  return emitError() << "pointer element type must be f32, f16, bf16, i32 or "
                        "i64, "
                        "but got "
                     << pointeeType;
}

LogicalResult
SwizzledSharedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t rotationFirst, int64_t rotationBits,
                           bool transposed) {
  if (rotationFirst < 0 || rotationBits < 0 || rotationFirst > 30 ||
      rotationBits > 30 || rotationFirst + rotationBits > 30)
    return emitError() << "expected row bits to rotate within 0 .. 29, but "
                          "found rotation_first = "
                       << rotationFirst << ", rotation_bits = " << rotationBits;
  if (transposed && rotationBits)
    return emitError() << "expected no row rotation in a transposed swizzled "
                          "block (B read K-major), but found rotation_bits = "
                       << rotationBits;
  return success();
}

/// A #blk.swizzled block: 16-bit elements, whole panels of 64 columns (of
/// rows, transposed), rows (columns) in whole swizzle patterns of 8; a ring
/// of them is 3-D.
static LogicalResult
verifySwizzledShape(function_ref<InFlightDiagnostic()> emitError,
                    ArrayRef<int64_t> shape, Type elementType,
                    SwizzledSharedAttr encoding) {
  if (shape.size() != 2 && shape.size() != 3)
    return emitError() << "expected a swizzled block of 2 dimensions, or a "
                          "ring of them (3), but found "
                       << shape.size();
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  if (!elementType.isF16() && !elementType.isBF16())
    return emitError() << "expected f16 or bf16 elements in a swizzled "
                          "block, but found "
                       << elementType;
  if (encoding.getTransposed()) {
    if (rows % kWgmmaPanelElements != 0 || cols % 8 != 0)
      return emitError() << "expected a transposed swizzled block of rows a "
                            "multiple of "
                         << kWgmmaPanelElements
                         << " and columns a multiple of 8, but found " << rows
                         << "x" << cols;
    return success();
  }
  if (cols % kWgmmaPanelElements != 0 || rows % 8 != 0)
    return emitError() << "expected a swizzled block of rows a multiple of 8 "
                          "and columns a multiple of "
                       << kWgmmaPanelElements << ", but found " << rows << "x"
                       << cols;
  int64_t rotated = encoding.getRotationFirst() + encoding.getRotationBits();
  if (encoding.getRotationBits() && (int64_t(1) << rotated) > rows)
    return emitError() << "expected the rotated row bits within the block's "
                       << rows << " rows, but they reach bit " << rotated - 1;
  return success();
}

LogicalResult SharedType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 SwizzledSharedAttr encoding) {
  if (shape.empty() ||
      llvm::any_of(shape, [](int64_t dim) { return dim <= 0; }))
    return emitError() << "shared block must have a static shape of positive "
                          "dimensions";
  unsigned bits =
      elementType.isIntOrFloat() ? elementType.getIntOrFloatBitWidth() : 0;
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return emitError() << "shared block element type must be an integer or "
                          "float of 8, 16, 32 or 64 bits, but got "
                       << elementType;
  if (encoding)
    return verifySwizzledShape(emitError, shape, elementType, encoding);
  return success();
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
  if (laneCount != kWarpSize)
    return emitError() << "lanes must multiply to " << kWarpSize
                       << " (a warp), but multiply to "
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
                                 int64_t numWarps, GridKind grid,
                                 int64_t numCtas, int64_t numStages,
                                 int64_t minCtasPerSm, StringRef rowBlock,
                                 StringRef rowsPerProgram, StringRef rowSplits,
                                 StringRef innerBlock) {
  if (numWarps < 1 || numWarps > kMaxWarpsPerCta ||
      !llvm::isPowerOf2_64(numWarps))
    return emitError() << "num_warps must be a power of two from 1 to "
                       << kMaxWarpsPerCta << ", but got " << numWarps;
  if (numCtas < 1 || numCtas > kMaxClusterCtas || !llvm::isPowerOf2_64(numCtas))
    return emitError() << "num_ctas must be a power of two from 1 to "
                       << kMaxClusterCtas << ", but got " << numCtas;
  if (numStages < 1 || numStages > kMaxPipelineStages)
    return emitError() << "num_stages must be from 1 to " << kMaxPipelineStages
                       << ", but got " << numStages;
  if (minCtasPerSm < 0 || minCtasPerSm > ::blk::chip::kMaxCtasPerSm)
    return emitError() << "min_ctas_per_sm must be from 0 (ptxas's choice) to "
                       << ::blk::chip::kMaxCtasPerSm << ", but got "
                       << minCtasPerSm;
  if (minCtasPerSm * kWarpSize * numWarps > ::blk::chip::kMaxThreadsPerSm)
    return emitError() << "min_ctas_per_sm = " << minCtasPerSm << " CTAs of "
                       << numWarps << " warps is more than an SM's "
                       << ::blk::chip::kMaxThreadsPerSm << " threads";
  StringRef roles[] = {rowBlock, rowsPerProgram, rowSplits, innerBlock};
  for (unsigned i = 0; i < std::size(roles); ++i)
    for (unsigned j = i + 1; j < std::size(roles); ++j)
      if (!roles[i].empty() && roles[i] == roles[j])
        return emitError() << "compile-time constant '" << roles[i]
                           << "' is given two roles (row_block, "
                              "rows_per_program, row_splits, inner_block)";
  return success();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip, StringRef features) {
  llvm::Expected<TargetInfo> target = TargetInfo::get(chip, features);
  if (!target)
    return emitError() << llvm::toString(target.takeError());
  return success();
}

KernelAttr
KernelAttr::withLaunchShape(function_ref<InFlightDiagnostic()> emitError,
                            int64_t numWarps, int64_t numCtas,
                            int64_t numStages, int64_t minCtasPerSm) const {
  return getChecked(emitError, getContext(), numWarps, getGrid(), numCtas,
                    numStages, minCtasPerSm, getRowBlock(),
                    getRowsPerProgram(), getRowSplits(), getInnerBlock());
}

//===----------------------------------------------------------------------===//
// The kernel ABI
//===----------------------------------------------------------------------===//

/// Roles that name a tensor or a parameter.
static bool roleTakesName(ArgRole role) {
  return role != ArgRole::rows && role != ArgRole::cols &&
         role != ArgRole::inner && role != ArgRole::batch &&
         role != ArgRole::heads;
}

bool mlir::blk::isTensorRole(ArgRole role) {
  return role == ArgRole::input || role == ArgRole::output ||
         role == ArgRole::scratch;
}

bool ArgAttr::isTensor() const { return isTensorRole(getRole()); }

bool mlir::blk::hasRowStride(ArgExtent extent) {
  return extent != ArgExtent::per_row && extent != ArgExtent::per_col;
}

/// `<role ("name")? (, extent)?>`
Attribute ArgAttr::parse(AsmParser &parser, Type) {
  StringRef roleName;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&roleName))
    return {};
  std::optional<ArgRole> role = symbolizeArgRole(roleName);
  if (!role) {
    parser.emitError(at) << "expected an argument role (input, output, "
                            "scratch, row_stride, rows, cols, inner, param, "
                            "batch, heads, batch_stride, head_stride, "
                            "tensor_map), got '"
                         << roleName << "'";
    return {};
  }
  std::string name;
  (void)parser.parseOptionalString(&name);
  ArgExtent extent = ArgExtent::matrix;
  if (succeeded(parser.parseOptionalComma())) {
    StringRef extentName;
    SMLoc extentAt = parser.getCurrentLocation();
    if (parser.parseKeyword(&extentName))
      return {};
    std::optional<ArgExtent> parsed = symbolizeArgExtent(extentName);
    if (!parsed) {
      parser.emitError(extentAt) << "expected a tensor shape (matrix, "
                                    "per_row, per_col, rows_by_inner, "
                                    "inner_by_cols), got '"
                                 << extentName << "'";
      return {};
    }
    extent = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(at); },
                    parser.getContext(), *role, name, extent);
}

void ArgAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyArgRole(getRole());
  if (!getName().empty())
    printer << " \"" << getName() << "\"";
  if (getExtent() != ArgExtent::matrix)
    printer << ", " << stringifyArgExtent(getExtent());
  printer << ">";
}

LogicalResult ArgAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArgRole role, StringRef name, ArgExtent extent) {
  if (roleTakesName(role) && name.empty())
    return emitError() << "a " << stringifyArgRole(role)
                       << " argument needs a name, e.g. #blk.arg<"
                       << stringifyArgRole(role) << " \"x\">";
  if (!roleTakesName(role) && !name.empty())
    return emitError() << "the " << stringifyArgRole(role)
                       << " argument takes no name, but got \"" << name
                       << "\"";
  if (!isTensorRole(role) && extent != ArgExtent::matrix)
    return emitError() << "only tensors (input, output, scratch) have a "
                          "shape, but the "
                       << stringifyArgRole(role) << " argument has "
                       << stringifyArgExtent(extent);
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

ArgAttr mlir::blk::getArgAttr(func::FuncOp func, unsigned index) {
  return func.getArgAttrOfType<ArgAttr>(index, BlkDialect::getArgAttrName());
}

BlockArgument mlir::blk::findArgument(func::FuncOp func, ArgRole role,
                                      StringRef name) {
  for (BlockArgument argument : func.getArguments())
    if (ArgAttr declared = getArgAttr(func, argument.getArgNumber());
        declared && declared.getRole() == role && declared.getName() == name)
      return argument;
  return {};
}

TargetInfo mlir::blk::getTargetInfo(Operation *op) {
  Operation *top = op;
  while (Operation *parent = top->getParentOp())
    top = parent;
  // The attribute's verifier accepted its chip and features.
  if (auto target = top->getAttrOfType<TargetAttr>(
          BlkDialect::getTargetAttrName()))
    return llvm::cantFail(
        TargetInfo::get(target.getChip(), target.getFeatures()));
  return llvm::cantFail(TargetInfo::get(TargetInfo::kDefaultChip));
}

Operation *mlir::blk::getProgramDiagnosticAnchor(ModuleOp program) {
  for (auto func : program.getOps<func::FuncOp>())
    if (isKernel(func))
      return func;
  return program;
}

//===----------------------------------------------------------------------===//
// Attributes on other dialects' operations
//===----------------------------------------------------------------------===//

static bool isKernelArgumentType(Type type) {
  return isa<PtrType, TensorMapType, IntegerType, FloatType, IndexType>(type);
}

/// The declared arguments (blk.arg) of a kernel fit together: all or none
/// declared, at most one `rows`, `cols` and `inner`, names used once, and
/// every row_stride naming a two-dimensional tensor of the kernel.
static LogicalResult verifyKernelABI(func::FuncOp func) {
  SmallVector<ArgAttr> args;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    args.push_back(getArgAttr(func, i));
  unsigned declared = llvm::count_if(args, [](ArgAttr arg) { return bool(arg); });
  if (declared == 0)
    return success();
  llvm::StringMap<ArgAttr> byName;
  unsigned rows = 0, cols = 0, inner = 0, batch = 0, heads = 0;
  for (auto [index, arg] : llvm::enumerate(args)) {
    if (!arg)
      return func.emitError() << "kernel argument #" << index
                              << " declares no role (blk.arg), but others of @"
                              << func.getSymName()
                              << " do: declare every argument or none";
    rows += arg.getRole() == ArgRole::rows;
    cols += arg.getRole() == ArgRole::cols;
    inner += arg.getRole() == ArgRole::inner;
    batch += arg.getRole() == ArgRole::batch;
    heads += arg.getRole() == ArgRole::heads;
    if ((arg.isTensor() || arg.getRole() == ArgRole::param) &&
        !byName.try_emplace(arg.getName(), arg).second)
      return func.emitError() << "kernel argument #" << index << " declares \""
                              << arg.getName()
                              << "\", which another argument of @"
                              << func.getSymName() << " already names";
  }
  if (rows > 1 || cols > 1 || inner > 1 || batch > 1 || heads > 1)
    return func.emitError() << "kernel @" << func.getSymName()
                            << " declares " << rows << " rows, " << cols
                            << " cols, " << inner << " inner, " << batch
                            << " batch and " << heads
                            << " heads arguments; at most one of each";
  if (batch != heads)
    return func.emitError() << "kernel @" << func.getSymName() << " declares "
                            << batch << " batch and " << heads
                            << " heads arguments; a batch of problems takes "
                               "both";
  if (batch && llvm::any_of(args, [](ArgAttr arg) {
        return arg.getRole() == ArgRole::scratch;
      }))
    return func.emitError() << "kernel @" << func.getSymName()
                            << " takes a batch (batch, heads) and a scratch "
                               "tensor; scratch tensors are not kept per "
                               "problem of a batch";
  for (auto [index, arg] : llvm::enumerate(args)) {
    ArgRole role = arg.getRole();
    if (role != ArgRole::row_stride && role != ArgRole::batch_stride &&
        role != ArgRole::head_stride && role != ArgRole::tensor_map)
      continue;
    ArgAttr tensor = byName.lookup(arg.getName());
    bool ofMatrix = role == ArgRole::row_stride || role == ArgRole::tensor_map;
    if (ofMatrix &&
        (!tensor || !tensor.isTensor() || !hasRowStride(tensor.getExtent())))
      return func.emitError() << "kernel argument #" << index
                              << (role == ArgRole::row_stride
                                      ? " is the row stride of \""
                                      : " is a tensor map of \"")
                              << arg.getName() << "\", but @"
                              << func.getSymName()
                              << " has no matrix tensor of that name";
    if (!ofMatrix && (!tensor || !tensor.isTensor()))
      return func.emitError() << "kernel argument #" << index << " is the "
                              << stringifyArgRole(role) << " of \""
                              << arg.getName() << "\", but @"
                              << func.getSymName()
                              << " has no tensor of that name";
  }
  return success();
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
  if (func.isDeclaration())
    return op->emitError() << "kernel @" << func.getSymName()
                           << " has no body: a kernel must be defined";
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (!isKernelArgumentType(type))
      return op->emitError() << "kernel argument #" << index << " has type "
                             << type
                             << "; kernels take !blk.ptr pointers, "
                                "!blk.tensor_map descriptors and scalars";
    ArgAttr declared = getArgAttr(func, index);
    if (isa<TensorMapType>(type) &&
        (!declared || declared.getRole() != ArgRole::tensor_map))
      return op->emitError()
             << "kernel argument #" << index << " is a " << type
             << ", which needs #blk.arg<tensor_map \"x\"> naming the matrix "
                "the launcher describes";
  }
  auto kernel = cast<KernelAttr>(value);
  std::vector<std::string> used = getConstantNames(func);
  for (auto [role, name] :
       {std::pair<StringRef, StringRef>{"row_block", kernel.getRowBlock()},
        {"rows_per_program", kernel.getRowsPerProgram()},
        {"row_splits", kernel.getRowSplits()},
        {"inner_block", kernel.getInnerBlock()}})
    if (!name.empty() && !llvm::is_contained(used, name))
      return op->emitError() << role << " = " << name << ": kernel @"
                             << func.getSymName()
                             << " uses no compile-time constant of that name";
  return verifyKernelABI(func);
}

static LogicalResult verifyLaunchAttr(Operation *op, Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  auto isLaunch = [](Attribute a) {
    auto launch = dyn_cast<LaunchAttr>(a);
    return launch && (!launch.getTensorMaps() ||
                      llvm::all_of(launch.getTensorMaps(), [](Attribute map) {
                        auto tensorMap = dyn_cast<TensorMapAttr>(map);
                        return tensorMap && tensorMap.getBox().size() == 2;
                      }));
  };
  if (!isa<ModuleOp>(op) || !list || !llvm::all_of(list, isLaunch))
    return op->emitError() << "'blk.launch' must be a list of #blk.launch "
                              "attributes on a builtin.module, each tensor "
                              "map a #blk.tensor_map of a 2-D box";
  return success();
}

static LogicalResult verifyVectorAttr(Operation *op, Attribute value) {
  auto width = dyn_cast<IntegerAttr>(value);
  if (!isa<MemoryAccessOpInterface, AsyncCopyOp, AsyncCopyIntoOp>(op) || !width ||
      width.getInt() < 1 || !llvm::isPowerOf2_64(width.getInt()))
    return op->emitError() << "'blk.vector' must be a positive power of two "
                              "on a blk.load, blk.store, blk.async_copy or "
                              "blk.async_copy_into, "
                              "but got "
                           << value;
  return success();
}

static LogicalResult verifyRealignAttr(Operation *op, Attribute value) {
  if (!isa<MemoryAccessOpInterface>(op) || !isa<UnitAttr>(value) ||
      !op->hasAttr(BlkDialect::getVectorAttrName()))
    return op->emitError() << "'blk.realign' must be a unit attribute on a "
                              "blk.load or blk.store that has 'blk.vector', "
                              "but got "
                           << value << " on '" << op->getName() << "'";
  return success();
}

static LogicalResult verifyFallbackAttr(Operation *op, Attribute value) {
  if (!isa<MemoryAccessOpInterface>(op) || !isa<UnitAttr>(value))
    return op->emitError() << "'blk.fallback' must be a unit attribute on a "
                              "blk.load or blk.store, but got "
                           << value << " on '" << op->getName() << "'";
  return success();
}

LogicalResult BlkDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getKernelAttrName())
    return verifyKernelAttr(op, attr.getValue());
  if (name == getLaunchAttrName())
    return verifyLaunchAttr(op, attr.getValue());
  if (name == getTargetAttrName()) {
    if (!isa<ModuleOp>(op) || !isa<TargetAttr>(attr.getValue()))
      return op->emitError() << "'blk.target' must be a #blk.target on a "
                                "module, but got "
                             << attr.getValue() << " on '" << op->getName()
                             << "'";
    return success();
  }
  if (name == getTensorMapParamsAttrName()) {
    if (!isa<FunctionOpInterface>(op) || !isa<DenseI32ArrayAttr>(attr.getValue()))
      return op->emitError() << "'blk.tensor_map_params' must be an array "
                                "of i32 parameter indices on a function, but "
                                "got "
                             << attr.getValue() << " on '" << op->getName()
                             << "'";
    return success();
  }
  if (name == getVectorAttrName())
    return verifyVectorAttr(op, attr.getValue());
  if (name == getRealignAttrName())
    return verifyRealignAttr(op, attr.getValue());
  if (name == getFallbackAttrName())
    return verifyFallbackAttr(op, attr.getValue());
  if (name == getAccessRootAttrName() && isa<MemoryAccessOpInterface>(op) &&
      isa<IntegerAttr>(attr.getValue()))
    return success();
  if (name == getAccessAttrName() && isa<MemoryAccessOpInterface>(op) &&
      isa<IntegerAttr>(attr.getValue()))
    return success();
  if (name == getAccessesAttrName() && isa<ModuleOp>(op) &&
      isa<ArrayAttr>(attr.getValue()))
    return success();
  return op->emitError()
         << "'" << name
         << "' is not an operation attribute of the blk "
            "dialect (expected 'blk.kernel', 'blk.launch', 'blk.target', "
            "'blk.tensor_map_params' on a function, "
            "'blk.vector', 'blk.realign', 'blk.fallback', or 'blk.access' "
            "on a load or store and 'blk.accesses' on a module)";
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

static LogicalResult verifyArgAttr(Operation *op, unsigned argIndex,
                                   Attribute value, Type argType) {
  auto arg = dyn_cast<ArgAttr>(value);
  if (!arg)
    return op->emitError() << "blk.arg of argument #" << argIndex
                           << " must be a #blk.arg<...>, but got " << value;
  ArgRole role = arg.getRole();
  bool fits = arg.isTensor()                  ? isa<PtrType>(argType)
              : role == ArgRole::param        ? isa<IntegerType, FloatType>(argType)
              : role == ArgRole::tensor_map   ? isa<TensorMapType>(argType)
                                              : isa<IntegerType>(argType);
  if (!fits)
    return op->emitError() << "argument #" << argIndex << " is declared "
                           << value << ", which needs "
                           << (arg.isTensor()                ? "a !blk.ptr"
                               : role == ArgRole::param      ? "an integer or float"
                               : role == ArgRole::tensor_map ? "a !blk.tensor_map"
                                                             : "an integer")
                           << ", but has type " << argType;
  return success();
}

static LogicalResult verifyKeepF32Attr(Operation *op, unsigned argIndex,
                                       Attribute value, Type argType) {
  auto pointer = dyn_cast<PtrType>(argType);
  if (!isa<UnitAttr>(value) || !pointer || !pointer.getPointeeType().isF32())
    return op->emitError() << "blk.keep_f32 is a unit attribute of a "
                              "!blk.ptr<f32> argument, but argument #"
                           << argIndex << " has type " << argType
                           << " and the attribute " << value;
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
  if (attr.getName() == getArgAttrName())
    return verifyArgAttr(op, argIndex, attr.getValue(), argType);
  if (attr.getName() == getKeepF32AttrName())
    return verifyKeepF32Attr(op, argIndex, attr.getValue(), argType);
  return op->emitError() << "'" << attr.getName().getValue()
                         << "' is not an argument attribute of the blk "
                            "dialect (expected 'blk.divisibility', "
                            "'blk.arg' or 'blk.keep_f32')";
}

Type mlir::blk::withElementType(Type type, Type element) {
  if (auto block = dyn_cast<RankedTensorType>(type))
    return block.clone(element);
  return element;
}
