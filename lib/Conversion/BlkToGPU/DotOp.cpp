//===- DotOp.cpp - blk.dot: wgmma, mma.sync, or f32 products --------------===//
//
// A and B of a blk.dot arrive in layouts of their own (blk-distribute gives
// their loads coalesced ones) and meet in the dot's own region of the
// kernel's dynamic shared memory (placed by planSharedMemory): each thread
// stores the elements it holds (the first holder of a replicated element
// only), runs of them as vector stores, and the product is made from
// there. getDotPath chooses how:
//
// - wgmma (sm_90a, the accumulator laid out for it: fitsWgmma,
//   Distribution.h). A and B are stored as 128-byte-swizzled panels (A's
//   rows permuted to the accumulator's, getWgmmaRowRotation), fenced for the
//   asynchronous proxy; each warpgroup issues m64nNk16 products for its
//   64-row tiles of the accumulator, which stays in registers, from matrix
//   descriptors, and waits for them at the end of the dot.
// - mma.sync (f16 or bf16 inputs on sm_80+, M, N, K multiples of 16, 8,
//   16; f32 inputs of precision tf32, m16n8k8, multiples of 16, 8, 8). A
//   (M x K) and B (K x N) are stored row-major with padded rows, and the
//   fragments read by ldmatrix (B's transposed, or for tf32 by 32-bit
//   loads: MmaFragments says how lanes address them; PTX ISA, "Matrix
//   Fragments for mma.m16n8k16 with floating point type", and for
//   mma.m16n8k8 .tf32). Where the accumulator's layout holds mma
//   fragments (holdsMmaFragments, what blk-distribute chooses for such a
//   dot), each thread's elements are its fragments: they stay in
//   registers, each warp multiplying its own tiles of C, the K steps in
//   ascending order. Otherwise the accumulator goes through the region too
//   (M x N f32): the warps take the 16 x 8 tiles of C in turn, and every
//   thread reads its elements back after a barrier.
// - f32 multiplies and adds otherwise: A (M x K) and B (K x N) are stored
//   as they are, and each thread computes its own accumulator elements, k
//   ascending, from the rows of A and the columns of B they need.
//
// A dot directly in a loop alternates between two copies of its region
// where the plan leaves room (getAlternationLoop), one barrier a K step.
// Where blk-pipeline-dot-operands copied A and B straight into rings of
// swizzled buffers, blk.warpgroup_dot takes the wgmma path from there
// (WarpgroupDotToWgmma), its products possibly left in flight until a
// blk.warpgroup_wait.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Bytes of padding after each row of A and B in shared memory: 16 bytes
/// shift each row by 4 banks, so that the 8 rows of an ldmatrix matrix (16
/// bytes each) and a warp's stores (rows of 4 lanes) fall on 32 different
/// banks. Unpadded rows of 64 bytes put 4 of them on the same banks, rows
/// of 128 bytes or more 8.
constexpr int64_t kRowPaddingBytes = 16;

struct DotShape {
  int64_t m, n, k;
  Type input;
  int64_t inputBytes;
  /// Whether A and B are stored as wgmma's swizzled panels (else row-major
  /// with padded rows).
  bool swizzled;
  /// Elements from one row of A (M x K) and B (K x N) to the next in
  /// shared memory, where they are row-major.
  int64_t aStride, bStride;
  /// How the inputs are multiplied: tf32 rounds f32 inputs.
  InputPrecision precision = InputPrecision::ieee;

  static DotShape get(DotOp op, DotPath path) {
    DotShape shape = get(op.getA().getType().getShape(),
                         op.getB().getType().getShape()[1],
                         op.getA().getType().getElementType(),
                         path == DotPath::wgmma);
    shape.precision = op.getPrecision();
    return shape;
  }
  /// A (`a`: M x K) times B (K x N) of `input` elements.
  static DotShape get(ArrayRef<int64_t> a, int64_t n, Type input,
                      bool swizzled) {
    int64_t bytes = input.getIntOrFloatBitWidth() / 8;
    int64_t padding = kRowPaddingBytes / bytes;
    return {a[0],  n,        a[1],           input,
            bytes, swizzled, a[1] + padding, n + padding};
  }
  bool isTf32() const { return precision == InputPrecision::tf32; }
  /// The K of one mma.sync (m16n8k16, or m16n8k8 for tf32).
  int64_t getMmaK() const { return mlir::blk::getMmaK(precision); }
  int64_t getABytes() const {
    return swizzled ? getSwizzledBlockBytes(m, k, inputBytes * 8)
                    : llvm::alignTo(m * aStride * inputBytes, kVectorBytes);
  }
  int64_t getBBytes() const {
    return swizzled ? getSwizzledBlockBytes(k, n, inputBytes * 8)
                    : llvm::alignTo(k * bStride * inputBytes, kVectorBytes);
  }
};

/// `base` + `bytes` (an i32), in shared memory.
Value createByteAddress(OpBuilder &b, Location loc, Value base, Value bytes) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{bytes});
}

/// The byte offset of the copy of a dot's region this iteration of `loop`
/// uses: `first` in even iterations, `second` (after it) in odd ones.
Value createCopyOffset(OpBuilder &b, Location loc, scf::ForOp loop,
                       int64_t first, int64_t second) {
  Value iteration = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, loop.getInductionVar(),
                            loop.getLowerBound()),
      loop.getStep());
  Value odd =
      arith::AndIOp::create(b, loc, iteration, createI32Constant(b, loc, 1));
  return createMulAdd(b, loc, odd, second - first,
                      createI32Constant(b, loc, first));
}

/// Where the thread's elements of a 2-D block lie in a row-major buffer that
/// holds element (r, c) at (r * rowStride + c) * elementBytes: the
/// thread's first element's byte offset, and each element's constant
/// distance from it.
struct ElementPlaces {
  Value threadBytes;
  SmallVector<int64_t> elementBytes;

  static ElementPlaces get(OpBuilder &b, Location loc,
                           const Distribution &distribution, ThreadIds ids,
                           int64_t rowStride, int64_t bytes) {
    SmallVector<Value> base = createThreadBase(b, loc, distribution, ids);
    ElementPlaces places;
    places.threadBytes = createMulAdd(
        b, loc, base[0], rowStride * bytes,
        createMulAdd(b, loc, base[1], bytes, Value()));
    for (int64_t k = 0; k < distribution.getNumElements(); ++k) {
      SmallVector<int64_t> offsets = distribution.getElementOffsets(k);
      places.elementBytes.push_back(
          (offsets[0] * rowStride + offsets[1]) * bytes);
    }
    return places;
  }

