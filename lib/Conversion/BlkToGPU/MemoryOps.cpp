//===- MemoryOps.cpp - loads and stores of a thread's elements ------------===//
//
// A thread's elements come in runs of `blk.vector` consecutive, aligned
// addresses (decided by blk-distribute). A run whose mask is all true moves
// as one vector (16 bytes for f32 x 4); otherwise, as at the end of a row,
// each element is accessed on its own under its mask bit. Where the access
// analysis proves a mask the same over each run (a row length that is a
// multiple of the run), a run moves whole or not at all, and the
// element-by-element path, whose addresses would stay live in registers,
// is not generated. Width, alignment and uniformity are decided once per
// access, before conversion, as its AccessPlan; the patterns only read it.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "blk/Analysis/AccessAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// The `blk.vector` width, but never more than the run of consecutive
/// elements a thread holds (a hand-written width could exceed it).
int64_t getVectorWidth(Operation *op, const Distribution &distribution) {
  auto width = op->getAttrOfType<IntegerAttr>(BlkDialect::getVectorAttrName());
  if (!width || distribution.getSlicedDim())
    return 1;
  int64_t run = distribution.getRunLength(distribution.getRank() - 1);
  return std::min(width.getInt(), run);
}

AccessPlan planAccess(MemoryAccessOpInterface access,
                      const Distribution &distribution,
                      AccessAnalysis &analysis) {
  AccessPlan plan;
  plan.width = getVectorWidth(access, distribution);
  plan.alignment =
      plan.width * access.getAccessedElementType().getIntOrFloatBitWidth() / 8;
  Value mask = access.getMask();
  plan.uniformMaskRuns = mask && plan.width > 1 &&
                         analysis.getFacts(mask).constancy % plan.width == 0;
  return plan;
}

/// A thread's offsets as a sum of scalars plus a constant per element, the
/// shape `blk.arange` (plus splats) lowers to.
struct SplitOffsets {
  SmallVector<Value> scalars;
  SmallVector<int64_t> constants;
};

/// Recognizes broadcast(s), dense constants, and sums of those; creates
/// nothing, so a failed match leaves no ops behind.
std::optional<SplitOffsets> splitOffsets(Value offsets) {
  auto type = dyn_cast<VectorType>(offsets.getType());
  if (!type || !type.getElementType().isInteger(32))
    return std::nullopt;
  if (auto broadcast = offsets.getDefiningOp<vector::BroadcastOp>()) {
    if (!broadcast.getSource().getType().isInteger(32))
      return std::nullopt;
    return SplitOffsets{{broadcast.getSource()},
                        SmallVector<int64_t>(type.getNumElements(), 0)};
  }
  DenseIntElementsAttr constants;
  if (matchPattern(offsets, m_Constant(&constants))) {
    SplitOffsets split;
    for (const APInt &value : constants.getValues<APInt>())
      split.constants.push_back(value.getSExtValue());
    return split;
  }
  auto add = offsets.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  std::optional<SplitOffsets> lhs = splitOffsets(add.getLhs());
  std::optional<SplitOffsets> rhs = splitOffsets(add.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  for (auto [mine, theirs] : llvm::zip(lhs->constants, rhs->constants))
    mine += theirs;
  llvm::append_range(lhs->scalars, rhs->scalars);
  return lhs;
}

/// A mask `offsets < bound` (signed or unsigned) with offsets = first +
/// constants[k] and a scalar bound: whole runs are checked with one
/// comparison, and no mask bit needs to stay live between the accesses that
/// share the mask.
struct BoundMask {
  arith::CmpIPredicate predicate;
  Value first;
  SmallVector<int64_t> constants;
  Value bound;
};

std::optional<BoundMask> matchBoundMask(OpBuilder &builder, Location loc,
                                        Value mask) {
  auto compare = mask ? mask.getDefiningOp<arith::CmpIOp>() : nullptr;
  if (!compare || (compare.getPredicate() != arith::CmpIPredicate::slt &&
                   compare.getPredicate() != arith::CmpIPredicate::ult))
    return std::nullopt;
  auto bound = compare.getRhs().getDefiningOp<vector::BroadcastOp>();
  if (!bound || !bound.getSource().getType().isInteger(32))
    return std::nullopt;
  std::optional<SplitOffsets> offsets = splitOffsets(compare.getLhs());
  if (!offsets)
    return std::nullopt;
  Value first = offsets->scalars.empty() ? createI32Constant(builder, loc, 0)
                                          : offsets->scalars.front();
  for (Value scalar : ArrayRef(offsets->scalars).drop_front())
    first = arith::AddIOp::create(builder, loc, first, scalar);
  return BoundMask{compare.getPredicate(), first, offsets->constants,
                   bound.getSource()};
}

/// The per-element view of one access: its plan, addresses, mask bits.
/// A bound mask is matched here, on the thread's values, because the bound
/// and the offsets' split exist only once the mask has been converted.
struct ThreadAccess {
  AccessPlan plan;
  Value base;
  Type elementType;
  SmallVector<Value> offsets;
  SmallVector<Value> mask; // empty (and no boundMask): every element
  std::optional<BoundMask> boundMask;

  bool masked() const { return !mask.empty() || boundMask.has_value(); }

  Value address(OpBuilder &builder, Location loc, int64_t k) const {
    return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                               ValueRange{offsets[k]},
                               LLVM::GEPNoWrapFlags::inbounds);
  }
  /// The mask bit of element `k`.
  Value enabled(OpBuilder &builder, Location loc, int64_t k) const {
    if (!boundMask)
      return mask[k];
    return compareWithBound(builder, loc, boundMask->constants[k]);
  }
  /// Whether the whole run starting at element `first` is enabled.
  Value runEnabled(OpBuilder &builder, Location loc, int64_t first) const {
    if (plan.uniformMaskRuns)
      return enabled(builder, loc, first);
    if (boundMask && isAscendingRun(first))
      return compareWithBound(
          builder, loc, boundMask->constants[first + plan.width - 1]);
    Value all = enabled(builder, loc, first);
    for (int64_t i = 1; i < plan.width; ++i)
      all = arith::AndIOp::create(builder, loc, all,
                                  enabled(builder, loc, first + i));
    return all;
  }

private:
  /// offset < bound for the offset scalar + constant.
  Value compareWithBound(OpBuilder &builder, Location loc,
                         int64_t constant) const {
    Value offset = arith::AddIOp::create(
        builder, loc, boundMask->first,
        createI32Constant(builder, loc, constant),
        arith::IntegerOverflowFlags::nsw);
    return arith::CmpIOp::create(builder, loc, boundMask->predicate, offset,
                                 boundMask->bound);
  }
  /// Consecutive increasing offsets: the last one decides the run.
  bool isAscendingRun(int64_t first) const {
    ArrayRef<int64_t> constants = boundMask->constants;
    for (int64_t i = 1; i < plan.width; ++i)
      if (constants[first + i] != constants[first] + i)
        return false;
    return true;
  }
};

