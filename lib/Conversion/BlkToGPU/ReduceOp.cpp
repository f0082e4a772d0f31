//===- ReduceOp.cpp - reductions across the threads of a program ----------===//
//
// Three levels, each only as far as the reduced dimension is spread:
//   1. inside a thread, over the elements it holds along the dimension
//      (16-bit floats' max and min two at a time, then widened: partials
//      narrower than 32 bits cross threads as f32 or i32, shuffles' width;
//      a narrow integer sum wraps the same either way);
//   2. across lanes, an xor-shuffle butterfly (every lane ends with the
//      result, and since each step combines a pair in both orders, they all
//      hold the same bits);
//   3. across warps, through workgroup memory: every thread writes its
//      partials, a barrier, every thread reads those of the warps that hold
//      other parts of its rows and combines them in the same order;
//   4. across the CTAs of a cluster, the same through distributed shared
//      memory: every thread writes its partials to its CTA's buffer, a
//      cluster barrier, every thread reads its own slot in the other CTAs'
//      buffers (mapa + ld.shared::cluster) and combines them in rank order,
//      so all CTAs hold the same bits; on clusters of 16 CTAs (TargetInfo's
//      kMinSharedReadClusterCtas) lane i reads CTA i's and a butterfly
//      combines them (one load a lane rather than 16). A CTA's buffer must
//      outlive the others' reads: a cluster barrier before the kernel
//      returns, and after the reads when the reduction sits in a loop. The
//      last such reduction outside loops arrives at the exit barrier right
//      after its reads, so the kernel's stores hide the wait.
// blk.max_exp_sum goes through the same levels with a pair for a partial:
// a thread's maximum m and its sum s of exp(x - m). Across lanes, the
// maxima's butterfly, then each s scaled once to the warp's maximum M and
// the sums' butterfly; across warps and CTAs, the pairs packed into one
// i64 (one 64-bit store and load through shared and distributed shared
// memory), M the max of all, and the sum of s exp(m - M). One barrier (or
// cluster barrier) where the two reductions it replaces had two.
// blk.sum_centered_squares likewise with four values: the count of a
// thread's lanes, their sum, their mean and their squares about it, merged
// as Chan, Golub and LeVeque's parallel variance (the sums add as
// blk.reduce's), packed into one i128 (a 16-byte store and load) across
// warps and CTAs.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Index of partial `slot` of the thread (warp, lane) in a buffer holding
/// `count` partials per thread.
Value createSlotIndex(OpBuilder &builder, Location loc, Value warp, Value lane,
                      int64_t count, int64_t slot) {
  Value thread = arith::OrIOp::create(
      builder, loc,
      arith::ShLIOp::create(builder, loc, warp,
                            createI32Constant(builder, loc, 5)),
      lane);
  return arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, thread,
                            createI32Constant(builder, loc, count)),
      createI32Constant(builder, loc, slot));
}

/// `index` with the bits that number the `size` positions along a dimension
/// of stride `stride` cleared: the coordinates along the other dimensions.
Value createOtherDims(OpBuilder &builder, Location loc, Value index,
                      int64_t stride, int64_t size) {
  return arith::AndIOp::create(
      builder, loc, index,
      createI32Constant(builder, loc, ~((size - 1) * stride)));
}

/// How the partials of a reduction travel between threads and combine
/// (levels 2 to 4): blk.reduce's elements themselves; blk.max_exp_sum's
/// (max, sum) pairs, packed into an i64. Level 1, a thread's own
/// elements, is each op's pattern.
struct Combiner {
  /// The type of a partial as it is exchanged.
  Type partialType;
  /// The `count` partials of all warps or CTAs, which `read(j)` reads
  /// (every thread in the same order), into one.
  std::function<Value(OpBuilder &, Location, int64_t,
                      function_ref<Value(int64_t)>)>
      combineAll;
  /// Butterflies over the lanes `offsets` (xor) apart: every lane ends with
  /// the same partials of them all.
  std::function<void(OpBuilder &, Location, MutableArrayRef<Value>,
                     ArrayRef<int64_t>)>
      acrossLanes;
};