  Value createAddress(OpBuilder &b, Location loc, Value region,
                      int64_t k) const {
    Value bytes = arith::AddIOp::create(
        b, loc, threadBytes, createI32Constant(b, loc, elementBytes[k]));
    return createByteAddress(b, loc, region, bytes);
  }
};

/// Stores the thread's elements of a 2-D block (`vector`: the elements it
/// holds) at `addressOf`(k), the place of the run starting at element k;
/// where the block is replicated over threads, only the first holder of an
/// element stores it. Where the thread's runs go along `contiguousDim`
/// (the dimension consecutive in the buffer), each is one vector store of
/// up to `maxBytes`: a run starts at a multiple of its length, and rows
/// (columns) are whole runs. Elsewhere they go element by element.
void storeRuns(OpBuilder &b, Location loc, const Distribution &distribution,
               Value vector, int64_t maxBytes, int64_t contiguousDim,
               function_ref<Value(int64_t)> addressOf) {
  OpBuilder::InsertionGuard guard(b);
  if (Value first = createFirstHolderPredicate(b, loc, distribution)) {
    auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  Type element = cast<VectorType>(vector.getType()).getElementType();
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t run = distribution.getRunDim() == contiguousDim
                    ? distribution.getRunLength(contiguousDim)
                    : 1;
  int64_t width = 1;
  while (width * 2 <= run && width * 2 * bytes <= maxBytes)
    width *= 2;
  SmallVector<Value> elements = extractElements(b, loc, vector);
  auto runType = VectorType::get({width}, element);
  for (int64_t k = 0; k < int64_t(elements.size()); k += width) {
    Value value = width == 1 ? elements[k]
                             : vector::FromElementsOp::create(
                                   b, loc, runType,
                                   ArrayRef(elements).slice(k, width))
                                   .getResult();
    LLVM::StoreOp::create(b, loc, value, addressOf(k), width * bytes);
  }
}

/// Stores the thread's elements of a 2-D block row-major in `region`, rows
/// `rowStride` elements apart.
void storeBlock(OpBuilder &b, Location loc, const Distribution &distribution,
                Value vector, Value region, ThreadIds ids, int64_t rowStride) {
  Type element = cast<VectorType>(vector.getType()).getElementType();
  ElementPlaces places =
      ElementPlaces::get(b, loc, distribution, ids, rowStride,
                         element.getIntOrFloatBitWidth() / 8);
  storeRuns(b, loc, distribution, vector, kVectorBytes, /*contiguousDim=*/1,
            [&](int64_t k) { return places.createAddress(b, loc, region, k); });
}

/// The thread's elements of an M x N f32 block, read from `region` (row
/// major).
Value loadBlock(OpBuilder &b, Location loc, const Distribution &distribution,
                VectorType type, Value region, ThreadIds ids, int64_t n) {
  ElementPlaces places =
      ElementPlaces::get(b, loc, distribution, ids, n, /*bytes=*/4);
  SmallVector<Value> elements;
  for (int64_t k = 0; k < distribution.getNumElements(); ++k)
    elements.push_back(LLVM::LoadOp::create(
        b, loc, b.getF32Type(), places.createAddress(b, loc, region, k),
        /*alignment=*/4));
  return vector::FromElementsOp::create(b, loc, type, elements);
}

/// The m16n8k16 fragments of a lane, read by ldmatrix from A (M x K) and B
/// (K x N), both row-major in shared memory, and their products. ldmatrix
/// reads 8 x 8 matrices of 16-bit values, each lane giving the address of
/// one row (16 bytes, 16-byte aligned: K and N are multiples of 8), and
/// hands lane 4 g + t the elements (g, 2t) and (g, 2t + 1) of each, the
/// first in the low half: A's four matrices (rows g and g + 8, k and
/// k + 8) are its four registers as mma takes them; B's two, loaded
/// transposed (.trans), give (k = 2t and 2t + 1, n = g), B's registers.
/// tf32 (m16n8k8): a row of 16 bytes is 4 f32, so the same ldmatrix hands
/// lane 4 g + t A's (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4), its
/// four registers; B's (k = t and t + 4, n = g) are two loads of 32 bits
/// (.trans moves 16-bit halves). Each is rounded to tf32 (cvt.rna).
class MmaFragments {
public:
  MmaFragments(OpBuilder &b, Location loc, const DotShape &shape,
               Value aRegion, Value bRegion, Value lane)
      : b(b), loc(loc), shape(shape), aRegion(aRegion), bRegion(bRegion) {
    group = arith::ShRUIOp::create(b, loc, lane, createI32Constant(b, loc, 2));
    inGroup =
        arith::AndIOp::create(b, loc, lane, createI32Constant(b, loc, 3));
    pairK = arith::ShLIOp::create(b, loc, inGroup,
                                  createI32Constant(b, loc, 1));
    // The row this lane addresses: row l mod 8 of matrix l / 8.
    rowInMatrix =
        arith::AndIOp::create(b, loc, lane, createI32Constant(b, loc, 7));
    matrix = arith::ShRUIOp::create(b, loc, lane, createI32Constant(b, loc, 3));
    bRow = arith::AndIOp::create(b, loc, lane, createI32Constant(b, loc, 15));
    // bf16 pairs go in as i32 (the NVVM op's bf16 operand type), f16 pairs
    // as vector<2xf16>.
    inI32 = shape.input.isBF16() || shape.isTf32();
    ptxType = shape.isTf32()         ? NVVM::MMATypes::tf32
              : shape.input.isBF16() ? NVVM::MMATypes::bf16
                                     : NVVM::MMATypes::f16;
    Type f32 = b.getF32Type();
    result = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                              {f32, f32, f32, f32});
  }

  /// g = lane / 4: the lane's row of C in a fragment (and g + 8).
  Value getGroup() const { return group; }
  /// 2t = 2 (lane mod 4): the lane's first column of C in a fragment.
  Value getPairK() const { return pairK; }

  /// A's 4 registers for the fragment whose row g is `rowBase` + g and row
  /// g + 8 is `rowBase` + g + `row8Offset`, K step `k0`: ldmatrix.x4,
  /// lane l addressing row l mod 8 of matrix l / 8 (matrices 1 and 3 the
  /// g + 8 rows, 2 and 3 the k + 8 columns).
  SmallVector<Value> loadA(Value rowBase, int64_t row8Offset, int64_t k0) {
    Value half = arith::AndIOp::create(b, loc, matrix,
                                       createI32Constant(b, loc, 1));
    Value row = arith::AddIOp::create(
        b, loc, createMulAdd(b, loc, half, row8Offset, rowInMatrix), rowBase);
    Value kHalf = arith::ShRUIOp::create(b, loc, matrix,
                                         createI32Constant(b, loc, 1));
    Value k = createMulAdd(b, loc, kHalf, shape.getMmaK() / 2,
                           createI32Constant(b, loc, k0));
    return loadMatrices(aRegion, createMulAdd(b, loc, row, shape.aStride, k), 4,
                        NVVM::MMALayout::row);
  }
  /// B's 2 registers for the fragment whose columns are `columnBase` ..
  /// + 7, K step `k0`: ldmatrix.x2.trans, lanes 0 to 15 addressing rows
  /// k0 .. k0 + 15 (lanes 16 to 31 the same: their addresses are unused).
  SmallVector<Value> loadB(Value columnBase, int64_t k0) {
    if (shape.isTf32())
      return loadTf32B(columnBase, k0);
    Value k = arith::AddIOp::create(b, loc, bRow, createI32Constant(b, loc, k0));
    return loadMatrices(bRegion,
                        createMulAdd(b, loc, k, shape.bStride, columnBase),
                        2, NVVM::MMALayout::col);
  }
  /// `c` + a b, the 4 accumulators of a fragment.
  SmallVector<Value> multiply(ArrayRef<Value> a, ArrayRef<Value> bRegisters,
                              ArrayRef<Value> c) {
    Value d = NVVM::MmaOp::create(
        b, loc, result, a, bRegisters, c, {kMmaM, kMmaN, shape.getMmaK()},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array{ptxType, ptxType},
        std::array{NVVM::MMALayout::row, NVVM::MMALayout::col});
    SmallVector<Value> sums;
    for (int64_t i = 0; i < 4; ++i)
      sums.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
    return sums;
  }

private:
  /// ldmatrix of `count` 8 x 8 matrices of 16-bit values, the lane's row at
  /// element `index` of `region` (`layout` col: transposed): a 32-bit
  /// register each, as mma takes it (i32 for bf16, vector<2xf16> for f16,
  /// an f32 rounded to tf32 in an i32 for tf32).
  SmallVector<Value> loadMatrices(Value region, Value index, int64_t count,
                                  NVVM::MMALayout layout) {
    Value bytes = arith::MulIOp::create(
        b, loc, index, createI32Constant(b, loc, shape.inputBytes));
    Type registers = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(count, b.getI32Type()));
    Value loaded = NVVM::LdMatrixOp::create(
        b, loc, registers, createByteAddress(b, loc, region, bytes),
        b.getI32IntegerAttr(count),
        NVVM::MMALayoutAttr::get(b.getContext(), layout),
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltTypeAttr::get(b.getContext(),
                                         NVVM::LdStMatrixEltType::B16));
    SmallVector<Value> values;
    for (int64_t i = 0; i < count; ++i) {
      Value value = LLVM::ExtractValueOp::create(b, loc, loaded, i);
      if (shape.isTf32())
        value = convertToTf32(
            LLVM::BitcastOp::create(b, loc, b.getF32Type(), value));
      else if (!inI32)
        value = LLVM::BitcastOp::create(
            b, loc, VectorType::get({2}, shape.input), value);
      values.push_back(value);
    }
    return values;
  }
  /// B's 2 tf32 registers for the fragment whose columns are `columnBase`
  /// .. + 7, K step `k0`: (k0 + t, g) and (k0 + t + 4, g).
  SmallVector<Value> loadTf32B(Value columnBase, int64_t k0) {
    Value column = arith::AddIOp::create(b, loc, columnBase, group);
    SmallVector<Value> values;
    for (int64_t half : {0, 1}) {
      Value k = arith::AddIOp::create(
          b, loc, inGroup,
          createI32Constant(b, loc, k0 + half * kMmaTf32K / 2));
      Value bytes = arith::MulIOp::create(
          b, loc, createMulAdd(b, loc, k, shape.bStride, column),
          createI32Constant(b, loc, shape.inputBytes));
      values.push_back(convertToTf32(LLVM::LoadOp::create(
          b, loc, b.getF32Type(), createByteAddress(b, loc, bRegion, bytes),
          /*alignment=*/4)));
    }
    return values;
  }
  /// `value` rounded to tf32 (to nearest, ties away from zero), as the i32
  /// mma takes.
  Value convertToTf32(Value value) {
    return NVVM::ConvertFloatToTF32Op::create(
        b, loc, b.getI32Type(), value, NVVM::FPRoundingMode::RNA,
        NVVM::SaturationMode::NONE, /*relu=*/false);
  }

  OpBuilder &b;
  Location loc;
  const DotShape &shape;
  Value aRegion, bRegion, group, inGroup, pairK, rowInMatrix, matrix, bRow;
  Type result;
  /// Whether mma takes the inputs as i32 (bf16 pairs, tf32), else as
  /// vector<2xf16>.
  bool inI32;
  NVVM::MMATypes ptxType;
};