ThreadAccess getThreadAccess(OpBuilder &builder, Location loc,
                             const AccessPlan &plan, Value base, Value offsets,
                             Value mask, Type elementType) {
  // Addresses stay one index per element: measured on an H200, a common
  // base with constant offsets (fewer registers) ran up to 10% slower.
  ThreadAccess access{plan, base, elementType,
                      extractElements(builder, loc, offsets), {}, std::nullopt};
  if (!mask)
    return access;
  access.boundMask = matchBoundMask(builder, loc, mask);
  if (!access.boundMask)
    access.mask = extractElements(builder, loc, mask);
  return access;
}

/// Loads element `k` if its mask bit is set, else yields `other`.
Value loadElement(OpBuilder &builder, Location loc, const ThreadAccess &access,
                  int64_t k, Value other) {
  auto load = [&](OpBuilder &b, Location l) {
    return LLVM::LoadOp::create(b, l, access.elementType,
                                access.address(b, l, k))
        .getResult();
  };
  if (!access.masked())
    return load(builder, loc);
  auto branch = scf::IfOp::create(
      builder, loc, access.enabled(builder, loc, k),
      [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, load(b, l)); },
      [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, other); });
  return branch.getResult(0);
}

/// Loads the run of `width` elements starting at `first`.
SmallVector<Value> loadRun(OpBuilder &builder, Location loc,
                           const ThreadAccess &access, int64_t first,
                           Value other) {
  auto runType = VectorType::get({access.plan.width}, access.elementType);
  auto vectorLoad = [&](OpBuilder &b, Location l) {
    return LLVM::LoadOp::create(b, l, runType, access.address(b, l, first),
                                access.plan.alignment)
        .getResult();
  };
  Value run;
  if (!access.masked()) {
    run = vectorLoad(builder, loc);
  } else {
    auto branch = scf::IfOp::create(
        builder, loc, access.runEnabled(builder, loc, first),
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, vectorLoad(b, l));
        },
        [&](OpBuilder &b, Location l) {
          if (access.plan.uniformMaskRuns) {
            scf::YieldOp::create(
                b, l, vector::BroadcastOp::create(b, l, runType, other).getResult());
            return;
          }
          SmallVector<Value> elements;
          for (int64_t i = 0; i < access.plan.width; ++i)
            elements.push_back(loadElement(b, l, access, first + i, other));
          Value run = vector::FromElementsOp::create(b, l, runType, elements);
          scf::YieldOp::create(b, l, run);
        });
    run = branch.getResult(0);
  }
  return extractElements(builder, loc, run);
}