/// Lane `lane ^ offset`'s partial.
Value shuffleXor(OpBuilder &builder, Location loc, Value partial,
                 Value offset) {
  Value width = createI32Constant(builder, loc, kWarpSize);
  return gpu::ShuffleOp::create(builder, loc, partial, offset, width,
                                gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

/// The butterfly with `combine` at each step.
Value butterfly(OpBuilder &builder, Location loc, Value partial,
                ArrayRef<int64_t> offsets,
                function_ref<Value(Value, Value)> combine) {
  for (int64_t offset : offsets)
    partial =
        combine(partial, shuffleXor(builder, loc, partial,
                                    createI32Constant(builder, loc, offset)));
  return partial;
}

/// Pairwise tree of `leaves` (at least one), for instruction-level
/// parallelism.
Value combineTree(OpBuilder &builder, Location loc, ArrayRef<Value> leaves,
                  function_ref<Value(Value, Value)> combine) {
  SmallVector<Value> values(leaves);
  while (values.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < values.size(); i += 2)
      next.push_back(combine(values[i], values[i + 1]));
    if (values.size() % 2)
      next.push_back(values.back());
    values = std::move(next);
  }
  return values.front();
}

/// `value` as a partial of the wider `partialType` (exactly), and back.
Value widenToPartial(OpBuilder &builder, Location loc, Value value,
                     Type partialType) {
  if (value.getType() == partialType)
    return value;
  if (isa<FloatType>(partialType))
    return arith::ExtFOp::create(builder, loc, partialType, value);
  return arith::ExtSIOp::create(builder, loc, partialType, value);
}
Value narrowFromPartial(OpBuilder &builder, Location loc, Value partial,
                        Type type) {
  if (partial.getType() == type)
    return partial;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(builder, loc, type, partial);
  return arith::TruncIOp::create(builder, loc, type, partial);
}

/// Level 1 of blk.reduce: a thread's `elements` of one result element,
/// combined with `kind` into one partial of `partialType`, a pairwise tree
/// for instruction-level parallelism. 16-bit floats' max and min go two
/// at a time (max.NaN.bf16x2 on sm_80+: no conversion per element) and widen
/// once; their sums, and narrow integers, widen every element.
Value reduceThreadElements(OpBuilder &builder, Location loc, ReduceKind kind,
                           ArrayRef<Value> elements, Type partialType) {
  auto combine = [&](Value lhs, Value rhs) {
    return ReduceOp::combine(builder, loc, kind, lhs, rhs);
  };
  auto widen = [&](Value value) {
    return widenToPartial(builder, loc, value, partialType);
  };
  Type element = elements.front().getType();
  if (element == partialType || !isa<FloatType>(element) ||
      kind == ReduceKind::sum || elements.size() < 2)
    return combineTree(builder, loc, llvm::map_to_vector(elements, widen),
                       combine);
  auto pairType = VectorType::get({2}, element);
  SmallVector<Value> pairs;
  for (size_t i = 0; i + 1 < elements.size(); i += 2)
    pairs.push_back(vector::FromElementsOp::create(
        builder, loc, pairType, ValueRange{elements[i], elements[i + 1]}));
  Value pair = combineTree(builder, loc, pairs, combine);
  Value result = combine(vector::ExtractOp::create(builder, loc, pair, 0),
                         vector::ExtractOp::create(builder, loc, pair, 1));
  if (elements.size() % 2)
    result = combine(result, elements.back());
  return widen(result);
}

/// blk.reduce's partials: combined with `kind`, the lanes of a butterfly
/// in both orders (so that they end with the same bits), the warps' and
/// CTAs' one by one in order.
Combiner getKindCombiner(ReduceKind kind, Type elementType) {
  return {elementType,
          [kind](OpBuilder &builder, Location loc, int64_t count,
                 function_ref<Value(int64_t)> read) {
            Value total = read(0);
            for (int64_t j = 1; j < count; ++j)
              total = ReduceOp::combine(builder, loc, kind, total, read(j));
            return total;
          },
          [kind](OpBuilder &builder, Location loc,
                 MutableArrayRef<Value> partials, ArrayRef<int64_t> offsets) {
            for (int64_t offset : offsets) {
              Value step = createI32Constant(builder, loc, offset);
              for (Value &partial : partials)
                partial =
                    ReduceOp::combine(builder, loc, kind, partial,
                                      shuffleXor(builder, loc, partial, step));
            }
          }};
}

Value packPair(OpBuilder &builder, Location loc, Value max, Value sum) {
  Value pair = vector::FromElementsOp::create(
      builder, loc, VectorType::get({2}, builder.getF32Type()),
      ValueRange{max, sum});
  return LLVM::BitcastOp::create(builder, loc, builder.getI64Type(), pair);
}

std::pair<Value, Value> unpackPair(OpBuilder &builder, Location loc,
                                   Value packed) {
  Value pair = LLVM::BitcastOp::create(
      builder, loc, VectorType::get({2}, builder.getF32Type()), packed);
  return {vector::ExtractOp::create(builder, loc, pair, 0),
          vector::ExtractOp::create(builder, loc, pair, 1)};
}

/// The maximum of a thread's elements of one result element, and the shift
/// its exps are computed against: the maximum, or 0 where it is -inf (only
/// -inf, padding past the row's end, adds exp(-inf - 0) = 0 rather than
/// NaN).
std::pair<Value, Value> createThreadMax(OpBuilder &builder, Location loc,
                                        ArrayRef<Value> elements) {
  Value max = combineTree(builder, loc, elements, [&](Value lhs, Value rhs) {
    return ReduceOp::combine(builder, loc, ReduceKind::max, lhs, rhs);
  });
  Value empty = arith::CmpFOp::create(
      builder, loc, arith::CmpFPredicate::OEQ, max,
      createF32Constant(builder, loc, -std::numeric_limits<float>::infinity()));
  Value shift = arith::SelectOp::create(
      builder, loc, empty, createF32Constant(builder, loc, 0.0f), max);
  return {max, shift};
}

/// The factor exps against `max` take to be against `total` >= max:
/// exp(max - total), and 1 where they are equal (infinite ones included,
/// where the difference would be NaN).
Value createRescale(OpBuilder &builder, Location loc, Value max, Value total) {
  Value same = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ,
                                     max, total);
  return arith::SelectOp::create(
      builder, loc, same, createF32Constant(builder, loc, 1.0f),
      createExp(builder, loc, arith::SubFOp::create(builder, loc, max, total)));
}

