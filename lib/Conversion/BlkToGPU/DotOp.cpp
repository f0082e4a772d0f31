//===- DotOp.cpp - blk.dot: mma.sync, or f32 FMAs, through shared memory --===//
//
// The first GPU lowering of blk.dot keeps its operands and its accumulator
// in the kernel's #blk.blocked layout. The operands meet in the dot's own
// region of the kernel's dynamic shared memory (placed by
// planSharedMemory): each thread stores the elements it holds (the first
// holder of a replicated element only), and the product is made from there.
//
// - mma.sync (getDotPath: f16 or bf16 inputs on sm_80+, M, N, K multiples
//   of 16, 8, 16). A is stored row-major (M x K) and B transposed (N x K):
//   each 32-bit register of an m16n8k16 fragment holds two consecutive k
//   of one row of A or one column of B, the smaller k in the low half
//   (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point
//   type"), so it is one aligned 32-bit load. Where the accumulator's
//   layout holds mma fragments (holdsMmaFragments, what blk-distribute
//   chooses for such a kernel), each thread's elements are its fragments:
//   they stay in registers, each warp multiplying its own tiles of C, the
//   K steps in ascending order. Otherwise the accumulator goes through the
//   region too (M x N f32): the warps take the 16 x 8 tiles of C in turn,
//   and every thread reads its elements back after a barrier.
// - f32 multiplies and adds otherwise: A (M x K) and B (K x N) are stored
//   as they are, and each thread computes its own accumulator elements, k
//   ascending, from the rows of A and the columns of B they need.
//
// Operands staged once per K step by cp.async in swizzled shared memory,
// read by ldmatrix, and wgmma on sm_90 are issue 40's next steps.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

struct DotShape {
  int64_t m, n, k;
  Type input;
  int64_t inputBytes;

  static DotShape get(DotOp op) {
    ArrayRef<int64_t> a = op.getA().getType().getShape();
    Type input = op.getA().getType().getElementType();
    return {a[0], op.getB().getType().getShape()[1], a[1], input,
            input.getIntOrFloatBitWidth() / 8};
  }
};

LLVM::LLVMPointerType getSharedPointerType(MLIRContext *context) {
  return LLVM::LLVMPointerType::get(
      context, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
}

/// `base` + `bytes` (an i32), in shared memory.
Value createByteAddress(OpBuilder &b, Location loc, Value base, Value bytes) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{bytes});
}

Value createMulAdd(OpBuilder &b, Location loc, Value x, int64_t scale,
                   Value offset) {
  Value product = arith::MulIOp::create(b, loc, x,
                                        createI32Constant(b, loc, scale));
  return offset ? arith::AddIOp::create(b, loc, product, offset).getResult()
                : product;
}

/// Where the thread's elements of a 2-D block lie in a buffer that holds
/// element (r, c) at (r * rowStride + c * colStride) * elementBytes: the
/// thread's first element's byte offset, and each element's constant
/// distance from it.
struct ElementPlaces {
  Value threadBytes;
  SmallVector<int64_t> elementBytes;