/// The mma.sync products (m16n8k16, or m16n8k8 for tf32) of one warp's
/// tiles of C, from A, B and C (M x N f32) in shared memory; C's tiles are
/// updated in place.
void createMmaTiles(OpBuilder &b, Location loc, const DotShape &shape,
                    Value aRegion, Value bRegion, Value cRegion, ThreadIds ids,
                    int64_t numWarps) {
  int64_t tilesN = shape.n / kMmaN;
  int64_t tiles = (shape.m / kMmaM) * tilesN;
  auto loop = scf::ForOp::create(b, loc, ids.warp,
                                 createI32Constant(b, loc, tiles),
                                 createI32Constant(b, loc, numWarps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  MmaFragments fragments(b, loc, shape, aRegion, bRegion, ids.lane);
  Value tile = loop.getInductionVar();
  Value tileM = arith::DivUIOp::create(b, loc, tile,
                                       createI32Constant(b, loc, tilesN));
  Value tileN = arith::RemUIOp::create(b, loc, tile,
                                       createI32Constant(b, loc, tilesN));
  // This lane's rows of A and C (g, g + 8), column of B (g) and columns of
  // C (2t, 2t + 1) in the tile.
  Value firstRow = arith::MulIOp::create(b, loc, tileM,
                                         createI32Constant(b, loc, kMmaM));
  Value firstColumn = arith::MulIOp::create(b, loc, tileN,
                                            createI32Constant(b, loc, kMmaN));
  Value row0 = arith::AddIOp::create(b, loc, firstRow, fragments.getGroup());
  Value row1 = arith::AddIOp::create(b, loc, row0,
                                     createI32Constant(b, loc, 8));
  Value colC = arith::AddIOp::create(b, loc, firstColumn, fragments.getPairK());

  auto cAddress = [&](Value row, int64_t column) {
    Value index = createMulAdd(
        b, loc, row, shape.n,
        arith::AddIOp::create(b, loc, colC,
                              createI32Constant(b, loc, column)));
    return createByteAddress(
        b, loc, cRegion,
        arith::MulIOp::create(b, loc, index, createI32Constant(b, loc, 4)));
  };
  SmallVector<Value> cAddresses = {cAddress(row0, 0), cAddress(row0, 1),
                                   cAddress(row1, 0), cAddress(row1, 1)};
  SmallVector<Value> c;
  for (Value address : cAddresses)
    c.push_back(LLVM::LoadOp::create(b, loc, b.getF32Type(), address,
                                     /*alignment=*/4));
  for (int64_t k0 = 0; k0 < shape.k; k0 += shape.getMmaK()) {
    SmallVector<Value> a = fragments.loadA(firstRow, 8, k0);
    SmallVector<Value> bRegisters = fragments.loadB(firstColumn, k0);
    c = fragments.multiply(a, bRegisters, c);
  }
  for (auto [value, address] : llvm::zip(c, cAddresses))
    LLVM::StoreOp::create(b, loc, value, address, /*alignment=*/4);
}

/// The dot on an accumulator held as mma fragments (holdsMmaFragments):
/// the thread of warp (w0, w1) holds rows 8 w0 + g + 8 wm i and columns
/// 8 w1 + 2t + 8 wn j (+ 0, 1); its rows 2p and 2p + 1 and columns j are a
/// fragment, multiplied K step by K step with A's rows and B's column
/// 8 w1 + g + 8 wn j. Returns the thread's new elements.
Value createMmaInRegisters(OpBuilder &b, Location loc, const DotShape &shape,
                           const Distribution &c, Value acc, Value aRegion,
                           Value bRegion, ThreadIds ids) {
  ArrayRef<int64_t> warps = c.getLayout().getWarps();
  int64_t wm = warps[0], wn = warps[1];
  MmaFragments fragments(b, loc, shape, aRegion, bRegion, ids.lane);
  Value warpN = arith::AndIOp::create(b, loc, ids.warp,
                                      createI32Constant(b, loc, wn - 1));
  Value warpM = arith::ShRUIOp::create(
      b, loc, ids.warp, createI32Constant(b, loc, llvm::Log2_64(wn)));
  Value firstRow = arith::MulIOp::create(b, loc, warpM,
                                         createI32Constant(b, loc, 8));
  Value firstColumn = arith::MulIOp::create(b, loc, warpN,
                                            createI32Constant(b, loc, 8));
  auto plus = [&](Value value, int64_t constant) -> Value {
    return arith::AddIOp::create(b, loc, value,
                                 createI32Constant(b, loc, constant));
  };
  int64_t rowPairs = c.getCount(0) / 2, columnTiles = c.getCount(1) / 2;
  SmallVector<Value> elements = extractElements(b, loc, acc);
  for (int64_t k0 = 0; k0 < shape.k; k0 += shape.getMmaK()) {
    SmallVector<SmallVector<Value>> aFragments, bFragments;
    for (int64_t p = 0; p < rowPairs; ++p)
      aFragments.push_back(
          fragments.loadA(plus(firstRow, 2 * p * 8 * wm), 8 * wm, k0));
    for (int64_t j = 0; j < columnTiles; ++j)
      bFragments.push_back(
          fragments.loadB(plus(firstColumn, j * 8 * wn), k0));
    for (int64_t p = 0; p < rowPairs; ++p)
      for (int64_t j = 0; j < columnTiles; ++j) {
        SmallVector<int64_t> indices = {
            c.getElementIndex({2 * p, 2 * j}),
            c.getElementIndex({2 * p, 2 * j + 1}),
            c.getElementIndex({2 * p + 1, 2 * j}),
            c.getElementIndex({2 * p + 1, 2 * j + 1})};
        SmallVector<Value> fragment;
        for (int64_t index : indices)
          fragment.push_back(elements[index]);
        for (auto [index, sum] : llvm::zip(
                 indices, fragments.multiply(aFragments[p], bFragments[j],
                                             fragment)))
          elements[index] = sum;
      }
  }
  return vector::FromElementsOp::create(b, loc, acc.getType(), elements);
}

//===----------------------------------------------------------------------===//
// wgmma (sm_90a)
//===----------------------------------------------------------------------===//

} // namespace

/// A run along a panel row is stored whole: it starts at a multiple of its
/// length and takes at most one 16-byte chunk, which the swizzle moves
/// whole.
void mlir::blk::storeSwizzled(OpBuilder &b, Location loc,
                              const Distribution &distribution, Value vector,
                              Value region, ThreadIds ids,
                              ArrayRef<int64_t> shape,
                              SwizzledSharedAttr encoding) {
  SmallVector<Value> base = createThreadBase(b, loc, distribution, ids);
  storeRuns(b, loc, distribution, vector, kVectorBytes,
            /*contiguousDim=*/encoding.getTransposed() ? 0 : 1, [&](int64_t k) {
              return createSwizzledRunAddress(b, loc, distribution, base, k,
                                              region, shape, encoding);
            });
}

namespace {

/// A wgmma's A: swizzled panels in shared memory at `region`, or the
/// thread's 16-bit elements of a block laid out as the accumulator
/// (`elements`, in `layout`), which are wgmma's fragments of A.
struct WgmmaA {
  Value region;
  SmallVector<Value> elements;
  std::optional<Distribution> layout;
};

/// The 4 registers of A's fragment for rows tile of a warpgroup's 64 and
/// the K step at `k0`: two 16-bit elements each, (g, 2t), (g + 8, 2t),
/// (g, 2t + 8), (g + 8, 2t + 8) from the step's first column, as the
/// accumulator's registers 8 s .. 8 s + 7 hold them (s = k0 / 16).
SmallVector<Value> packFragmentOfA(OpBuilder &b, Location loc, const WgmmaA &a,
                                   int64_t tile, int64_t k0) {
  auto elementOf = [&](int64_t r) {
    return a.layout->getElementIndex(
        {2 * tile + (r / 2) % 2, 2 * (r / 4) + r % 2});
  };
  Type pair = VectorType::get({2}, a.elements.front().getType());
  SmallVector<Value> registers;
  for (int64_t j = 0; j < 4; ++j) {
    int64_t r = 8 * (k0 / kWgmmaK) + 2 * j;
    Value packed = vector::FromElementsOp::create(
        b, loc, pair,
        ValueRange{a.elements[elementOf(r)], a.elements[elementOf(r + 1)]});
    registers.push_back(
        LLVM::BitcastOp::create(b, loc, b.getI32Type(), packed));
  }
  return registers;
}

/// Inline PTX that writes `count` f32 registers in place: outputs $0 ..
/// $count-1, each tied to the input of the same number, then `more` (the
/// constraints of the operands after them, "" for none). The asm has side
/// effects, so LLVM neither drops nor moves it.
Value createInPlaceF32Asm(OpBuilder &b, Location loc, Type type,
                          ValueRange operands, int64_t count,
                          const std::string &ptx, const std::string &more) {
  std::string constraints;
  for (int64_t r = 0; r < count; ++r)
    constraints += (r ? ",=f" : "=f");
  for (int64_t r = 0; r < count; ++r)
    constraints += "," + std::to_string(r);
  if (!more.empty())
    constraints += "," + more;
  return LLVM::InlineAsmOp::create(
             b, loc, type, operands, ptx, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
             ArrayAttr())
      .getResult(0);
}

/// One m64nNk16 wgmma whose A is in registers, as inline PTX (nvvm's
/// wgmma takes A from shared memory only): `fragment` (the accumulator's
/// registers, a struct) plus A times the B at `bDescriptor`, or with
/// `writes` A times B alone (scale-d false).
Value createRegisterAWgmma(OpBuilder &b, Location loc, Value fragment,
                           ArrayRef<Value> aRegisters, Value bDescriptor,
                           const DotShape &shape, bool writes, bool bKMajor) {
  auto structType = cast<LLVM::LLVMStructType>(fragment.getType());
  int64_t registers = structType.getBody().size();
  SmallVector<Value> operands;
  std::string accumulator;
  for (int64_t r = 0; r < registers; ++r) {
    accumulator += (r ? ", $" : "$") + std::to_string(r);
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, fragment, r));
  }
  llvm::append_range(operands, aRegisters);
  operands.push_back(bDescriptor);
  auto operand = [&](int64_t i) {
    return "$" + std::to_string(registers * 2 + i);
  };
  std::string type = shape.input.isBF16() ? "bf16" : "f16";
  std::string ptx =
      "{\n.reg .pred p;\nsetp.ne.b32 p, " + std::string(writes ? "0" : "1") +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(shape.n) +
      "k16.f32." + type + "." + type + " {" + accumulator + "}, {" +
      operand(0) + ", " + operand(1) + ", " + operand(2) + ", " + operand(3) +
      "}, " + operand(4) + ", p, 1, 1, " + (bKMajor ? "0" : "1") + ";\n}";
  return createInPlaceF32Asm(b, loc, structType, operands, registers, ptx,
                             "r,r,r,r,l");
}