/// A sum of exps against `max` rescaled to `total` >= max.
Value scaleSum(OpBuilder &builder, Location loc, Value max, Value sum,
               Value total) {
  return arith::MulFOp::create(builder, loc, sum,
                               createRescale(builder, loc, max, total));
}

/// The pairs of all warps or CTAs: M = the max of their maxima first, then
/// the sum of s exp(m - M), whose exps are independent of each other (in
/// pairs folded one by one, each exp waited for the one before).
Value combineAllPairs(OpBuilder &builder, Location loc, int64_t count,
                      function_ref<Value(int64_t)> read) {
  std::pair<Value, Value> first = unpackPair(builder, loc, read(0));
  SmallVector<std::pair<Value, Value>> pairs{first};
  for (int64_t j = 1; j < count; ++j)
    pairs.push_back(unpackPair(builder, loc, read(j)));
  Value max = first.first;
  for (auto [m, s] : ArrayRef(pairs).drop_front())
    max = arith::MaximumFOp::create(builder, loc, max, m);
  Value sum;
  for (auto [m, s] : pairs) {
    Value term = scaleSum(builder, loc, m, s, max);
    sum =
        sum ? arith::AddFOp::create(builder, loc, sum, term).getResult() : term;
  }
  return packPair(builder, loc, max, sum);
}

/// Pairs across lanes: the maxima's butterfly, each lane's sum scaled to
/// the warp's maximum, the sums' butterfly. As many shuffles as pairs
/// combined at each step, and one exp instead of one a step.
Value pairAcrossLanes(OpBuilder &builder, Location loc, Value partial,
                      ArrayRef<int64_t> offsets) {
  auto [threadMax, threadSum] = unpackPair(builder, loc, partial);
  Value max =
      butterfly(builder, loc, threadMax, offsets, [&](Value lhs, Value rhs) {
        return arith::MaximumFOp::create(builder, loc, lhs, rhs).getResult();
      });
  Value sum = butterfly(
      builder, loc, scaleSum(builder, loc, threadMax, threadSum, max), offsets,
      [&](Value lhs, Value rhs) {
        return arith::AddFOp::create(builder, loc, lhs, rhs).getResult();
      });
  return packPair(builder, loc, max, sum);
}

Combiner getPairCombiner(MLIRContext *context) {
  return {IntegerType::get(context, 64), combineAllPairs,
          [](OpBuilder &builder, Location loc, MutableArrayRef<Value> partials,
             ArrayRef<int64_t> offsets) {
            for (Value &partial : partials)
              partial = pairAcrossLanes(builder, loc, partial, offsets);
          }};
}

/// A partial of blk.sum_centered_squares: how many lanes it counts, their
/// sum and mean, and their squares about that mean; all 0 where none is
/// counted. The sum travels beside the mean so that the op's sum is a sum
/// of its lanes, as blk.reduce's (count x mean would round every merge).
struct Moments {
  Value count, sum, mean, squares;
};

Value packMoments(OpBuilder &builder, Location loc, const Moments &moments) {
  Value quad = vector::FromElementsOp::create(
      builder, loc, VectorType::get({4}, builder.getF32Type()),
      ValueRange{moments.count, moments.sum, moments.mean, moments.squares});
  return LLVM::BitcastOp::create(builder, loc, builder.getIntegerType(128),
                                 quad);
}

Moments unpackMoments(OpBuilder &builder, Location loc, Value packed) {
  Value quad = LLVM::BitcastOp::create(
      builder, loc, VectorType::get({4}, builder.getF32Type()), packed);
  return {vector::ExtractOp::create(builder, loc, quad, 0),
          vector::ExtractOp::create(builder, loc, quad, 1),
          vector::ExtractOp::create(builder, loc, quad, 2),
          vector::ExtractOp::create(builder, loc, quad, 3)};
}