struct LoadToGlobalLoads : public OpConversionPattern<LoadOp> {
  LoadToGlobalLoads(const TypeConverter &converter, MLIRContext *context,
                    const AccessPlans &plans)
      : OpConversionPattern(converter, context), plans(plans) {}
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto plan = plans.find(op);
    if (plan == plans.end())
      return rewriter.notifyMatchFailure(op, "no plan: the load has no layout");
    Location loc = op.getLoc();
    Type elementType = op.getType().getElementType();
    ThreadAccess access =
        getThreadAccess(rewriter, loc, plan->second, adaptor.getBase(),
                        adaptor.getOffsets(), adaptor.getMask(), elementType);
    Value other = adaptor.getOther();
    if (!other)
      other = arith::ConstantOp::create(rewriter, loc, elementType,
                                        rewriter.getZeroAttr(elementType));
    SmallVector<Value> elements;
    int64_t count = access.offsets.size();
    for (int64_t first = 0; first < count; first += access.plan.width) {
      if (access.plan.width == 1) {
        elements.push_back(loadElement(rewriter, loc, access, first, other));
        continue;
      }
      llvm::append_range(elements,
                         loadRun(rewriter, loc, access, first, other));
    }
    auto type = VectorType::get({count}, elementType);
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    return success();
  }

  const AccessPlans &plans;
};

/// Stores element `k` (under its mask bit, if any).
void storeElement(OpBuilder &builder, Location loc, const ThreadAccess &access,
                  int64_t k, Value value) {
  auto store = [&](OpBuilder &b, Location l) {
    LLVM::StoreOp::create(b, l, value, access.address(b, l, k));
  };
  if (!access.masked())
    return store(builder, loc);
  scf::IfOp::create(builder, loc, access.enabled(builder, loc, k),
                    [&](OpBuilder &b, Location l) {
                      store(b, l);
                      scf::YieldOp::create(b, l);
                    });
}

void storeRun(OpBuilder &builder, Location loc, const ThreadAccess &access,
              int64_t first, ArrayRef<Value> values) {
  auto runType = VectorType::get({access.plan.width}, access.elementType);
  auto vectorStore = [&](OpBuilder &b, Location l) {
    Value run = vector::FromElementsOp::create(
        b, l, runType, values.slice(first, access.plan.width));
    LLVM::StoreOp::create(b, l, run, access.address(b, l, first),
                          access.plan.alignment);
  };
  if (!access.masked())
    return vectorStore(builder, loc);
  auto storeWhole = [&](OpBuilder &b, Location l) {
    vectorStore(b, l);
    scf::YieldOp::create(b, l);
  };
  auto storeEach = [&](OpBuilder &b, Location l) {
    for (int64_t i = 0; i < access.plan.width; ++i)
      storeElement(b, l, access, first + i, values[first + i]);
    scf::YieldOp::create(b, l);
  };
  // A uniform run is all in or all out: no element-by-element path.
  using BodyBuilder = function_ref<void(OpBuilder &, Location)>;
  scf::IfOp::create(builder, loc, access.runEnabled(builder, loc, first),
                    storeWhole,
                    access.plan.uniformMaskRuns ? BodyBuilder() : BodyBuilder(storeEach));
}

struct StoreToGlobalStores : public OpConversionPattern<StoreOp> {
  StoreToGlobalStores(const TypeConverter &converter, MLIRContext *context,
                      const AccessPlans &plans)
      : OpConversionPattern(converter, context), plans(plans) {}
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto plan = plans.find(op);
    if (plan == plans.end())
      return rewriter.notifyMatchFailure(op,
                                         "no plan: the store has no layout");
    Location loc = op.getLoc();
    ThreadAccess access = getThreadAccess(
        rewriter, loc, plan->second, adaptor.getBase(), adaptor.getOffsets(),
        adaptor.getMask(), op.getValue().getType().getElementType());
    SmallVector<Value> values =
        extractElements(rewriter, loc, adaptor.getValue());
    auto storeAll = [&](OpBuilder &builder, Location loc) {
      for (int64_t first = 0; first < static_cast<int64_t>(values.size());
           first += access.plan.width) {
        if (access.plan.width == 1)
          storeElement(builder, loc, access, first, values[first]);
        else
          storeRun(builder, loc, access, first, values);
      }
    };
    // A block held by several threads (a row's loss: one element, 128
    // threads) is stored by its first holders only: 128 stores of one
    // address cost cross_entropy 20% of its bandwidth in bf16 (H100).
    Value firstHolder = createFirstHolderPredicate(
        rewriter, loc, *Distribution::get(op.getOffsets().getType()));
    if (!firstHolder)
      storeAll(rewriter, loc);
    else
      scf::IfOp::create(rewriter, loc, firstHolder,
                        [&](OpBuilder &builder, Location loc) {
                          storeAll(builder, loc);
                          scf::YieldOp::create(builder, loc);
                        });
    rewriter.eraseOp(op);
    return success();
  }

  const AccessPlans &plans;
};

} // namespace

AccessPlans mlir::blk::planAccesses(Operation *root) {
  AccessAnalysis analysis;
  AccessPlans plans;
  root->walk([&](MemoryAccessOpInterface access) {
    // Accesses outside kernels have no layout; the conversion reports them.
    FailureOr<Distribution> distribution =
        Distribution::get(access.getOffsets().getType());
    if (succeeded(distribution))
      plans[access] = planAccess(access, *distribution, analysis);
  });
  return plans;
}

void mlir::blk::populateMemoryOpPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const AccessPlans &plans) {
  patterns.add<LoadToGlobalLoads, StoreToGlobalStores>(
      converter, patterns.getContext(), plans);
}
