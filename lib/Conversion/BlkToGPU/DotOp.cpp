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
//   type"), so it is one aligned 32-bit load. The accumulator goes through
//   the region too (M x N f32): the warps take the 16 x 8 tiles of C in
//   turn, the K steps of a tile in ascending order, and every thread reads
//   its elements back after a barrier.
// - f32 multiplies and adds otherwise: A (M x K) and B (K x N) are stored
//   as they are, and each thread computes its own accumulator elements, k
//   ascending, from the rows of A and the columns of B they need.
//
// Layouts that keep the accumulator in mma fragments across a K loop (no
// round trip through shared memory) are issue 40's next step.
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

/// Fragment shape of mma.sync on 16-bit inputs.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;

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

/// The m16n8k16 products of one warp's tiles of C, from A (M x K, row
/// major), B transposed (N x K) and C (M x N f32) in shared memory; C's
/// tiles are updated in place.
void createMmaTiles(OpBuilder &b, Location loc, const DotShape &shape,
                    Value aRegion, Value bRegion, Value cRegion, ThreadIds ids,
                    int64_t numWarps) {
  Value lane = ids.lane;
  Value group = arith::ShRUIOp::create(b, loc, lane,
                                       createI32Constant(b, loc, 2));
  Value inGroup = arith::AndIOp::create(b, loc, lane,
                                        createI32Constant(b, loc, 3));
  Value pairK = arith::ShLIOp::create(b, loc, inGroup,
                                      createI32Constant(b, loc, 1));
  int64_t tilesN = shape.n / kMmaN;
  int64_t tiles = (shape.m / kMmaM) * tilesN;
  auto loop = scf::ForOp::create(b, loc, ids.warp,
                                 createI32Constant(b, loc, tiles),
                                 createI32Constant(b, loc, numWarps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value tile = loop.getInductionVar();
  Value tileM = arith::DivUIOp::create(b, loc, tile,
                                       createI32Constant(b, loc, tilesN));
  Value tileN = arith::RemUIOp::create(b, loc, tile,
                                       createI32Constant(b, loc, tilesN));
  // This lane's rows of A and C (g, g + 8), column of B (g) and columns of
  // C (2t, 2t + 1) in the tile.
  Value row0 = createMulAdd(b, loc, tileM, kMmaM, group);
  Value row1 = arith::AddIOp::create(b, loc, row0,
                                     createI32Constant(b, loc, 8));
  Value colB = createMulAdd(b, loc, tileN, kMmaN, group);
  Value colC = createMulAdd(b, loc, tileN, kMmaN, pairK);

  Type f32 = b.getF32Type();
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
    c.push_back(LLVM::LoadOp::create(b, loc, f32, address, /*alignment=*/4));

  // bf16 pairs go in as i32 (the NVVM op's bf16 operand type), f16 pairs
  // as vector<2xf16>.
  bool bf16 = shape.input.isBF16();
  Type pair = bf16 ? Type(b.getI32Type())
                   : Type(VectorType::get({2}, shape.input));
  NVVM::MMATypes ptxType = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 {f32, f32, f32, f32});
  // Element (r, k) of a buffer of rows of K 16-bit values.
  auto loadPair = [&](Value region, Value row, int64_t k0) {
    Value k = arith::AddIOp::create(b, loc, pairK,
                                    createI32Constant(b, loc, k0));
    Value index = createMulAdd(b, loc, row, shape.k, k);
    Value bytes = arith::MulIOp::create(
        b, loc, index, createI32Constant(b, loc, shape.inputBytes));
    return LLVM::LoadOp::create(b, loc, pair,
                                createByteAddress(b, loc, region, bytes),
                                /*alignment=*/4)
        .getResult();
  };
  for (int64_t k0 = 0; k0 < shape.k; k0 += kMmaK) {
    SmallVector<Value> a = {
        loadPair(aRegion, row0, k0), loadPair(aRegion, row1, k0),
        loadPair(aRegion, row0, k0 + 8), loadPair(aRegion, row1, k0 + 8)};
    SmallVector<Value> bFragment = {loadPair(bRegion, colB, k0),
                                    loadPair(bRegion, colB, k0 + 8)};
    Value d = NVVM::MmaOp::create(
        b, loc, result, a, bFragment, c, {kMmaM, kMmaN, kMmaK},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array{ptxType, ptxType},
        std::array{NVVM::MMALayout::row, NVVM::MMALayout::col});
    for (int64_t i = 0; i < 4; ++i)
      c[i] = LLVM::ExtractValueOp::create(b, loc, d, i);
  }
  for (auto [value, address] : llvm::zip(c, cAddresses))
    LLVM::StoreOp::create(b, loc, value, address, /*alignment=*/4);
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
  DotShape shape = DotShape::get(op);
  bool tensorCoreInputs = shape.input.isF16() || shape.input.isBF16();
  bool fragments = shape.m % kMmaM == 0 && shape.n % kMmaN == 0 &&
                   shape.k % kMmaK == 0;
  return tensorCoreInputs && fragments && target.hasMmaSync() ? DotPath::mma
                                                              : DotPath::scalar;
}

int64_t mlir::blk::getDotSharedBytes(DotOp op, const TargetInfo &target) {
  DotShape shape = DotShape::get(op);
  int64_t bytes =
      llvm::alignTo(shape.m * shape.k * shape.inputBytes, kVectorBytes) +
      llvm::alignTo(shape.k * shape.n * shape.inputBytes, kVectorBytes);
  if (getDotPath(op, target) == DotPath::mma)
    bytes += llvm::alignTo(shape.m * shape.n * 4, kVectorBytes);
  return bytes;
}

void mlir::blk::populateDotOpPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const WorkgroupPlan &plan,
                                      const TargetInfo &target) {
  patterns.add<DotToGPU>(converter, patterns.getContext(), plan, target);
}