/// Whether `acc` is a block of zeros: a constant, or a blk.splat of one.
bool isZeroBlock(Value acc) {
  if (auto splat = acc.getDefiningOp<SplatOp>())
    acc = splat.getSrc();
  return matchPattern(acc, m_AnyZeroFloat());
}

/// A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format") for the
/// panels at `address` in shared memory, 128-byte swizzle: the start
/// address, the leading and the stride dimension byte offsets, each in
/// 16-byte units.
Value createDescriptor(OpBuilder &b, Location loc, Value address,
                       int64_t leadingBytes, int64_t strideBytes) {
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  };
  Value start = LLVM::PtrToIntOp::create(b, loc, i64, address);
  start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, start, constant(0x3FFFF)),
      constant(4));
  constexpr int64_t kSwizzle128 = 1;
  int64_t fields = (leadingBytes >> 4) << 16 | (strideBytes >> 4) << 32 |
                   kSwizzle128 << 62;
  return arith::OrIOp::create(b, loc, start, constant(fields));
}

/// The descriptor of the panels `bytes` (a multiple of 16) past those of
/// `descriptor`: its start field plus bytes / 16. The field holds a shared
/// address below 2^18 and a CTA's shared memory is smaller, so the sum
/// never carries out of it (Triton offsets its descriptors the same way).
Value offsetDescriptor(OpBuilder &b, Location loc, Value descriptor,
                       int64_t bytes) {
  if (bytes == 0)
    return descriptor;
  return arith::AddIOp::create(
      b, loc, descriptor,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(bytes >> 4)));
}