/// Chan, Golub and LeVeque's merge of two partials: the counts and the sums
/// add, the mean is the counts' weighted mean, and the squares add with
/// (mean_b - mean_a)^2 count_a count_b / count. One division (of 1 by the
/// count, 0 where nothing is counted, which keeps an empty partial's 0s).
/// Not symmetric in its bits (the products may fuse into fma either way):
/// lanes that merge the same pair pass it in the same order.
Moments mergeMoments(OpBuilder &builder, Location loc, const Moments &a,
                     const Moments &b) {
  auto add = [&](Value x, Value y) {
    return arith::AddFOp::create(builder, loc, x, y).getResult();
  };
  auto mul = [&](Value x, Value y) {
    return arith::MulFOp::create(builder, loc, x, y).getResult();
  };
  Value zero = createF32Constant(builder, loc, 0.0);
  Value count = add(a.count, b.count);
  Value counted = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGT,
                                        count, zero);
  Value inverse = arith::SelectOp::create(
      builder, loc, counted,
      arith::DivFOp::create(builder, loc, createF32Constant(builder, loc, 1.0),
                            count),
      zero);
  Value mean = mul(add(mul(a.count, a.mean), mul(b.count, b.mean)), inverse);
  Value delta = arith::SubFOp::create(builder, loc, b.mean, a.mean);
  Value weight = mul(mul(a.count, b.count), inverse);
  // (delta weight) delta: 0 where a side is empty (weight 0) however far
  // the other's mean lies, where delta^2 weight would be inf * 0 past
  // |delta| = 1.8e19.
  Value squares =
      add(add(a.squares, b.squares), mul(mul(delta, weight), delta));
  return {count, add(a.sum, b.sum), mean, squares};
}

/// The partials of all warps or CTAs, merged in a pairwise tree (the same
/// order in every thread).
Value combineAllMoments(OpBuilder &builder, Location loc, int64_t count,
                        function_ref<Value(int64_t)> read) {
  SmallVector<Value> partials;
  for (int64_t j = 0; j < count; ++j)
    partials.push_back(read(j));
  return combineTree(builder, loc, partials, [&](Value lhs, Value rhs) {
    return packMoments(builder, loc,
                       mergeMoments(builder, loc,
                                    unpackMoments(builder, loc, lhs),
                                    unpackMoments(builder, loc, rhs)));
  });
}

/// Partials across lanes: four shuffles a step, and the merge with the
/// lower lane's partial first, so that both lanes end with the same bits.
void momentsAcrossLanes(OpBuilder &builder, Location loc,
                        MutableArrayRef<Value> partials,
                        ArrayRef<int64_t> offsets) {
  Value lane = createThreadIds(builder, loc).lane;
  for (Value &partial : partials) {
    Moments own = unpackMoments(builder, loc, partial);
    for (int64_t offset : offsets) {
      Value step = createI32Constant(builder, loc, offset);
      Moments other = {shuffleXor(builder, loc, own.count, step),
                       shuffleXor(builder, loc, own.sum, step),
                       shuffleXor(builder, loc, own.mean, step),
                       shuffleXor(builder, loc, own.squares, step)};
      Value upper = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(builder, loc, lane, step),
          createI32Constant(builder, loc, 0));
      auto pick = [&](Value ifUpper, Value ifLower) {
        return arith::SelectOp::create(builder, loc, upper, ifUpper, ifLower)
            .getResult();
      };
      Moments lower = {pick(other.count, own.count), pick(other.sum, own.sum),
                       pick(other.mean, own.mean),
                       pick(other.squares, own.squares)};
      Moments higher = {pick(own.count, other.count), pick(own.sum, other.sum),
                        pick(own.mean, other.mean),
                        pick(own.squares, other.squares)};
      own = mergeMoments(builder, loc, lower, higher);
    }
    partial = packMoments(builder, loc, own);
  }
}

Combiner getMomentsCombiner(MLIRContext *context) {
  return {IntegerType::get(context, 128), combineAllMoments,
          momentsAcrossLanes};
}

/// Product of the sizes of the dimensions after `dim`.
int64_t strideOf(ArrayRef<int64_t> sizes, int64_t dim) {
  int64_t stride = 1;
  for (int64_t d = dim + 1; d < static_cast<int64_t>(sizes.size()); ++d)
    stride *= sizes[d];
  return stride;
}

/// Lowers a reduction's exchanges, level by level, to the partials of the
/// result elements the thread holds (every thread that holds a result
/// element ends with the same bits).
class ReductionLowering {
public:
  ReductionLowering(ReductionOpInterface op, const Combiner &combiner,
                    const WorkgroupPlan &plan)
      : op(op), combiner(combiner), plan(plan),
        distribution(*Distribution::get(op.getSrc().getType())),
        spread(distribution.getReduceSpread(op.getAxis())) {}

