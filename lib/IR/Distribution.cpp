//===- Distribution.cpp - which elements of a block each thread holds ----===//
#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"

using namespace mlir;
using namespace mlir::blk;

FailureOr<Distribution> Distribution::get(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return failure();
  Distribution result;
  result.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(tensor.getEncoding())) {
    if (blocked.getRank() != tensor.getRank())
      return failure();
    result.layout = blocked;
    return result;
  }
  auto slice = dyn_cast_or_null<SliceLayoutAttr>(tensor.getEncoding());
  if (!slice || slice.getParent().getRank() != tensor.getRank() + 1)
    return failure();
  result.layout = slice.getParent();
  result.slicedDim = slice.getDim();
  result.shape.insert(result.shape.begin() + slice.getDim(), 1);
  return result;
}

int64_t Distribution::getTile(int64_t d) const {
  return layout.getElems()[d] * layout.getLanes()[d] * layout.getWarps()[d] *
         layout.getCtasAlong(d);
}

int64_t Distribution::getRunDim() const {
  int64_t last = getRank() - 1;
  if (getRank() == 2 && !slicedDim && getCount(last) == 1 &&
      getRunLength(0) > 1)
    return 0;
  return last;
}

int64_t Distribution::getRunLength(int64_t d) const {
  return std::min(layout.getElems()[d], shape[d]);
}

int64_t Distribution::getCount(int64_t d) const {
  return std::max<int64_t>(1, shape[d] / getTile(d)) * getRunLength(d);
}

int64_t Distribution::getNumElements() const {
  int64_t count = 1;
  for (int64_t d = 0; d < getRank(); ++d)
    count *= getCount(d);
  return count;
}

int64_t Distribution::getDistinctThreads(int64_t d) const {
  int64_t threads =
      layout.getLanes()[d] * layout.getWarps()[d] * layout.getCtasAlong(d);
  return std::min(threads, std::max<int64_t>(1, shape[d] / getRunLength(d)));
}

int64_t Distribution::getLayoutDim(int64_t dim) const {
  return slicedDim && dim >= *slicedDim ? dim + 1 : dim;
}

ReduceSpread Distribution::getReduceSpread(int64_t axis) const {
  int64_t dim = getLayoutDim(axis);
  int64_t distinct = getDistinctThreads(dim);
  int64_t lanes = std::min(layout.getLanes()[dim], distinct);
  int64_t warps = std::min(layout.getWarps()[dim], distinct / lanes);
  return {dim, lanes, warps, distinct / (lanes * warps),
          getNumElements() / getCount(dim)};
}

SmallVector<int64_t> Distribution::getLocalIndices(int64_t k) const {
  SmallVector<int64_t> local(getRank());
  for (int64_t d = getRank() - 1; d >= 0; --d) {
    local[d] = k % getCount(d);
    k /= getCount(d);
  }
  return local;
}

int64_t Distribution::getElementIndex(ArrayRef<int64_t> local) const {
  int64_t k = 0;
  for (int64_t d = 0; d < getRank(); ++d)
    k = k * getCount(d) + local[d];
  return k;
}

SmallVector<int64_t> Distribution::getElementOffsets(int64_t k) const {
  SmallVector<int64_t> offsets = getLocalIndices(k);
  for (int64_t d = 0; d < getRank(); ++d) {
    int64_t run = getRunLength(d);
    offsets[d] = (offsets[d] / run) * getTile(d) + offsets[d] % run;
  }
  return offsets;
}

FailureOr<int64_t> mlir::blk::getKeptBlockBytes(RankedTensorType type) {
  FailureOr<Distribution> distribution = Distribution::get(type);
  if (failed(distribution))
    return failure();
  int64_t threads = kWarpSize * distribution->getLayout().getNumWarps();
  return distribution->getNumElements() * threads *
         type.getElementTypeBitWidth() / 8;
}

ConversionScratch ConversionScratch::get(RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t cols = shape.empty() ? 1 : shape.back();
  int64_t rows = type.getNumElements() / cols;
  int64_t elementBytes =
      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t rowPitch = cols;
  if (rows > 1 && cols * elementBytes % kSharedBankRowBytes == 0)
    rowPitch += kVectorBytes / elementBytes;
  return {rows, cols, rowPitch, elementBytes};
}

int64_t ConversionScratch::getOffset(ArrayRef<int64_t> blockCoords) const {
  // Blocks are 1-D or 2-D (blk-distribute checks).
  if (blockCoords.size() == 1)
    return blockCoords[0];
  return blockCoords[0] * rowPitch + blockCoords[1];
}

int64_t mlir::blk::getAccessVectorWidth(Operation *op,
                                        const Distribution &distribution) {
  auto width = op->getAttrOfType<IntegerAttr>(BlkDialect::getVectorAttrName());
  if (!width || distribution.getSlicedDim())
    return 1;
  int64_t run = distribution.getRunLength(distribution.getRunDim());
  return std::min(width.getInt(), run);
}

int64_t mlir::blk::getMmaK(InputPrecision precision) {
  return precision == InputPrecision::tf32 ? kMmaTf32K : kMmaK;
}

bool mlir::blk::fitsMmaSync(DotOp dot, const TargetInfo &target) {
  Type input = dot.getA().getType().getElementType();
  ArrayRef<int64_t> a = dot.getA().getType().getShape();
  int64_t n = dot.getB().getType().getShape()[1];
  bool staticShape = !ShapedType::isDynamic(a[0]) &&
                     !ShapedType::isDynamic(a[1]) && !ShapedType::isDynamic(n);
  bool tensorCoreInputs = input.isF16() || input.isBF16() ||
                          dot.getPrecision() == InputPrecision::tf32;
  return target.hasMmaSync() && tensorCoreInputs && staticShape &&
         a[0] % kMmaM == 0 && n % kMmaN == 0 && a[1] % getMmaK(dot) == 0;
}