/// The dot on wgmma, A and B stored by storeSwizzled (A's rows permuted by
/// getWgmmaRowRotation) and visible to the asynchronous proxy: each warpgroup
/// multiplies its 64-row tiles of the accumulator (m64nNk16, its elements
/// in registers as the thread holds them), K step by K step, and waits for
/// them before the dot's result is read. A's panels are K-major (64 K a
/// row; 8-row groups 1024 bytes apart; a K step starts 32 bytes on), B's
/// N-major (64 N a row, panels K x 128 bytes apart; a K step is 16 rows),
/// or with `bKMajor` arranged as A's (N rows of 64 K; wgmma reads it
/// without its transpose). Where `accIsZero`, the first K step writes its
/// products (scale-d false) and no register is set to 0 first (attention's
/// S = Q K^T).
Value createWgmma(OpBuilder &b, Location loc, const DotShape &shape,
                  const Distribution &c, Value acc, bool accIsZero,
                  const WgmmaA &a, Value bRegion, bool bKMajor, ThreadIds ids,
                  int64_t pending = 0) {
  int64_t warps = c.getLayout().getWarps()[0];
  int64_t warpgroups = warps / kWarpsPerWarpgroup;
  int64_t tilesPerGroup = shape.m / (kWgmmaM * warpgroups);
  Type f32 = b.getF32Type();
  int64_t registers = shape.n / 2;
  auto structType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(registers, f32));
  // Register r of a tile's fragment: columns 8 (r / 4) + 2t + r mod 2 of
  // row 8 (r / 2 mod 2) + g, the thread's rows 2 p and 2 p + 1.
  auto elementOf = [&](int64_t tile, int64_t r) {
    return c.getElementIndex({2 * tile + (r / 2) % 2, 2 * (r / 4) + r % 2});
  };
  SmallVector<Value> elements = extractElements(b, loc, acc);
  SmallVector<Value> fragments;
  for (int64_t tile = 0; tile < tilesPerGroup; ++tile) {
    Value fragment = LLVM::PoisonOp::create(b, loc, structType);
    for (int64_t r = 0; !accIsZero && r < registers; ++r)
      fragment = LLVM::InsertValueOp::create(b, loc, fragment,
                                             elements[elementOf(tile, r)], r);
    fragments.push_back(fragment);
  }
  Value group = arith::ShRUIOp::create(
      b, loc, ids.warp,
      createI32Constant(b, loc, llvm::Log2_64(kWarpsPerWarpgroup)));
  NVVM::WGMMATypes type =
      shape.input.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  auto instruction = NVVM::MMAShapeAttr::get(b.getContext(), kWgmmaM,
                                             shape.n, kWgmmaK);
  // A's registers are written before the fence that orders the writes
  // before the products (PTX, wgmma.fence): [K step][tile].
  SmallVector<SmallVector<SmallVector<Value>>> aRegisters;
  for (int64_t k0 = 0; !a.region && k0 < shape.k; k0 += kWgmmaK) {
    aRegisters.emplace_back();
    for (int64_t tile = 0; tile < tilesPerGroup; ++tile)
      aRegisters.back().push_back(packFragmentOfA(b, loc, a, tile, k0));
  }
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  int64_t panelsA = shape.m * kPanelRowBytes;
  int64_t panelsB = shape.n * kPanelRowBytes;
  // The descriptors of the first K step, each later one a constant past
  // them. The bytes from one K step to the next in K-major panels: 16
  // elements along a row, then the next panel.
  auto kMajorStep = [&](int64_t k0, int64_t panelBytes) {
    return (k0 / kWgmmaPanelElements) * panelBytes +
           (k0 % kWgmmaPanelElements) * shape.inputBytes;
  };
  Value firstB = createDescriptor(
      b, loc, createByteAddress(b, loc, bRegion, createI32Constant(b, loc, 0)),
      bKMajor ? 16 : shape.k * kPanelRowBytes, kSwizzleRepeatBytes);
  SmallVector<Value> firstA;
  for (int64_t tile = 0; a.region && tile < tilesPerGroup; ++tile) {
    // This group's tile: tile W/4 + group of the accumulator's rows.
    Value row = arith::MulIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, group,
                              createI32Constant(b, loc, tile * warpgroups)),
        createI32Constant(b, loc, kWgmmaM * kPanelRowBytes));
    firstA.push_back(
        createDescriptor(b, loc, createByteAddress(b, loc, a.region, row),
                         /*leadingBytes=*/16, kSwizzleRepeatBytes));
  }
  for (int64_t k0 = 0; k0 < shape.k; k0 += kWgmmaK) {
    Value bDescriptor = offsetDescriptor(
        b, loc, firstB,
        bKMajor ? kMajorStep(k0, panelsB) : k0 * kPanelRowBytes);
    int64_t kBytes = kMajorStep(k0, panelsA);
    bool writes = accIsZero && k0 == 0;
    for (int64_t tile = 0; tile < tilesPerGroup; ++tile) {
      if (!a.region) {
        fragments[tile] = createRegisterAWgmma(
            b, loc, fragments[tile], aRegisters[k0 / kWgmmaK][tile],
            bDescriptor, shape, writes, bKMajor);
        continue;
      }
      Value aDescriptor = offsetDescriptor(b, loc, firstA[tile], kBytes);
      fragments[tile] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, structType, fragments[tile], aDescriptor, bDescriptor,
          instruction, type, type, NVVM::WGMMATypes::f32,
          writes ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one,
          NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
          bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          /*satfinite=*/nullptr);
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
  for (int64_t tile = 0; tile < tilesPerGroup; ++tile)
    for (int64_t r = 0; r < registers; ++r)
      elements[elementOf(tile, r)] =
          LLVM::ExtractValueOp::create(b, loc, fragments[tile], r);
  return vector::FromElementsOp::create(b, loc, acc.getType(), elements);
}