  /// Level 1's grouping: for each result element the thread holds (in the
  /// result's order), the indices of its elements that reduce to it.
  SmallVector<SmallVector<int64_t>> groupElements() const {
    SmallVector<SmallVector<int64_t>> groups(spread.resultsPerThread);
    for (int64_t k = 0; k < distribution.getNumElements(); ++k) {
      SmallVector<int64_t> local = distribution.getLocalIndices(k);
      // Row-major index over the other dimensions: the result's numbering.
      int64_t slot = 0;
      for (int64_t d = 0; d < distribution.getRank(); ++d)
        if (d != spread.layoutDim)
          slot = slot * distribution.getCount(d) + local[d];
      groups[slot].push_back(k);
    }
    return groups;
  }

  /// Levels 2 to 4: one partial per result element the thread holds
  /// becomes that element's total.
  void exchange(OpBuilder &builder, SmallVector<Value> &partials) {
    Location loc = op.getLoc();
    BlockedLayoutAttr layout = distribution.getLayout();
    int64_t laneStride = strideOf(layout.getLanes(), spread.layoutDim);
    SmallVector<int64_t> offsets;
    for (int64_t step = 1; step < spread.lanes; step *= 2)
      offsets.push_back(laneStride * step);
    if (!offsets.empty())
      combiner.acrossLanes(builder, loc, partials, offsets);
    if (spread.warps > 1)
      combineAcrossWarps(builder, layout, partials);
    if (spread.ctas > 1)
      combineAcrossCtas(builder, layout, partials);
  }

private:
  /// How the lanes of a warp share the reads of the cluster's partials:
  /// lane i reads CTA i mod spread.ctas (`source`) and a butterfly over
  /// `offsets` combines them, one distributed-shared-memory load a lane
  /// rather than one per CTA. Every lane, and every CTA, ends with the same
  /// bits (the butterfly combines each pair in both orders).
  struct SharedReads {
    Value source;
    SmallVector<int64_t> offsets;
  };
  /// The shared reads on clusters of kMinSharedReadClusterCtas or more
  /// whose CTAs are no more than the reduced dimension's lanes (after level
  /// 2 those lanes all hold the same results); none else.
  std::optional<SharedReads>
  getSharedReads(OpBuilder &builder, BlockedLayoutAttr layout, Value lane) {
    if (spread.ctas < kMinSharedReadClusterCtas || spread.ctas > spread.lanes)
      return std::nullopt;
    Location loc = op.getLoc();
    int64_t laneStride = strideOf(layout.getLanes(), spread.layoutDim);
    Value along = arith::ShRUIOp::create(
        builder, loc, lane,
        createI32Constant(builder, loc, llvm::Log2_64(laneStride)));
    SharedReads shared;
    shared.source = arith::AndIOp::create(
        builder, loc, along, createI32Constant(builder, loc, spread.ctas - 1));
    for (int64_t step = 1; step < spread.ctas; step *= 2)
      shared.offsets.push_back(laneStride * step);
    return shared;
  }

  void combineAcrossWarps(OpBuilder &builder, BlockedLayoutAttr layout,
                          SmallVector<Value> &partials) {
    Location loc = op.getLoc();
    auto function = op->getParentOfType<gpu::GPUFuncOp>();
    Value buffer =
        function.getWorkgroupAttributions()[plan.bufferOf.lookup(op)];
    ThreadIds ids = createThreadIds(builder, loc);
    int64_t count = spread.resultsPerThread;
    auto slotIndex = [&](Value warp, int64_t slot) {
      return arith::IndexCastUIOp::create(
                 builder, loc, builder.getIndexType(),
                 createSlotIndex(builder, loc, warp, ids.lane, count, slot))
          .getResult();
    };

    // In a loop, the previous iteration's readers must be done first.
    if (op->getParentOfType<LoopLikeOpInterface>())
      gpu::BarrierOp::create(builder, loc);
    for (auto [slot, partial] : llvm::enumerate(partials))
      memref::StoreOp::create(builder, loc, partial, buffer,
                              ValueRange{slotIndex(ids.warp, slot)});
    gpu::BarrierOp::create(builder, loc);

    int64_t warpStride = strideOf(layout.getWarps(), spread.layoutDim);
    int64_t warpsAlong = layout.getWarps()[spread.layoutDim];
    Value otherDims =
        createOtherDims(builder, loc, ids.warp, warpStride, warpsAlong);
    for (auto [slot, partial] : llvm::enumerate(partials)) {
      auto read = [&, slot = slot](int64_t j) -> Value {
        Value warp = arith::OrIOp::create(
            builder, loc, otherDims,
            createI32Constant(builder, loc, j * warpStride));
        return memref::LoadOp::create(builder, loc, buffer,
                                      ValueRange{slotIndex(warp, slot)});
      };
      partial = combiner.combineAll(builder, loc, spread.warps, read);
    }
  }