  static ElementPlaces get(OpBuilder &b, Location loc,
                           const Distribution &distribution, ThreadIds ids,
                           int64_t rowStride, int64_t colStride,
                           int64_t bytes) {
    SmallVector<Value> base = createThreadBase(b, loc, distribution, ids);
    ElementPlaces places;
    places.threadBytes = createMulAdd(
        b, loc, base[0], rowStride * bytes,
        createMulAdd(b, loc, base[1], colStride * bytes, Value()));
    for (int64_t k = 0; k < distribution.getNumElements(); ++k) {
      SmallVector<int64_t> offsets = distribution.getElementOffsets(k);
      places.elementBytes.push_back(
          (offsets[0] * rowStride + offsets[1] * colStride) * bytes);
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
/// holds) at their places in `region`; where the block is replicated over
/// threads, only the first holder of an element stores it.
void storeBlock(OpBuilder &b, Location loc, const Distribution &distribution,
                Value vector, Value region, ThreadIds ids, int64_t rowStride,
                int64_t colStride) {
  OpBuilder::InsertionGuard guard(b);
  if (Value first = createFirstHolderPredicate(b, loc, distribution)) {
    auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  Type element = cast<VectorType>(vector.getType()).getElementType();
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  ElementPlaces places = ElementPlaces::get(b, loc, distribution, ids,
                                            rowStride, colStride, bytes);
  for (auto [k, value] : llvm::enumerate(extractElements(b, loc, vector)))
    LLVM::StoreOp::create(b, loc, value,
                          places.createAddress(b, loc, region, k), bytes);
}

/// The thread's elements of an M x N f32 block, read from `region` (row
/// major).
Value loadBlock(OpBuilder &b, Location loc, const Distribution &distribution,
                VectorType type, Value region, ThreadIds ids, int64_t n) {
  ElementPlaces places =
      ElementPlaces::get(b, loc, distribution, ids, n, 1, /*bytes=*/4);
  SmallVector<Value> elements;
  for (int64_t k = 0; k < distribution.getNumElements(); ++k)
    elements.push_back(LLVM::LoadOp::create(
        b, loc, b.getF32Type(), places.createAddress(b, loc, region, k),
        /*alignment=*/4));
  return vector::FromElementsOp::create(b, loc, type, elements);
}

/// The m16n8k16 fragments of a lane, read from A (M x K, row-major) and B
/// transposed (N x K) in shared memory, and their products.
class MmaFragments {
public:
  MmaFragments(OpBuilder &b, Location loc, const DotShape &shape,
               Value aRegion, Value bRegion, Value lane)
      : b(b), loc(loc), shape(shape), aRegion(aRegion), bRegion(bRegion) {
    group = arith::ShRUIOp::create(b, loc, lane, createI32Constant(b, loc, 2));
    Value inGroup =
        arith::AndIOp::create(b, loc, lane, createI32Constant(b, loc, 3));
    pairK = arith::ShLIOp::create(b, loc, inGroup,
                                  createI32Constant(b, loc, 1));
    // bf16 pairs go in as i32 (the NVVM op's bf16 operand type), f16 pairs
    // as vector<2xf16>.
    bool bf16 = shape.input.isBF16();
    pair = bf16 ? Type(b.getI32Type()) : Type(VectorType::get({2}, shape.input));
    ptxType = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    Type f32 = b.getF32Type();
    result = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                              {f32, f32, f32, f32});
  }

  /// g = lane / 4: the lane's row of A and C in a fragment (and g + 8),
  /// its column of B.
  Value getGroup() const { return group; }
  /// 2t = 2 (lane mod 4): the lane's first column of C in a fragment, its
  /// first k of A and B.
  Value getPairK() const { return pairK; }

  /// A's 4 registers for the fragment rows `row` (g) and `row8` (g + 8),
  /// K step `k0`.
  SmallVector<Value> loadA(Value row, Value row8, int64_t k0) {
    return {loadPair(aRegion, row, k0), loadPair(aRegion, row8, k0),
            loadPair(aRegion, row, k0 + 8), loadPair(aRegion, row8, k0 + 8)};
  }
  /// B's 2 registers for the fragment column `column` (g), K step `k0`.
  SmallVector<Value> loadB(Value column, int64_t k0) {
    return {loadPair(bRegion, column, k0), loadPair(bRegion, column, k0 + 8)};
  }
  /// `c` + a b, the 4 accumulators of a fragment.
  SmallVector<Value> multiply(ArrayRef<Value> a, ArrayRef<Value> bRegisters,
                              ArrayRef<Value> c) {
    Value d = NVVM::MmaOp::create(
        b, loc, result, a, bRegisters, c, {kMmaM, kMmaN, kMmaK},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array{ptxType, ptxType},
        std::array{NVVM::MMALayout::row, NVVM::MMALayout::col});
    SmallVector<Value> sums;
    for (int64_t i = 0; i < 4; ++i)
      sums.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
    return sums;
  }

private:
  /// Elements (row, k0 + 2t) and (row, k0 + 2t + 1) of a buffer of rows of
  /// K 16-bit values: one 32-bit load.
  Value loadPair(Value region, Value row, int64_t k0) {
    Value k = arith::AddIOp::create(b, loc, pairK,
                                    createI32Constant(b, loc, k0));
    Value index = createMulAdd(b, loc, row, shape.k, k);
    Value bytes = arith::MulIOp::create(
        b, loc, index, createI32Constant(b, loc, shape.inputBytes));
    return LLVM::LoadOp::create(b, loc, pair,
                                createByteAddress(b, loc, region, bytes),
                                /*alignment=*/4);
  }

  OpBuilder &b;
  Location loc;
  const DotShape &shape;
  Value aRegion, bRegion, group, pairK;
  Type pair, result;
  NVVM::MMATypes ptxType;
};

/// The m16n8k16 products of one warp's tiles of C, from A, B transposed
/// and C (M x N f32) in shared memory; C's tiles are updated in place.
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
  Value row0 = createMulAdd(b, loc, tileM, kMmaM, fragments.getGroup());
  Value row1 = arith::AddIOp::create(b, loc, row0,
                                     createI32Constant(b, loc, 8));
  Value colB = createMulAdd(b, loc, tileN, kMmaN, fragments.getGroup());
  Value colC = createMulAdd(b, loc, tileN, kMmaN, fragments.getPairK());

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
  for (int64_t k0 = 0; k0 < shape.k; k0 += kMmaK)
    c = fragments.multiply(fragments.loadA(row0, row1, k0),
                           fragments.loadB(colB, k0), c);
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
  Value firstRow = createMulAdd(b, loc, warpM, 8, fragments.getGroup());
  Value firstColumn = createMulAdd(b, loc, warpN, 8, fragments.getGroup());
  auto plus = [&](Value value, int64_t constant) -> Value {
    return arith::AddIOp::create(b, loc, value,
                                 createI32Constant(b, loc, constant));
  };
  int64_t rowPairs = c.getCount(0) / 2, columnTiles = c.getCount(1) / 2;
  SmallVector<Value> elements = extractElements(b, loc, acc);
  for (int64_t k0 = 0; k0 < shape.k; k0 += kMmaK) {
    SmallVector<SmallVector<Value>> aFragments, bFragments;
    for (int64_t p = 0; p < rowPairs; ++p) {
      Value row = plus(firstRow, 2 * p * 8 * wm);
      aFragments.push_back(fragments.loadA(row, plus(row, 8 * wm), k0));
    }
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
    aValues.push_back(loadInput(aRegion, createMulAdd(b, loc, row, shape.k, k)));
  for (Value col : cols)
    bValues.push_back(loadInput(bRegion, createMulAdd(b, loc, k, shape.n, col)));
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

struct DotToGPU : public OpConversionPattern<DotOp> {
  DotToGPU(const TypeConverter &converter, MLIRContext *context,
           const WorkgroupPlan &plan, const TargetInfo &target)
      : OpConversionPattern(converter, context), plan(plan), target(target) {}

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    DotShape shape = DotShape::get(op);
    Distribution a = *Distribution::get(op.getA().getType());
    Distribution bDistribution = *Distribution::get(op.getB().getType());
    Distribution c = *Distribution::get(op.getAcc().getType());
    DotPath path = getDotPath(op, target);
    ThreadIds ids = createThreadIds(rewriter, loc);

    LLVM::GlobalOp shared = plan.dynamicShared;
    Value region = createByteAddress(
        rewriter, loc,
        LLVM::AddressOfOp::create(rewriter, loc,
                                  getSharedPointerType(getContext()),
                                  shared.getSymName()),
        createI32Constant(rewriter, loc, plan.stagedOffsetOf.lookup(op)));
    int64_t aBytes = llvm::alignTo(shape.m * shape.k * shape.inputBytes,
                                   kVectorBytes);
    int64_t bBytes = llvm::alignTo(shape.k * shape.n * shape.inputBytes,
                                   kVectorBytes);
    Value aRegion = region;
    Value bRegion = createByteAddress(rewriter, loc, region,
                                      createI32Constant(rewriter, loc, aBytes));

    // In a loop, the previous iteration's readers of the region must be
    // done before it is written again.
    if (op->getParentOfType<LoopLikeOpInterface>())
      gpu::BarrierOp::create(rewriter, loc);
    storeBlock(rewriter, loc, a, adaptor.getA(), aRegion, ids, shape.k, 1);
    if (path == DotPath::scalar) {
      storeBlock(rewriter, loc, bDistribution, adaptor.getB(), bRegion, ids,
                 shape.n, 1);
      gpu::BarrierOp::create(rewriter, loc);
      rewriter.replaceOp(op, createScalarProduct(rewriter, loc, shape, c,
                                              adaptor.getAcc(), aRegion,
                                              bRegion, ids));
      return success();
    }
    // B transposed: element (k, n) at n * K + k.
    storeBlock(rewriter, loc, bDistribution, adaptor.getB(), bRegion, ids, 1,
               shape.k);
    if (path == DotPath::mmaInRegisters) {
      gpu::BarrierOp::create(rewriter, loc);
      rewriter.replaceOp(op, createMmaInRegisters(rewriter, loc, shape, c,
                                                  adaptor.getAcc(), aRegion,
                                                  bRegion, ids));
      return success();
    }
    Value cRegion = createByteAddress(
        rewriter, loc, region, createI32Constant(rewriter, loc, aBytes + bBytes));
    storeBlock(rewriter, loc, c, adaptor.getAcc(), cRegion, ids, shape.n, 1);
    gpu::BarrierOp::create(rewriter, loc);
    createMmaTiles(rewriter, loc, shape, aRegion, bRegion, cRegion, ids,
                   c.getLayout().getNumWarps());
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(
        op, loadBlock(rewriter, loc, c,
                      cast<VectorType>(adaptor.getAcc().getType()), cRegion,
                      ids, shape.n));
    return success();
  }

  const WorkgroupPlan &plan;
  TargetInfo target;
};

} // namespace

DotPath mlir::blk::getDotPath(DotOp op, const TargetInfo &target) {
  if (!fitsMmaSync(op, target))
    return DotPath::scalar;
  FailureOr<Distribution> c = Distribution::get(op.getAcc().getType());
  return succeeded(c) && holdsMmaFragments(*c) ? DotPath::mmaInRegisters
                                               : DotPath::mmaThroughShared;
}

int64_t mlir::blk::getDotSharedBytes(DotOp op, const TargetInfo &target) {
  DotShape shape = DotShape::get(op);
  int64_t bytes =
      llvm::alignTo(shape.m * shape.k * shape.inputBytes, kVectorBytes) +
      llvm::alignTo(shape.k * shape.n * shape.inputBytes, kVectorBytes);
  if (getDotPath(op, target) == DotPath::mmaThroughShared)
    bytes += llvm::alignTo(shape.m * shape.n * 4, kVectorBytes);
  return bytes;
}

void mlir::blk::populateDotOpPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const WorkgroupPlan &plan,
                                      const TargetInfo &target) {
  patterns.add<DotToGPU>(converter, patterns.getContext(), plan, target);
}