/// Each thread's accumulator elements += the products of its rows of A and
/// columns of B, k ascending, from A (M x K) and B (K x N) in shared
/// memory.
Value createScalarProduct(OpBuilder &b, Location loc, const DotShape &shape,
                       const Distribution &c, Value acc, Value aRegion,
                       Value bRegion, ThreadIds ids) {
  SmallVector<Value> base = createThreadBase(b, loc, c, ids);
  SmallVector<Value> rows, cols;
  for (int64_t i = 0; i < c.getCount(0); ++i)
    rows.push_back(arith::AddIOp::create(
        b, loc, base[0],
        createI32Constant(b, loc,
                          c.getElementOffsets(c.getElementIndex({i, 0}))[0])));
  for (int64_t j = 0; j < c.getCount(1); ++j)
    cols.push_back(arith::AddIOp::create(
        b, loc, base[1],
        createI32Constant(b, loc,
                          c.getElementOffsets(c.getElementIndex({0, j}))[1])));

  Type f32 = b.getF32Type();
  auto loadInput = [&](Value region, Value index) -> Value {
    Value bytes = arith::MulIOp::create(
        b, loc, index, createI32Constant(b, loc, shape.inputBytes));
    Value value = LLVM::LoadOp::create(
        b, loc, shape.input, createByteAddress(b, loc, region, bytes),
        shape.inputBytes);
    if (shape.isTf32())
      return createTf32Rounding(b, loc, value);
    return shape.input == f32 ? value
                              : arith::ExtFOp::create(b, loc, f32, value);
  };
  auto loop = scf::ForOp::create(b, loc, createI32Constant(b, loc, 0),
                                 createI32Constant(b, loc, shape.k),
                                 createI32Constant(b, loc, 1),
                                 extractElements(b, loc, acc));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value k = loop.getInductionVar();
  SmallVector<Value> aValues, bValues;
  for (Value row : rows)
    aValues.push_back(
        loadInput(aRegion, createMulAdd(b, loc, row, shape.aStride, k)));
  for (Value col : cols)
    bValues.push_back(
        loadInput(bRegion, createMulAdd(b, loc, k, shape.bStride, col)));
  SmallVector<Value> sums(loop.getRegionIterArgs());
  for (auto [i, aValue] : llvm::enumerate(aValues))
    for (auto [j, bValue] : llvm::enumerate(bValues)) {
      int64_t index = c.getElementIndex({int64_t(i), int64_t(j)});
      // The product rounded to f32, then the sum (blk.dot's values, the
      // CPU's and the float64 reference's): an fma would skip the
      // product's rounding, and where it overflows give a finite sum for
      // the reference's inf (the GPU test's special values found it).
      Value product = arith::MulFOp::create(b, loc, aValue, bValue);
      sums[index] = arith::AddFOp::create(b, loc, sums[index], product);
    }
  scf::YieldOp::create(b, loc, sums);
  b.setInsertionPointAfter(loop);
  return vector::FromElementsOp::create(b, loc, acc.getType(),
                                        loop.getResults());
}

/// What every path of a dot's lowering takes: the operands' layouts and
/// (converted) values, the thread's ids, and where A and B go in the dot's
/// region.
struct DotOperands {
  Distribution a, b, c;
  Value aValue, bValue, acc;
  ThreadIds ids;
  Value aRegion, bRegion;
  /// A is the same in every iteration of the dot's loop and was stored
  /// before it (getInvariantALoop): the loop stores B alone.
  bool aStored = false;
  /// The accumulator is a splat of 0: the products need not add to it.
  bool accIsZero = false;
};