  void combineAcrossCtas(OpBuilder &builder, BlockedLayoutAttr layout,
                         SmallVector<Value> &partials) {
    Location loc = op.getLoc();
    Type element = combiner.partialType;
    LLVM::GlobalOp global = plan.clusterBufferOf.lookup(op);
    auto sharedPtr = LLVM::LLVMPointerType::get(
        builder.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    auto clusterPtr = LLVM::LLVMPointerType::get(
        builder.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value buffer = LLVM::AddressOfOp::create(builder, loc, global);
    ThreadIds ids = createThreadIds(builder, loc);
    int64_t count = spread.resultsPerThread;
    auto slotAddress = [&](int64_t slot) {
      Value index = createSlotIndex(builder, loc, ids.warp, ids.lane, count,
                                    slot);
      return LLVM::GEPOp::create(builder, loc, sharedPtr, element, buffer,
                                 ValueRange{index})
          .getResult();
    };

    // In a loop, the other CTAs must be done reading the previous
    // iteration's partials.
    bool inLoop = op->getParentOfType<LoopLikeOpInterface>() != nullptr;
    for (auto [slot, partial] : llvm::enumerate(partials))
      LLVM::StoreOp::create(builder, loc, partial, slotAddress(slot));
    createClusterBarrier(builder, loc);

    int64_t ctaStride = strideOf(layout.getCtas(), spread.layoutDim);
    Value otherDims =
        createOtherDims(builder, loc, createClusterRank(builder, loc),
                        ctaStride, layout.getCtasAlong(spread.layoutDim));
    auto readFrom = [&](Value rank, int64_t slot) -> Value {
      Value remote = NVVM::MapaOp::create(builder, loc, clusterPtr,
                                          slotAddress(slot), rank);
      return LLVM::LoadOp::create(builder, loc, element, remote,
                                  element.getIntOrFloatBitWidth() / 8);
    };
    if (std::optional<SharedReads> shared =
            getSharedReads(builder, layout, ids.lane)) {
      Value rank = arith::OrIOp::create(
          builder, loc, otherDims,
          arith::MulIOp::create(builder, loc, shared->source,
                                createI32Constant(builder, loc, ctaStride)));
      for (auto [slot, partial] : llvm::enumerate(partials))
        partial = readFrom(rank, slot);
      combiner.acrossLanes(builder, loc, partials, shared->offsets);
    } else {
      for (auto [slot, partial] : llvm::enumerate(partials)) {
        auto read = [&, slot = slot](int64_t j) -> Value {
          return readFrom(arith::OrIOp::create(
                              builder, loc, otherDims,
                              createI32Constant(builder, loc, j * ctaStride)),
                          slot);
        };
        partial = combiner.combineAll(builder, loc, spread.ctas, read);
      }
    }
    if (inLoop)
      createClusterBarrier(builder, loc);
    else if (plan.exitArriveOf.lookup(
                 op->getParentOfType<gpu::GPUFuncOp>().getName()) == op)
      NVVM::ClusterArriveOp::create(builder, loc, builder.getUnitAttr());
  }

  ReductionOpInterface op;
  const Combiner &combiner;
  const WorkgroupPlan &plan;
  Distribution distribution;
  ReduceSpread spread;
};

/// The thread's `elements` that a group of groupElements() names.
SmallVector<Value> pickElements(ArrayRef<Value> elements,
                                ArrayRef<int64_t> group) {
  return llvm::map_to_vector(group, [&](int64_t k) { return elements[k]; });
}

/// The result of a reduction from the partials of the elements a thread
/// holds: a scalar, or the thread's vector of a block.
Value buildResult(OpBuilder &builder, Location loc, Type resultType,
                  ArrayRef<Value> values) {
  if (values.size() == 1 && !isa<VectorType>(resultType))
    return values.front();
  return vector::FromElementsOp::create(builder, loc, resultType, values);
}

/// A reduction's lowering pattern: its op's conversion with the shared-
/// memory plan its exchanges read their buffers from.
template <typename Op>
struct AcrossThreadsPattern : public OpConversionPattern<Op> {
  AcrossThreadsPattern(const TypeConverter &converter, MLIRContext *context,
                       const WorkgroupPlan &plan)
      : OpConversionPattern<Op>(converter, context), plan(plan) {}

  const WorkgroupPlan &plan;
};

struct ReduceAcrossThreads : public AcrossThreadsPattern<ReduceOp> {
  using AcrossThreadsPattern::AcrossThreadsPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ReduceKind kind = op.getKind();
    Type partialType = getPartialType(op);
    Combiner combiner = getKindCombiner(kind, partialType);
    ReductionLowering lowering(op, combiner, this->plan);
    SmallVector<Value> elements =
        extractElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> partials;
    for (ArrayRef<int64_t> group : lowering.groupElements())
      partials.push_back(reduceThreadElements(
          rewriter, loc, kind, pickElements(elements, group), partialType));
    lowering.exchange(rewriter, partials);
    Type resultElement = getElementTypeOrSelf(op.getType());
    for (Value &partial : partials)
      partial = narrowFromPartial(rewriter, loc, partial, resultElement);
    Type type = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, buildResult(rewriter, loc, type, partials));
    return success();
  }
};