std::optional<BlockedLayoutAttr> mlir::blk::getMmaAccumulatorLayout(
    MLIRContext *context, ArrayRef<std::pair<int64_t, int64_t>> accumulators,
    int64_t numWarps) {
  std::optional<BlockedLayoutAttr> best;
  int64_t fewestLoads = 0;
  for (int64_t wm = 1; wm <= numWarps; wm *= 2) {
    int64_t wn = numWarps / wm;
    int64_t loads = 0;
    bool splits = true;
    for (auto [m, n] : accumulators) {
      splits &= m % (kMmaM * wm) == 0 && n % (kMmaN * wn) == 0;
      // 32-bit loads a thread makes a K step: 4 for each fragment of A
      // (16 rows), 2 for each of B (8 columns).
      loads += 4 * (m / (kMmaM * wm)) + 2 * (n / (kMmaN * wn));
    }
    if (!splits || (best && loads >= fewestLoads))
      continue;
    fewestLoads = loads;
    best = BlockedLayoutAttr::get(context, {1, 2}, {8, 4}, {wm, wn}, {});
  }
  return best;
}

bool mlir::blk::holdsMmaFragments(const Distribution &distribution) {
  BlockedLayoutAttr layout = distribution.getLayout();
  if (distribution.getRank() != 2 || distribution.getSlicedDim() ||
      layout.getNumCtas() != 1 || layout.getElems() != ArrayRef<int64_t>{1, 2} ||
      layout.getLanes() != ArrayRef<int64_t>{8, 4})
    return false;
  ArrayRef<int64_t> shape = distribution.getShape();
  return shape[0] % (kMmaM * layout.getWarps()[0]) == 0 &&
         shape[1] % (kMmaN * layout.getWarps()[1]) == 0;
}

bool mlir::blk::fitsWgmma(DotOp dot, const TargetInfo &target,
                          int64_t numWarps) {
  if (!target.hasWgmma() || !fitsMmaSync(dot, target) ||
      dot.getPrecision() == InputPrecision::tf32 ||
      numWarps % kWarpsPerWarpgroup != 0)
    return false;
  ArrayRef<int64_t> a = dot.getA().getType().getShape();
  int64_t n = dot.getB().getType().getShape()[1];
  int64_t warpgroups = numWarps / kWarpsPerWarpgroup;
  return a[0] % (kWgmmaM * warpgroups) == 0 &&
         n % kWgmmaPanelElements == 0 && n <= kWgmmaMaxN &&
         a[1] % kWgmmaPanelElements == 0;
}

BlockedLayoutAttr mlir::blk::getWgmmaAccumulatorLayout(MLIRContext *context,
                                                       int64_t numWarps) {
  return BlockedLayoutAttr::get(context, {1, 2}, {8, 4}, {numWarps, 1}, {});
}

bool mlir::blk::holdsWgmmaFragmentsOfA(RankedTensorType a, int64_t numWarps) {
  FailureOr<Distribution> layout = Distribution::get(a);
  return succeeded(layout) && a.getRank() == 2 &&
         a.getElementType().isIntOrFloat() &&
         a.getElementTypeBitWidth() == 16 && a.getDimSize(1) % kWgmmaK == 0 &&
         layout->getLayout() ==
             getWgmmaAccumulatorLayout(a.getContext(), numWarps);
}

int64_t BitRotation::apply(int64_t value) const {
  int64_t field = getField();
  int64_t up = ((value & field) << 1) & field;
  int64_t around = (value & getTopBit()) >> (count - 1);
  return (value & ~field) | up | around;
}

BitRotation mlir::blk::getWgmmaRowRotation(int64_t numWarps) {
  // g is a fragment's 8 rows; then the warp's bits and h.
  return {3, llvm::Log2_64(numWarps) + 1};
}

SwizzledSharedAttr mlir::blk::getWgmmaOperandEncoding(MLIRContext *context,
                                                      int64_t numWarps,
                                                      int64_t operand,
                                                      bool kMajorB) {
  if (operand == 1)
    return SwizzledSharedAttr::get(context, 0, 0, kMajorB);
  BitRotation rotation = getWgmmaRowRotation(numWarps);
  return SwizzledSharedAttr::get(context, rotation.first, rotation.count,
                                 false);
}

std::optional<BitRotation>
mlir::blk::getRowRotation(SwizzledSharedAttr encoding) {
  if (encoding.getRotationBits() == 0)
    return std::nullopt;
  return BitRotation{encoding.getRotationFirst(), encoding.getRotationBits()};
}

std::optional<BitRotation> mlir::blk::getRowRotation(TensorMapType map) {
  if (map.getRotationBits() == 0)
    return std::nullopt;
  return BitRotation{map.getRotationFirst(), map.getRotationBits()};
}

int64_t mlir::blk::getSwizzledBlockBytes(int64_t rows, int64_t cols,
                                         int64_t elementBits) {
  return llvm::alignTo(rows * cols * elementBits / 8, kSwizzleRepeatBytes);
}

int64_t mlir::blk::getSwizzledSlotBytes(SharedType ring) {
  ArrayRef<int64_t> shape = ring.getShape();
  return getSwizzledBlockBytes(shape[shape.size() - 2], shape.back(),
                               ring.getElementType().getIntOrFloatBitWidth());
}

int64_t mlir::blk::getSwizzledBufferBytes(SharedType buffer) {
  ArrayRef<int64_t> shape = buffer.getShape();
  int64_t slots = shape.size() == 3 ? shape[0] : 1;
  return slots * getSwizzledSlotBytes(buffer);
}