/// Stores A where the dot's path reads it from `region`.
void storeA(OpBuilder &b, Location loc, DotPath path, const DotShape &shape,
            const DotOperands &operands, Value region, ThreadIds ids) {
  if (path == DotPath::wgmma)
    storeSwizzled(b, loc, operands.a, operands.aValue, region, ids,
                  {shape.m, shape.k},
                  getWgmmaOperandEncoding(b.getContext(),
                                          operands.c.getLayout().getNumWarps(),
                                          /*operand=*/0));
  else
    storeBlock(b, loc, operands.a, operands.aValue, region, ids,
               shape.aStride);
}

/// What every thread wrote to shared memory (stores, and its cp.async
/// copies it waited for: both the generic proxy) made visible to the
/// asynchronous proxy that wgmma reads through, then a barrier: every
/// thread's writes are there for every warpgroup's products.
void createWgmmaOperandsBarrier(OpBuilder &b, Location loc) {
  MLIRContext *context = b.getContext();
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(b, loc);
}

/// The dot on wgmma: A and B stored as swizzled panels (A's rows permuted
/// by getWgmmaRowRotation; B K-major where its thread's runs go down its
/// columns, as K^T's from the rows of K do, so that they are stored whole),
/// made visible to wgmma, the products.
Value lowerToWgmma(OpBuilder &b, Location loc, const DotShape &shape,
                   const DotOperands &operands) {
  if (!operands.aStored)
    storeA(b, loc, DotPath::wgmma, shape, operands, operands.aRegion,
           operands.ids);
  bool bKMajor = operands.b.runsDownColumns();
  storeSwizzled(b, loc, operands.b, operands.bValue, operands.bRegion,
                operands.ids, {shape.k, shape.n},
                getWgmmaOperandEncoding(b.getContext(),
                                        operands.c.getLayout().getNumWarps(),
                                        /*operand=*/1, bKMajor));
  createWgmmaOperandsBarrier(b, loc);
  return createWgmma(b, loc, shape, operands.c, operands.acc,
                     operands.accIsZero, WgmmaA{operands.aRegion, {}, {}},
                     operands.bRegion, bKMajor, operands.ids);
}

/// The dot whose accumulator stays in the thread's registers: mma.sync on
/// its fragments, or (`scalar`) f32 multiplies and adds; A and B stored
/// row-major with padded rows.
Value lowerInRegisters(OpBuilder &b, Location loc, const DotShape &shape,
                       const DotOperands &operands, bool scalar) {
  if (!operands.aStored)
    storeA(b, loc, DotPath::scalar, shape, operands, operands.aRegion,
           operands.ids);
  storeBlock(b, loc, operands.b, operands.bValue, operands.bRegion,
             operands.ids, shape.bStride);
  gpu::BarrierOp::create(b, loc);
  return scalar ? createScalarProduct(b, loc, shape, operands.c,
                                      operands.acc,
                                      operands.aRegion, operands.bRegion,
                                      operands.ids)
                : createMmaInRegisters(b, loc, shape, operands.c,
                                       operands.acc,
                                       operands.aRegion, operands.bRegion,
                                       operands.ids);
}

/// The dot on mma.sync with its accumulator not held as fragments: C (M x
/// N f32) passes through the region after A and B, the warps take its
/// 16 x 8 tiles in turn, and every thread reads its elements back.
Value lowerThroughShared(OpBuilder &b, Location loc, const DotShape &shape,
                         const DotOperands &operands) {
  storeBlock(b, loc, operands.a, operands.aValue, operands.aRegion,
             operands.ids, shape.aStride);
  storeBlock(b, loc, operands.b, operands.bValue, operands.bRegion,
             operands.ids, shape.bStride);
  Value cRegion = createByteAddress(
      b, loc, operands.aRegion,
      createI32Constant(b, loc, shape.getABytes() + shape.getBBytes()));
  Value acc = operands.acc;
  storeBlock(b, loc, operands.c, acc, cRegion, operands.ids, shape.n);
  gpu::BarrierOp::create(b, loc);
  createMmaTiles(b, loc, shape, operands.aRegion, operands.bRegion, cRegion,
                 operands.ids, operands.c.getLayout().getNumWarps());
  gpu::BarrierOp::create(b, loc);
  return loadBlock(b, loc, operands.c, cast<VectorType>(acc.getType()),
                   cRegion, operands.ids, shape.n);
}

struct DotToGPU : public OpConversionPattern<DotOp> {
  DotToGPU(const TypeConverter &converter, MLIRContext *context,
           const WorkgroupPlan &plan, const TargetInfo &target)
      : OpConversionPattern(converter, context), plan(plan), target(target) {}

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    DotPath path = getDotPath(op, target);
    DotShape shape = DotShape::get(op, path);
    DotOperands operands{*Distribution::get(op.getA().getType()),
                         *Distribution::get(op.getB().getType()),
                         *Distribution::get(op.getAcc().getType()),
                         adaptor.getA(),
                         adaptor.getB(),
                         adaptor.getAcc(),
                         createThreadIds(rewriter, loc),
                         {},
                         {}};
    operands.accIsZero = isZeroBlock(op.getAcc());
    bool alternates = plan.secondCopyOffsetOf.contains(op);
    operands.aRegion = createRegion(rewriter, loc, op, alternates);
    operands.bRegion = createByteAddress(
        rewriter, loc, operands.aRegion,
        createI32Constant(rewriter, loc, shape.getABytes()));

    if (scf::ForOp loop = getInvariantALoop(op, path)) {
      storeABeforeLoop(rewriter, loc, op, path, shape, operands, loop,
                       alternates);
      operands.aStored = true;
    }