struct MaxExpSumAcrossThreads : public AcrossThreadsPattern<MaxExpSumOp> {
  using AcrossThreadsPattern::AcrossThreadsPattern;

  LogicalResult
  matchAndRewrite(MaxExpSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Combiner combiner = getPairCombiner(op.getContext());
    ReductionLowering lowering(op, combiner, this->plan);
    SmallVector<SmallVector<int64_t>> groups = lowering.groupElements();
    SmallVector<Value> exps = extractElements(rewriter, loc, adaptor.getSrc());

    // Level 1: each thread's maximum m of a result element's elements, its
    // exps against it, and their sum.
    SmallVector<Value> threadMaxes, partials;
    for (ArrayRef<int64_t> group : groups) {
      auto [max, shift] =
          createThreadMax(rewriter, loc, pickElements(exps, group));
      SmallVector<Value> terms;
      for (int64_t k : group) {
        exps[k] =
            createExp(rewriter, loc,
                      arith::SubFOp::create(rewriter, loc, exps[k], shift));
        terms.push_back(exps[k]);
      }
      Value sum = combineTree(rewriter, loc, terms, [&](Value lhs, Value rhs) {
        return arith::AddFOp::create(rewriter, loc, lhs, rhs).getResult();
      });
      threadMaxes.push_back(max);
      partials.push_back(packPair(rewriter, loc, max, sum));
    }
    lowering.exchange(rewriter, partials);

    // exp(x - M) = exp(x - m) exp(m - M), by 1 where m = M (an infinite M
    // included); NaN where M is -inf, as exp(-inf - -inf) in the ops this
    // op stands for (the sum too).
    Value ninf = createF32Constant(rewriter, loc,
                                   -std::numeric_limits<float>::infinity());
    Value nan = createF32Constant(rewriter, loc,
                                  std::numeric_limits<float>::quiet_NaN());
    SmallVector<Value> maxes, sums;
    for (auto [slot, partial] : llvm::enumerate(partials)) {
      auto [max, sum] = unpackPair(rewriter, loc, partial);
      Value threadMax = threadMaxes[slot];
      Value empty = arith::CmpFOp::create(rewriter, loc,
                                          arith::CmpFPredicate::OEQ, max, ninf);
      Value scale =
          arith::SelectOp::create(rewriter, loc, empty, nan,
                                  createRescale(rewriter, loc, threadMax, max));
      for (int64_t k : groups[slot])
        exps[k] = arith::MulFOp::create(rewriter, loc, exps[k], scale);
      maxes.push_back(max);
      sums.push_back(arith::SelectOp::create(rewriter, loc, empty, nan, sum));
    }
    Type reducedType = this->getTypeConverter()->convertType(op.getMax().getType());
    Type blockType = this->getTypeConverter()->convertType(op.getExps().getType());
    rewriter.replaceOp(
        op, {buildResult(rewriter, loc, reducedType, maxes),
             buildResult(rewriter, loc, reducedType, sums),
             vector::FromElementsOp::create(rewriter, loc, blockType, exps)});
    return success();
  }
};

struct SumCenteredSquaresAcrossThreads
    : public AcrossThreadsPattern<SumCenteredSquaresOp> {
  using AcrossThreadsPattern::AcrossThreadsPattern;

  LogicalResult
  matchAndRewrite(SumCenteredSquaresOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Combiner combiner = getMomentsCombiner(op.getContext());
    ReductionLowering lowering(op, combiner, this->plan);
    SmallVector<Value> elements =
        extractElements(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = extractElements(rewriter, loc, adaptor.getMask());
    SmallVector<Value> partials;
    for (ArrayRef<int64_t> group : lowering.groupElements())
      partials.push_back(createThreadMoments(rewriter, loc, elements, masks,
                                             group));
    lowering.exchange(rewriter, partials);

    // The squares about the row's mean (sum / divisor) are those about
    // the mean of the lanes counted plus count (mean - sum / divisor)^2
    // (0 where the two agree); none where nothing is counted.
    Moments row = unpackMoments(rewriter, loc, partials.front());
    Value sum = row.sum;
    Value offset = arith::SubFOp::create(
        rewriter, loc, row.mean,
        arith::DivFOp::create(rewriter, loc, sum, adaptor.getDivisor()));
    Value squares = arith::AddFOp::create(
        rewriter, loc, row.squares,
        arith::MulFOp::create(
            rewriter, loc, row.count,
            arith::MulFOp::create(rewriter, loc, offset, offset)));
    Value zero = createF32Constant(rewriter, loc, 0.0);
    Value counted = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGT, row.count, zero);
    rewriter.replaceOp(
        op, {sum, arith::SelectOp::create(rewriter, loc, counted, squares,
                                          zero)});
    return success();
  }

  /// Level 1: the thread's lanes of `group` that `masks` count (all
  /// without a mask), their mean and their squares about it, each a
  /// pairwise tree.
  static Value createThreadMoments(OpBuilder &builder, Location loc,
                                   ArrayRef<Value> elements,
                                   ArrayRef<Value> masks,
                                   ArrayRef<int64_t> group) {
    Value zero = createF32Constant(builder, loc, 0.0);
    auto add = [&](Value lhs, Value rhs) {
      return arith::AddFOp::create(builder, loc, lhs, rhs).getResult();
    };
    auto counted = [&](int64_t k, Value value) {
      return masks.empty() ? value
                           : arith::SelectOp::create(builder, loc, masks[k],
                                                     value, zero)
                                 .getResult();
    };
    SmallVector<Value> ones, values;
    for (int64_t k : group) {
      ones.push_back(counted(k, createF32Constant(builder, loc, 1.0)));
      values.push_back(counted(k, elements[k]));
    }
    Value count = combineTree(builder, loc, ones, add);
    Value sum = combineTree(builder, loc, values, add);
    Value mean = arith::SelectOp::create(
        builder, loc,
        arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGT, count,
                              zero),
        arith::DivFOp::create(builder, loc, sum, count), zero);
    SmallVector<Value> squares;
    for (int64_t k : group) {
      Value difference = arith::SubFOp::create(builder, loc, elements[k], mean);
      squares.push_back(counted(
          k, arith::MulFOp::create(builder, loc, difference, difference)));
    }
    return packMoments(
        builder, loc,
        {count, sum, mean, combineTree(builder, loc, squares, add)});
  }
};

} // namespace

void mlir::blk::createClusterBarrier(OpBuilder &builder, Location loc) {
  // barrier.cluster.arrive releases and .wait acquires by default.
  NVVM::ClusterArriveOp::create(builder, loc, builder.getUnitAttr());
  NVVM::ClusterWaitOp::create(builder, loc, builder.getUnitAttr());
}

Type mlir::blk::getPartialType(ReductionOpInterface reduce) {
  // blk.max_exp_sum's (max, sum) pairs travel packed, as getPairCombiner's.
  if (isa<MaxExpSumOp>(reduce))
    return IntegerType::get(reduce->getContext(), 64);
  // blk.sum_centered_squares' (count, sum, mean, squares), as
  // getMomentsCombiner's.
  if (isa<SumCenteredSquaresOp>(reduce))
    return IntegerType::get(reduce->getContext(), 128);
  Type element = reduce.getSrc().getType().getElementType();
  if (element.getIntOrFloatBitWidth() >= 32)
    return element;
  if (isa<FloatType>(element))
    return Float32Type::get(reduce->getContext());
  return IntegerType::get(reduce->getContext(), 32);
}

int64_t mlir::blk::getClusterReduceSlots(ReductionOpInterface reduce) {
  Distribution distribution = *Distribution::get(reduce.getSrc().getType());
  ReduceSpread spread = distribution.getReduceSpread(reduce.getAxis());
  if (spread.ctas <= 1)
    return 0;
  return kWarpSize * distribution.getLayout().getNumWarps() *
         spread.resultsPerThread;
}

std::optional<MemRefType>
mlir::blk::getReduceBuffer(ReductionOpInterface reduce) {
  Distribution distribution = *Distribution::get(reduce.getSrc().getType());
  ReduceSpread spread = distribution.getReduceSpread(reduce.getAxis());
  if (spread.warps <= 1)
    return std::nullopt;
  int64_t threads = kWarpSize * distribution.getLayout().getNumWarps();
  auto workgroup = gpu::AddressSpaceAttr::get(reduce.getContext(),
                                              gpu::AddressSpace::Workgroup);
  return MemRefType::get({threads * spread.resultsPerThread},
                         getPartialType(reduce), MemRefLayoutAttrInterface(),
                         workgroup);
}

void mlir::blk::populateReduceOpPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const WorkgroupPlan &plan) {
  patterns.add<ReduceAcrossThreads, MaxExpSumAcrossThreads,
               SumCenteredSquaresAcrossThreads>(
      converter, patterns.getContext(), plan);
}