    // In a loop, the previous iteration's readers of the region must be
    // done before it is written again, unless iterations alternate copies
    // (getAlternationLoop says why they need not wait).
    if (!alternates && op->getParentOfType<LoopLikeOpInterface>())
      gpu::BarrierOp::create(rewriter, loc);
    switch (path) {
    case DotPath::wgmma:
      rewriter.replaceOp(op, lowerToWgmma(rewriter, loc, shape, operands));
      break;
    case DotPath::mmaInRegisters:
    case DotPath::scalar:
      rewriter.replaceOp(op, lowerInRegisters(rewriter, loc, shape, operands,
                                              path == DotPath::scalar));
      break;
    case DotPath::mmaThroughShared:
      rewriter.replaceOp(op, lowerThroughShared(rewriter, loc, shape, operands));
      break;
    }
    return success();
  }

  /// Stores A into every copy of the dot's region before `loop`, after a
  /// barrier: what shared memory held before the loop (a conversion's
  /// scratch may lie there) has been read by every thread. Attention's Q,
  /// the first product's A, was stored every K step and held in 32
  /// registers a thread across the loop.
  void storeABeforeLoop(OpBuilder &b, Location loc, DotOp op, DotPath path,
                        const DotShape &shape, const DotOperands &operands,
                        scf::ForOp loop, bool alternates) const {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop);
    gpu::BarrierOp::create(b, loc);
    ThreadIds ids = createThreadIds(b, loc);
    Value start = createDynamicSharedStart(b, loc, plan, op);
    SmallVector<int64_t> copies = {plan.stagedOffsetOf.lookup(op)};
    if (alternates)
      copies.push_back(plan.secondCopyOffsetOf.lookup(op));
    for (int64_t offset : copies)
      storeA(b, loc, path, shape, operands,
             createByteAddress(b, loc, start, createI32Constant(b, loc, offset)),
             ids);
  }

  /// The start of the copy of the dot's region this thread writes: the
  /// planned one, or in a loop that alternates copies, this iteration's.
  Value createRegion(OpBuilder &b, Location loc, DotOp op,
                     bool alternates) const {
    auto first = plan.stagedOffsetOf.find(op);
    assert(first != plan.stagedOffsetOf.end() && "a dot the plan did not see");
    Value offset =
        alternates ? createCopyOffset(b, loc,
                                      cast<scf::ForOp>(op->getParentOp()),
                                      first->second,
                                      plan.secondCopyOffsetOf.lookup(op))
                   : createI32Constant(b, loc, first->second);
    return createByteAddress(
        b, loc, createDynamicSharedStart(b, loc, plan, op), offset);
  }

  const WorkgroupPlan &plan;
  TargetInfo target;
};

/// blk.warpgroup_dot: A and B are in their #blk.swizzled buffers already
/// (the verifier checked their arrangement against the accumulator's).
struct WarpgroupDotToWgmma : public OpConversionPattern<WarpgroupDotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpgroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [aShape, aElement] = op.getAShape();
    DotShape shape = DotShape::get(aShape, op.getB().getType().getShape()[1],
                                   aElement, /*swizzled=*/true);
    WgmmaA a;
    if (auto aBlock = dyn_cast<RankedTensorType>(op.getA().getType())) {
      a.elements = extractElements(rewriter, loc, adaptor.getA());
      a.layout = *Distribution::get(aBlock);
    } else {
      a.region = adaptor.getA();
    }
    if (op.getSynchronize())
      createWgmmaOperandsBarrier(rewriter, loc);
    rewriter.replaceOp(
        op, createWgmma(rewriter, loc, shape,
                        *Distribution::get(op.getAcc().getType()),
                        adaptor.getAcc(), isZeroBlock(op.getAcc()), a,
                        adaptor.getB(),
                        op.getB().getType().getEncoding().getTransposed(),
                        createThreadIds(rewriter, loc), op.getPending()));
    return success();
  }
};

/// blk.warpgroup_wait: `wgmma.wait_group` as inline asm that takes every
/// element of the values and gives them back (tied registers, "+f"), so
/// that nothing reads them before the wait: with nvvm's wait, which
/// takes no operand, LLVM moved the epilogue's conversions of the
/// accumulator above it, and ptxas serialized every wgmma of the kernel
/// for the early reads (C7514).
struct WarpgroupWaitToWaitGroup : public OpConversionPattern<WarpgroupWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpgroupWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> elements;
    SmallVector<int64_t> counts;
    for (Value value : adaptor.getValues()) {
      SmallVector<Value> valueElements = extractElements(rewriter, loc, value);
      counts.push_back(valueElements.size());
      llvm::append_range(elements, valueElements);
    }
    SmallVector<Type> types;
    for (Value element : elements)
      types.push_back(element.getType());
    auto structType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), types);
    Value waited = createInPlaceF32Asm(
        rewriter, loc, structType, elements, elements.size(),
        "wgmma.wait_group.sync.aligned " + std::to_string(op.getPending()) +
            ";",
        "");
    SmallVector<Value> results;
    int64_t next = 0;
    for (auto [value, count] : llvm::zip(adaptor.getValues(), counts)) {
      SmallVector<Value> valueElements;
      for (int64_t i = 0; i < count; ++i)
        valueElements.push_back(
            LLVM::ExtractValueOp::create(rewriter, loc, waited, next++));
      results.push_back(vector::FromElementsOp::create(
          rewriter, loc, value.getType(), valueElements));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

DotPath mlir::blk::getDotPath(DotOp op, const TargetInfo &target) {
  if (!fitsMmaSync(op, target))
    return DotPath::scalar;
  FailureOr<Distribution> c = Distribution::get(op.getAcc().getType());
  if (failed(c) || !holdsMmaFragments(*c))
    return DotPath::mmaThroughShared;
  int64_t warps = c->getLayout().getNumWarps();
  return fitsWgmma(op, target, warps) &&
                 c->getLayout() ==
                     getWgmmaAccumulatorLayout(op.getContext(), warps)
             ? DotPath::wgmma
             : DotPath::mmaInRegisters;
}

int64_t mlir::blk::getDotSharedBytes(DotOp op, const TargetInfo &target) {
  DotPath path = getDotPath(op, target);
  DotShape shape = DotShape::get(op, path);
  int64_t bytes = shape.getABytes() + shape.getBBytes();
  if (path == DotPath::mmaThroughShared)
    bytes += llvm::alignTo(shape.m * shape.n * 4, kVectorBytes);
  return bytes;
}

int64_t mlir::blk::getDotSharedAlignment(DotOp op, const TargetInfo &target) {
  return getDotPath(op, target) == DotPath::wgmma ? kSwizzleRepeatBytes
                                                  : kVectorBytes;
}

scf::ForOp mlir::blk::getInvariantALoop(DotOp op, DotPath path) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  bool storesOperands = path == DotPath::wgmma ||
                        path == DotPath::mmaInRegisters ||
                        path == DotPath::scalar;
  if (!loop || !storesOperands)
    return {};
  // Asked during the conversion, where a block the conversion retyped (the
  // loop's body, carrying A as an iter_arg) may have no parent yet: only
  // an op outside the loop or an argument of a block outside it counts.
  Value a = op.getA();
  Operation *definer = a.getDefiningOp();
  if (!definer)
    if (Block *owner = cast<BlockArgument>(a).getOwner())
      definer = owner->getParentOp();
  if (!definer || loop->isAncestor(definer))
    return {};
  return loop;
}

scf::ForOp mlir::blk::getAlternationLoop(DotOp op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop || !loop.getInductionVar().getType().isInteger(32) ||
      loop->getParentOfType<LoopLikeOpInterface>())
    return {};
  return loop;
}

void mlir::blk::populateDotOpPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const WorkgroupPlan &plan,
                                      const TargetInfo &target) {
  patterns.add<DotToGPU>(converter, patterns.getContext(), plan, target);
  patterns.add<WarpgroupDotToWgmma, WarpgroupWaitToWaitGroup>(
      converter, patterns.getContext());
}
