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
// A run that is consecutive memory but aligned only at run time
// (`blk.realign`: a row of 50257 bf16 starts anywhere on the 16-byte grid)
// moves as aligned chunks: each lane loads the chunk holding its run's first
// element and takes the rest of its run from the next lane's chunk through a
// shuffle; a store writes the chunk holding its first element, completed with
// the previous lane's last elements. The lanes at the edges of a lane group
// load the missing chunk themselves, or store their loose elements one by
// one.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "blk/Analysis/AccessAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include <variant>

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Whether the lane before a thread along the row holds the run just before
/// each of its runs, and runs are whole 32-bit words: what realigning needs.
bool canExchangeRuns(const Distribution &distribution, int64_t width,
                     int64_t runBytes) {
  int64_t last = distribution.getRank() - 1;
  return width > 1 && runBytes % 4 == 0 &&
         distribution.getRunLength(last) == width && !distribution.wraps(last);
}

/// The plan of `access` (a blk.load, blk.store or blk.async_copy) of
/// `elementType` elements under `mask` (or none).
AccessPlan planAccess(Operation *access, Type elementType, Value mask,
                      const Distribution &distribution,
                      AccessAnalysis &analysis) {
  AccessPlan plan;
  plan.fallback = access->hasAttr(BlkDialect::getFallbackAttrName());
  plan.width = getAccessVectorWidth(access, distribution);
  plan.alignment = plan.width * elementType.getIntOrFloatBitWidth() / 8;
  if (access->hasAttr(BlkDialect::getRealignAttrName())) {
    plan.realign = canExchangeRuns(distribution, plan.width, plan.alignment);
    if (!plan.realign)
      plan.width = 1;
    return plan;
  }
  plan.uniformMaskRuns =
      mask && plan.width > 1 &&
      analysis.isUniformOverRuns(mask, plan.width,
                                 distribution.runsDownColumns());
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

/// `value` through an empty inline asm, which LLVM can neither look
/// through nor move out of its branch: offsets derived from it are
/// computed there, and not folded into values of the kernel's start.
Value createOpaqueCopy(OpBuilder &builder, Location loc, Value value) {
  return LLVM::InlineAsmOp::create(
             builder, loc, value.getType(), ValueRange{value},
             "mov.b32 $0, $1;", "=r,r", /*has_side_effects=*/false,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

/// The sum of i32 scalars (0 for none).
Value createScalarSum(OpBuilder &builder, Location loc,
                      ArrayRef<Value> scalars) {
  Value sum =
      scalars.empty() ? createI32Constant(builder, loc, 0) : scalars.front();
  for (Value scalar : scalars.drop_front())
    sum = arith::AddIOp::create(builder, loc, sum, scalar);
  return sum;
}

/// `offsets PREDICATE bound` for a signed order predicate (<, <=, >, >=)
/// and a scalar bound: true on a prefix or a suffix of ascending offsets,
/// so it holds on a run of consecutive ones where it holds at both ends.
struct MonotoneTerm {
  arith::CmpIPredicate predicate;
  Value bound;
  /// Whether it holds on a prefix (< and <=): decided at a run's last
  /// offset, a suffix's at its first.
  bool holdsOnPrefix() const {
    return predicate == arith::CmpIPredicate::slt ||
           predicate == arith::CmpIPredicate::sle;
  }
};

/// A mask `offsets < bound` (signed or unsigned), or `lower <= offsets <
/// bound` (the shifted rows of blk-peel-alignment) with any further
/// monotone terms on the same offsets (a causal mask's `offsets <= last`),
/// with offsets = first + constants[k] and scalar bounds: whole runs are
/// checked with a comparison per term at the run's ends, and no mask bit
/// needs to stay live between the accesses that share the mask.
struct BoundMask {
  arith::CmpIPredicate predicate;
  Value first;
  SmallVector<int64_t> constants;
  Value bound;
  /// The signed lower bound, if any.
  Value lowerBound;
  SmallVector<MonotoneTerm> terms;
};

/// An i32 block equal everywhere to a scalar: a broadcast of it, or a splat
/// constant (returned as its value, to be created once the match holds).
using UniformI32 = std::variant<Value, int64_t>;

std::optional<UniformI32> matchUniformI32(Value block) {
  if (auto broadcast = block.getDefiningOp<vector::BroadcastOp>()) {
    if (!broadcast.getSource().getType().isInteger(32))
      return std::nullopt;
    return UniformI32(broadcast.getSource());
  }
  DenseIntElementsAttr constants;
  if (matchPattern(block, m_Constant(&constants)) && constants.isSplat() &&
      constants.getElementType().isInteger(32))
    return UniformI32(constants.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

Value createUniformI32(OpBuilder &builder, Location loc, UniformI32 value) {
  if (auto *scalar = std::get_if<Value>(&value))
    return *scalar;
  return createI32Constant(builder, loc, std::get<int64_t>(value));
}

/// `lhs predicate uniform` with one of `predicates`.
struct UniformCompare {
  arith::CmpIOp op;
  UniformI32 bound;
};

std::optional<UniformCompare>
matchUniformCompare(Value value, ArrayRef<arith::CmpIPredicate> predicates) {
  auto compare = value ? value.getDefiningOp<arith::CmpIOp>() : nullptr;
  if (!compare || !llvm::is_contained(predicates, compare.getPredicate()))
    return std::nullopt;
  std::optional<UniformI32> bound = matchUniformI32(compare.getRhs());
  if (!bound)
    return std::nullopt;
  return UniformCompare{compare, *bound};
}

/// The terms of a conjunction (`arith.andi`, nested), in order.
void collectConjuncts(Value mask, SmallVectorImpl<Value> &terms) {
  if (auto both = mask.getDefiningOp<arith::AndIOp>()) {
    collectConjuncts(both.getLhs(), terms);
    collectConjuncts(both.getRhs(), terms);
    return;
  }
  terms.push_back(mask);
}

/// Whether `value` is an i1 block of ones.
bool isAllTrue(Value value) {
  if (auto broadcast = value.getDefiningOp<vector::BroadcastOp>())
    return matchPattern(broadcast.getSource(), m_One());
  return matchPattern(value, m_One());
}

/// `offsets PREDICATE uniform`, matched: its bound is created once the
/// whole mask matches, so a failed match leaves no ops behind.
struct MatchedTerm {
  arith::CmpIPredicate predicate;
  UniformI32 bound;
};

/// `term` as `offsets PREDICATE uniform` with a signed order predicate,
/// looking through a negation (`xori` with ones: a causal mask's
/// `!(offsets > last)`), if it compares `offsets`.
std::optional<MatchedTerm> matchMonotoneTerm(Value term, Value offsets) {
  using P = arith::CmpIPredicate;
  bool negated = false;
  if (auto flip = term.getDefiningOp<arith::XOrIOp>()) {
    if (!isAllTrue(flip.getRhs()))
      return std::nullopt;
    term = flip.getLhs();
    negated = true;
  }
  std::optional<UniformCompare> compare =
      matchUniformCompare(term, {P::slt, P::sle, P::sgt, P::sge});
  if (!compare || compare->op.getLhs() != offsets)
    return std::nullopt;
  P predicate = compare->op.getPredicate();
  if (negated)
    predicate = arith::invertPredicate(predicate);
  return MatchedTerm{predicate, compare->bound};
}

std::optional<BoundMask> matchBoundMask(OpBuilder &builder, Location loc,
                                        Value mask) {
  using P = arith::CmpIPredicate;
  if (!mask)
    return std::nullopt;
  SmallVector<Value> conjuncts;
  collectConjuncts(mask, conjuncts);
  // The row bound: the first `offsets < uniform` term (unsigned only
  // alone); then the lower bound of a shifted row, `offsets >= uniform`.
  std::optional<UniformCompare> upper, lower;
  for (Value term : conjuncts) {
    upper = matchUniformCompare(
        term, conjuncts.size() == 1 ? ArrayRef<P>{P::slt, P::ult}
                                    : ArrayRef<P>{P::slt});
    if (upper)
      break;
  }
  if (!upper)
    return std::nullopt;
  Value offsetsBlock = upper->op.getLhs();
  for (Value term : conjuncts) {
    std::optional<UniformCompare> candidate =
        matchUniformCompare(term, {P::sge});
    if (candidate && candidate->op.getLhs() == offsetsBlock) {
      lower = candidate;
      break;
    }
  }
  std::optional<SplitOffsets> offsets = splitOffsets(offsetsBlock);
  if (!offsets)
    return std::nullopt;
  SmallVector<Value> others;
  for (Value term : conjuncts)
    if (term.getDefiningOp() != upper->op &&
        (!lower || term.getDefiningOp() != lower->op))
      others.push_back(term);
  // Further terms only on a shifted row. On an aligned one the select
  // after a causal load still needs each element's bit, which the bits'
  // AND of each run shares: decided at the ends, scaled_softmax f32 4096 x
  // 16384 took 69 registers against 64 on 16 warps, one CTA an SM against
  // two (H100, docs/bench-data/rowwise/session-h100-4f0d2fb/).
  if (!lower && !others.empty())
    return std::nullopt;
  SmallVector<MatchedTerm> matched;
  for (Value term : others) {
    std::optional<MatchedTerm> monotone = matchMonotoneTerm(term, offsetsBlock);
    if (!monotone)
      return std::nullopt;
    matched.push_back(*monotone);
  }
  SmallVector<MonotoneTerm> terms;
  for (const MatchedTerm &term : matched)
    terms.push_back(
        {term.predicate, createUniformI32(builder, loc, term.bound)});
  Value first = createScalarSum(builder, loc, offsets->scalars);
  // As the offsets of a shifted row (getThreadAccess).
  if (lower)
    first = createOpaqueCopy(builder, loc, first);
  Value lowerBound =
      lower ? createUniformI32(builder, loc, lower->bound) : Value();
  return BoundMask{upper->op.getPredicate(),
                   first,
                   offsets->constants,
                   createUniformI32(builder, loc, upper->bound),
                   lowerBound,
                   std::move(terms)};
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

  /// For a shifted row (see getThreadAccess), in place of `offsets`:
  /// offsets[k] = firstOffset + offsetConstants[k], added where element k
  /// is accessed.
  Value firstOffset;
  SmallVector<int64_t> offsetConstants;

  Value address(OpBuilder &builder, Location loc, int64_t k) const {
    Value offset =
        offsets.empty()
            ? arith::AddIOp::create(
                  builder, loc, firstOffset,
                  createI32Constant(builder, loc, offsetConstants[k]),
                  arith::IntegerOverflowFlags::nsw)
            : offsets[k];
    return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                               ValueRange{offset},
                               LLVM::GEPNoWrapFlags::inbounds);
  }
  int64_t getNumElements() const {
    return offsets.empty() ? offsetConstants.size() : offsets.size();
  }
  /// The mask bit of element `k`.
  Value enabled(OpBuilder &builder, Location loc, int64_t k) const {
    if (!boundMask)
      return mask[k];
    return compareWithBound(builder, loc, boundMask->constants[k]);
  }
  /// The mask bit of the element `relative` (an i32, possibly negative or
  /// past the run) elements after element `first`, in memory order: for a
  /// realigned access, whose bound mask runs along the whole row. True when
  /// the access has no mask.
  Value enabledAt(OpBuilder &builder, Location loc, int64_t first,
                  Value relative) const {
    if (!boundMask)
      return arith::ConstantIntOp::create(builder, loc, 1, 1);
    Value offset = arith::AddIOp::create(
        builder, loc, offsetAt(builder, loc, boundMask->constants[first]),
        relative, arith::IntegerOverflowFlags::nsw);
    return compareOffsetWithBound(builder, loc, offset);
  }
  /// Whether the whole run starting at element `first` is enabled.
  Value runEnabled(OpBuilder &builder, Location loc, int64_t first) const {
    if (plan.uniformMaskRuns)
      return enabled(builder, loc, first);
    if (boundMask && isAscendingRun(first))
      return inBounds(builder, loc, boundMask->constants[first],
                      boundMask->constants[first + plan.width - 1]);
    Value all = enabled(builder, loc, first);
    for (int64_t i = 1; i < plan.width; ++i)
      all = arith::AndIOp::create(builder, loc, all,
                                  enabled(builder, loc, first + i));
    return all;
  }
  /// Whether some element of the run starting at `first` may be enabled,
  /// for the mask of a shifted row (`lower <= offsets < bound` over
  /// consecutive offsets, and any further terms): false where none is, so
  /// its runs past the row, or masked whole (a causal row's tail), are
  /// filled, or skipped, at once. Null for other masks, whose code stays as
  /// it was measured.
  Value runPartlyEnabled(OpBuilder &builder, Location loc,
                         int64_t first) const {
    if (!boundMask || !boundMask->lowerBound || plan.uniformMaskRuns ||
        !isAscendingRun(first))
      return Value();
    return inBounds(builder, loc, boundMask->constants[first + plan.width - 1],
                    boundMask->constants[first]);
  }

private:
  /// offset(lowest) >= lower bound (if any), offset(highest) < bound, and
  /// each further term at offset(highest) if it holds on a prefix, else at
  /// offset(lowest).
  Value inBounds(OpBuilder &builder, Location loc, int64_t lowest,
                 int64_t highest) const {
    Value highestOffset = offsetAt(builder, loc, highest);
    Value all = compareOffsetWithBound(builder, loc, highestOffset);
    if (boundMask->lowerBound)
      all = arith::AndIOp::create(
          builder, loc,
          aboveLowerBound(builder, loc, offsetAt(builder, loc, lowest)), all);
    for (const MonotoneTerm &term : boundMask->terms) {
      Value offset = term.holdsOnPrefix() ? highestOffset
                                          : offsetAt(builder, loc, lowest);
      all = arith::AndIOp::create(
          builder, loc, all,
          arith::CmpIOp::create(builder, loc, term.predicate, offset,
                                term.bound));
    }
    return all;
  }
  /// The mask bit of the offset scalar + constant.
  Value compareWithBound(OpBuilder &builder, Location loc,
                         int64_t constant) const {
    return inBounds(builder, loc, constant, constant);
  }
  /// The offset scalar + constant.
  Value offsetAt(OpBuilder &builder, Location loc, int64_t constant) const {
    return arith::AddIOp::create(builder, loc, boundMask->first,
                                 createI32Constant(builder, loc, constant),
                                 arith::IntegerOverflowFlags::nsw);
  }
  Value compareOffsetWithBound(OpBuilder &builder, Location loc,
                               Value offset) const {
    return arith::CmpIOp::create(builder, loc, boundMask->predicate, offset,
                                 boundMask->bound);
  }
  Value aboveLowerBound(OpBuilder &builder, Location loc, Value offset) const {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                 offset, boundMask->lowerBound);
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
  if (mask) {
    access.boundMask = matchBoundMask(builder, loc, mask);
    if (!access.boundMask)
      access.mask = extractElements(builder, loc, mask);
  }
  // Realigning reads mask bits of the neighbours' elements, which only a
  // bound mask enabling a prefix of the row gives; any other goes element
  // by element.
  if (plan.realign && mask &&
      (!access.boundMask || access.boundMask->lowerBound)) {
    access.plan.realign = false;
    access.plan.width = 1;
  }
  // A shifted row (blk-peel-alignment: its fallback, or a lower bound on
  // its mask) has element-by-element paths at its ends. Their offsets,
  // extracted above, are the arange's per-element values: LLVM computes
  // them once at the kernel's start and keeps them live through it (bf16
  // rows of 50257 on 8 CTAs: 64 registers, 0.79x the element path).
  // Computed from an opaque copy of their first, they stay where used (the
  // extracted ones are left unused).
  bool shiftedRow =
      plan.fallback || (access.boundMask && access.boundMask->lowerBound);
  if (std::optional<SplitOffsets> split =
          shiftedRow ? splitOffsets(offsets) : std::nullopt) {
    access.offsets.clear();
    access.firstOffset = createOpaqueCopy(
        builder, loc, createScalarSum(builder, loc, split->scalars));
    access.offsetConstants = split->constants;
  }
  return access;
}

//===----------------------------------------------------------------------===//
// Realigned runs
//===----------------------------------------------------------------------===//

/// Where a run lies on the grid of its size (`plan.alignment` bytes).
struct RunPlacement {
  /// Bytes from the start of the aligned chunk to the run (i32).
  Value misalignment;
  /// The same in elements (i32).
  Value shift;
  /// The aligned chunk that holds the run's first element.
  Value chunk;
  /// misalignment == 0.
  Value aligned;

  /// Element `k` of the run, counted from the chunk's start instead (an
  /// i32: k - shift).
  Value fromChunkStart(OpBuilder &builder, Location loc, int64_t k) const {
    return arith::SubIOp::create(builder, loc,
                                 createI32Constant(builder, loc, k), shift);
  }
};

/// Logical not of an i1.
Value createNot(OpBuilder &builder, Location loc, Value value) {
  return arith::XOrIOp::create(
      builder, loc, value, arith::ConstantIntOp::create(builder, loc, 1, 1));
}

RunPlacement placeRun(OpBuilder &builder, Location loc,
                      const ThreadAccess &access, int64_t first) {
  Value address = access.address(builder, loc, first);
  Value bits =
      LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), address);
  bits = arith::TruncIOp::create(builder, loc, builder.getI32Type(), bits);
  Value misalignment = arith::AndIOp::create(
      builder, loc, bits, createI32Constant(builder, loc, access.plan.alignment - 1));
  int64_t elementBytes = access.elementType.getIntOrFloatBitWidth() / 8;
  Value shift = arith::ShRUIOp::create(
      builder, loc, misalignment,
      createI32Constant(builder, loc, llvm::Log2_64(elementBytes)));
  Value back = arith::SubIOp::create(builder, loc,
                                     createI32Constant(builder, loc, 0),
                                     misalignment);
  Value chunk = LLVM::GEPOp::create(builder, loc, address.getType(),
                                    builder.getI8Type(), address,
                                    ValueRange{back});
  Value aligned =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                            misalignment, createI32Constant(builder, loc, 0));
  return {misalignment, shift, chunk, aligned};
}

/// Whether this lane holds the first, and the last, run of its group of
/// lanes along the row (their neighbours hold other rows, or are in other
/// warps).
struct LaneGroupEdges {
  Value first;
  Value last;
};

LaneGroupEdges createLaneGroupEdges(OpBuilder &builder, Location loc,
                                    const Distribution &distribution) {
  int64_t lanes = distribution.getLayout().getLanes().back();
  Value lane = createThreadIds(builder, loc).lane;
  Value inGroup = arith::AndIOp::create(builder, loc, lane,
                                        createI32Constant(builder, loc, lanes - 1));
  auto equals = [&](int64_t value) {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                 inGroup, createI32Constant(builder, loc, value))
        .getResult();
  };
  return {equals(0), equals(lanes - 1)};
}

VectorType getWordsType(const AccessPlan &plan, MLIRContext *context) {
  return VectorType::get({plan.alignment / 4}, IntegerType::get(context, 32));
}

SmallVector<Value> toWords(OpBuilder &builder, Location loc,
                           const AccessPlan &plan, Value run) {
  Value words = vector::BitCastOp::create(
      builder, loc, getWordsType(plan, builder.getContext()), run);
  return extractElements(builder, loc, words);
}

Value fromWords(OpBuilder &builder, Location loc, ArrayRef<Value> words,
                VectorType type) {
  auto wordsType =
      VectorType::get({static_cast<int64_t>(words.size())}, builder.getI32Type());
  Value vector = vector::FromElementsOp::create(builder, loc, wordsType, words);
  return vector::BitCastOp::create(builder, loc, type, vector);
}

/// Words [offset, offset + 4 * count) bytes of the little-endian
/// concatenation of `words` (2 * count of them), for a run-time byte
/// `offset` below 4 * count: whole words by a select per bit of the word
/// index, then, for elements narrower than a word, a funnel shift.
SmallVector<Value> extractByteWindow(OpBuilder &builder, Location loc,
                                     ArrayRef<Value> words, Value offset,
                                     int64_t count, bool wordAligned) {
  Value index = arith::ShRUIOp::create(builder, loc, offset,
                                       createI32Constant(builder, loc, 2));
  SmallVector<Value> window(words);
  for (int64_t step = 1; step < count; step *= 2) {
    Value bit = arith::AndIOp::create(builder, loc, index,
                                      createI32Constant(builder, loc, step));
    Value taken =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, bit,
                              createI32Constant(builder, loc, 0));
    for (size_t i = 0; i + step < window.size(); ++i)
      window[i] = arith::SelectOp::create(builder, loc, taken,
                                          window[i + step], window[i]);
    window.resize(window.size() - step);
  }
  if (wordAligned) {
    window.resize(count);
    return window;
  }
  Value bits = arith::ShLIOp::create(
      builder, loc,
      arith::AndIOp::create(builder, loc, offset,
                            createI32Constant(builder, loc, 3)),
      createI32Constant(builder, loc, 3));
  SmallVector<Value> result;
  for (int64_t j = 0; j < count; ++j)
    result.push_back(
        LLVM::FshrOp::create(builder, loc, window[j + 1], window[j], bits));
  return result;
}

/// Each of `words` from the lane `mode` (up or down) one lane away.
SmallVector<Value> shuffleWords(OpBuilder &builder, Location loc,
                                ArrayRef<Value> words, gpu::ShuffleMode mode) {
  Value one = createI32Constant(builder, loc, 1);
  Value width = createI32Constant(builder, loc, kWarpSize);
  SmallVector<Value> result;
  for (Value word : words)
    result.push_back(
        gpu::ShuffleOp::create(builder, loc, word, one, width, mode)
            .getShuffleResult());
  return result;
}

Value yieldIf(OpBuilder &builder, Location loc, Value condition, Type type,
              function_ref<Value(OpBuilder &, Location)> thenValue,
              function_ref<Value(OpBuilder &, Location)> elseValue) {
  return scf::IfOp::create(
             builder, loc, condition,
             [&](OpBuilder &b, Location l) {
               scf::YieldOp::create(b, l, thenValue(b, l));
             },
             [&](OpBuilder &b, Location l) {
               scf::YieldOp::create(b, l, elseValue(b, l));
             })
      .getResult(0);
}

/// The aligned chunks one lane reads for a realigned run: the chunk holding
/// the run's first element, and, for the last lane of a group, the chunk
/// after it (its neighbour along the row holds another row).
struct RealignedChunks {
  RunPlacement place;
  Value low;
  Value high;
  /// Whether `high` was loaded here rather than taken from the next lane.
  Value ownsHigh;
};

/// Issues the loads of one realigned run. A chunk is read when its first
/// element of the run is enabled (a bound mask enables a prefix of the row),
/// so it holds an element the access reads; bytes before the row's first
/// element (in the row before, or at the aligned start of the tensor) are
/// read too and ignored, and a chunk the row's end falls inside is read
/// element by element.
RealignedChunks loadRealignedChunks(OpBuilder &builder, Location loc,
                                    const ThreadAccess &access,
                                    const LaneGroupEdges &edges,
                                    int64_t first) {
  const AccessPlan &plan = access.plan;
  VectorType wordsType = getWordsType(plan, builder.getContext());
  RunPlacement place = placeRun(builder, loc, access, first);
  // Chunk `index` (0: the one holding the run's first element, 1: the
  // next), where it is to be read, is read whole when its last element is
  // enabled; partly enabled (the row's end falls inside it), element by
  // element, so that nothing past the row's end is read (it may be past the
  // end of the tensor's allocation: compute-sanitizer memcheck flagged such
  // 16-byte reads).
  auto loadChunk = [&](Value anyEnabled, int64_t index) {
    int64_t firstElement = index * plan.width;
    auto elementAddress = [&](OpBuilder &b, Location l, int64_t j) {
      int64_t elementBytes = plan.alignment / plan.width;
      int64_t byteOffset = firstElement * elementBytes + j * elementBytes;
      if (!byteOffset)
        return place.chunk;
      return LLVM::GEPOp::create(
                 b, l, place.chunk.getType(), b.getI8Type(), place.chunk,
                 ValueRange{createI32Constant(b, l, byteOffset)})
          .getResult();
    };
    auto whole = [&](OpBuilder &b, Location l) -> Value {
      return LLVM::LoadOp::create(b, l, wordsType, elementAddress(b, l, 0),
                                  plan.alignment);
    };
    auto zeros = [&](OpBuilder &b, Location l) -> Value {
      return arith::ConstantOp::create(b, l, wordsType,
                                       b.getZeroAttr(wordsType));
    };
    auto eachElement = [&](OpBuilder &b, Location l) -> Value {
      Type element = access.elementType;
      SmallVector<Value> elements;
      for (int64_t j = 0; j < plan.width; ++j)
        elements.push_back(yieldIf(
            b, l,
            access.enabledAt(b, l, first,
                             place.fromChunkStart(b, l, firstElement + j)),
            element,
            [&](OpBuilder &b, Location l) -> Value {
              return LLVM::LoadOp::create(b, l, element,
                                          elementAddress(b, l, j));
            },
            [&](OpBuilder &b, Location l) -> Value {
              return arith::ConstantOp::create(b, l, element,
                                               b.getZeroAttr(element));
            }));
      Value run = vector::FromElementsOp::create(
          b, l, VectorType::get({plan.width}, element), elements);
      return vector::BitCastOp::create(b, l, wordsType, run);
    };
    if (!access.masked())
      return yieldIf(builder, loc, anyEnabled, wordsType, whole, zeros);
    return yieldIf(
        builder, loc, anyEnabled, wordsType,
        [&](OpBuilder &b, Location l) {
          Value allEnabled = access.enabledAt(
              b, l, first,
              place.fromChunkStart(b, l, firstElement + plan.width - 1));
          return yieldIf(b, l, allEnabled, wordsType, whole, eachElement);
        },
        zeros);
  };
  Value low = loadChunk(access.enabledAt(builder, loc, first,
                                         place.fromChunkStart(builder, loc, 0)),
                        0);
  Value misaligned = createNot(builder, loc, place.aligned);
  Value ownsHigh = arith::AndIOp::create(
      builder, loc, arith::AndIOp::create(builder, loc, edges.last, misaligned),
      access.enabledAt(builder, loc, first,
                       place.fromChunkStart(builder, loc, plan.width)));
  Value high = loadChunk(ownsHigh, 1);
  return {place, low, high, ownsHigh};
}

/// The run starting at element `first`, cut out of its lane's chunks and
/// the next lane's low chunk; disabled elements read `other`.
SmallVector<Value> assembleRealignedRun(OpBuilder &builder, Location loc,
                                        const ThreadAccess &access,
                                        const RealignedChunks &chunks,
                                        int64_t first, Value other) {
  const AccessPlan &plan = access.plan;
  auto runType = VectorType::get({plan.width}, access.elementType);
  SmallVector<Value> words = extractElements(builder, loc, chunks.low);
  SmallVector<Value> fromNext =
      shuffleWords(builder, loc, words, gpu::ShuffleMode::DOWN);
  for (auto [next, own] :
       llvm::zip(fromNext, extractElements(builder, loc, chunks.high)))
    words.push_back(
        arith::SelectOp::create(builder, loc, chunks.ownsHigh, own, next));
  bool wordAligned = access.elementType.getIntOrFloatBitWidth() >= 32;
  Value run = fromWords(
      builder, loc,
      extractByteWindow(builder, loc, words, chunks.place.misalignment,
                        words.size() / 2, wordAligned),
      runType);
  if (!access.masked())
    return extractElements(builder, loc, run);
  // A run enabled to its end has no disabled element.
  run = yieldIf(
      builder, loc,
      access.enabledAt(builder, loc, first,
                       createI32Constant(builder, loc, plan.width - 1)),
      runType, [&](OpBuilder &, Location) { return run; },
      [&](OpBuilder &b, Location l) {
        SmallVector<Value> elements = extractElements(b, l, run);
        for (auto [k, element] : llvm::enumerate(elements))
          element = arith::SelectOp::create(
              b, l,
              access.enabledAt(b, l, first, createI32Constant(b, l, k)),
              element, other);
        return vector::FromElementsOp::create(b, l, runType, elements)
            .getResult();
      });
  return extractElements(builder, loc, run);
}

/// Bytes of low chunks a thread has in flight while realigning: 4 runs of
/// 16 bytes (with the last lane's high chunks, 32 registers). Loading every
/// run first, then shuffling (f32, BLOCK=32768, 16 runs a thread), took 128
/// registers and spilled 136 bytes (H100); 64 bytes a thread is still
/// more than the ~25 KB per SM that a copy keeps in flight at 512 threads.
constexpr int64_t kRealignedBytesInFlight = 64;

/// Loads every run of a realigned access, a batch of runs at a time: the
/// batch's chunk loads first, then the shuffles that wait for them, so that
/// loads are in flight together (issued run by run, each shuffle stalled the
/// next load).
SmallVector<Value> loadRealignedRuns(OpBuilder &builder, Location loc,
                                     const ThreadAccess &access,
                                     const LaneGroupEdges &edges,
                                     Value other) {
  int64_t count = access.getNumElements();
  int64_t width = access.plan.width;
  int64_t batch =
      std::max<int64_t>(1, kRealignedBytesInFlight / access.plan.alignment) *
      width;
  SmallVector<Value> elements;
  for (int64_t start = 0; start < count; start += batch) {
    int64_t end = std::min(count, start + batch);
    SmallVector<RealignedChunks> chunks;
    for (int64_t first = start; first < end; first += width)
      chunks.push_back(loadRealignedChunks(builder, loc, access, edges, first));
    for (auto [run, runChunks] : llvm::enumerate(chunks))
      llvm::append_range(elements,
                         assembleRealignedRun(builder, loc, access, runChunks,
                                              start + run * width, other));
  }
  return elements;
}

/// Stores the run starting at element `first` wherever it lies on the grid.
/// Each lane stores, as one aligned chunk, the chunk holding its run's
/// first element (the previous lane's last bytes, then its own) when all of
/// it is enabled and the previous lane is in its group; whatever of its run
/// no such chunk covers, it stores element by element under the mask.
void storeRealignedRun(OpBuilder &builder, Location loc,
                       const ThreadAccess &access, const LaneGroupEdges &edges,
                       int64_t first, ArrayRef<Value> values) {
  const AccessPlan &plan = access.plan;
  int64_t width = plan.width;
  auto runType = VectorType::get({width}, access.elementType);
  RunPlacement place = placeRun(builder, loc, access, first);
  Value run = vector::FromElementsOp::create(builder, loc, runType,
                                             values.slice(first, width));
  SmallVector<Value> own = toWords(builder, loc, plan, run);
  SmallVector<Value> words =
      shuffleWords(builder, loc, own, gpu::ShuffleMode::UP);
  llvm::append_range(words, own);
  // The chunk is bytes [alignment - m, 2 * alignment - m) of the previous
  // lane's run and this one's; for m = 0, this run itself.
  Value start = arith::AndIOp::create(
      builder, loc,
      arith::SubIOp::create(builder, loc,
                            createI32Constant(builder, loc, plan.alignment),
                            place.misalignment),
      createI32Constant(builder, loc, plan.alignment - 1));
  bool wordAligned = access.elementType.getIntOrFloatBitWidth() >= 32;
  SmallVector<Value> chunkWords =
      extractByteWindow(builder, loc, words, start, own.size(), wordAligned);
  for (auto [word, mine] : llvm::zip(chunkWords, own))
    word = arith::SelectOp::create(builder, loc, place.aligned, mine, word);

  auto relative = [&](int64_t k) {
    return place.fromChunkStart(builder, loc, k);
  };
  auto notValue = [&](Value value) { return createNot(builder, loc, value); };
  // A chunk is stored whole by the lane whose run starts in it, if that lane
  // has the chunk's first bytes (it is not first in its group, or the chunk
  // is its run) and the chunk's last element is enabled (then all are).
  Value storesOwn = arith::AndIOp::create(
      builder, loc,
      arith::OrIOp::create(builder, loc, place.aligned, notValue(edges.first)),
      access.enabledAt(builder, loc, first, relative(width - 1)));
  Value nextStores = arith::AndIOp::create(
      builder, loc,
      arith::OrIOp::create(builder, loc, place.aligned, notValue(edges.last)),
      access.enabledAt(builder, loc, first, relative(2 * width - 1)));
  scf::IfOp::create(builder, loc, storesOwn, [&](OpBuilder &b, Location l) {
    Value chunk = fromWords(b, l, chunkWords,
                            getWordsType(plan, b.getContext()));
    LLVM::StoreOp::create(b, l, chunk, place.chunk, plan.alignment);
    scf::YieldOp::create(b, l);
  });
  Value allCovered = arith::AndIOp::create(builder, loc, storesOwn, nextStores);
  scf::IfOp::create(builder, loc, notValue(allCovered),
                    [&](OpBuilder &b, Location l) {
    Value headLength = arith::SubIOp::create(
        b, l, createI32Constant(b, l, width), place.shift);
    for (int64_t k = 0; k < width; ++k) {
      Value index = createI32Constant(b, l, k);
      Value inOwnChunk = arith::CmpIOp::create(
          b, l, arith::CmpIPredicate::slt, index, headLength);
      Value covered =
          arith::SelectOp::create(b, l, inOwnChunk, storesOwn, nextStores);
      Value loose = arith::AndIOp::create(
          b, l, access.enabledAt(b, l, first, index), createNot(b, l, covered));
      scf::IfOp::create(b, l, loose, [&](OpBuilder &bb, Location ll) {
        LLVM::StoreOp::create(bb, ll, values[first + k],
                              access.address(bb, ll, first + k));
        scf::YieldOp::create(bb, ll);
      });
    }
    scf::YieldOp::create(b, l);
  });
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
          auto fill = [&](OpBuilder &b, Location l) -> Value {
            return vector::BroadcastOp::create(b, l, runType, other);
          };
          auto eachElement = [&](OpBuilder &b, Location l) -> Value {
            SmallVector<Value> elements;
            for (int64_t i = 0; i < access.plan.width; ++i)
              elements.push_back(loadElement(b, l, access, first + i, other));
            return vector::FromElementsOp::create(b, l, runType, elements);
          };
          Value run;
          if (access.plan.uniformMaskRuns)
            run = fill(b, l);
          else if (Value partly = access.runPartlyEnabled(b, l, first))
            // Only the runs at a row's ends go element by element; the
            // padding past it is filled at once.
            run = yieldIf(b, l, partly, runType, eachElement, fill);
          else
            run = eachElement(b, l);
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
    int64_t count = access.getNumElements();
    auto type = VectorType::get({count}, elementType);
    if (access.plan.realign) {
      LaneGroupEdges edges = createLaneGroupEdges(
          rewriter, loc, *Distribution::get(op.getOffsets().getType()));
      rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
          op, type, loadRealignedRuns(rewriter, loc, access, edges, other));
      return success();
    }
    for (int64_t first = 0; first < count; first += access.plan.width) {
      if (access.plan.width == 1) {
        elements.push_back(loadElement(rewriter, loc, access, first, other));
        continue;
      }
      llvm::append_range(elements,
                         loadRun(rewriter, loc, access, first, other));
    }
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
  auto storeElements = [&](OpBuilder &b, Location l) {
    for (int64_t i = 0; i < access.plan.width; ++i)
      storeElement(b, l, access, first + i, values[first + i]);
  };
  auto storeEach = [&](OpBuilder &b, Location l) {
    // Only the runs at a row's ends go element by element; nothing of the
    // padding past it is stored.
    if (Value partly = access.runPartlyEnabled(b, l, first))
      scf::IfOp::create(b, l, partly, [&](OpBuilder &b, Location l) {
        storeElements(b, l);
        scf::YieldOp::create(b, l);
      });
    else
      storeElements(b, l);
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
    std::optional<LaneGroupEdges> edges;
    if (access.plan.realign)
      edges = createLaneGroupEdges(rewriter, loc,
                                   *Distribution::get(op.getOffsets().getType()));
    auto storeAll = [&](OpBuilder &builder, Location loc) {
      for (int64_t first = 0; first < static_cast<int64_t>(values.size());
           first += access.plan.width) {
        if (edges)
          storeRealignedRun(builder, loc, access, *edges, first, values);
        else if (access.plan.width == 1)
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

//===----------------------------------------------------------------------===//
// Asynchronous copies into shared memory
//===----------------------------------------------------------------------===//

constexpr int64_t kAsyncCopyBytes = TargetInfo::kAsyncCopyBytes;

/// Each 16-byte run of a thread goes with one `cp.async.cg` (cached in L2
/// only) from its global address to its chunk of the buffer, as
/// blk.local_alloc would store it; a run masked off gets the load's
/// `other` (0 without one), stored by the thread (another address, so the
/// two need no order). The thread's copies are one commit group, which
/// blk.async_wait waits for.
struct AsyncCopyToCpAsync : public OpConversionPattern<AsyncCopyOp> {
  AsyncCopyToCpAsync(const TypeConverter &converter, MLIRContext *context,
                     const AccessPlans &plans, const WorkgroupPlan &workgroup)
      : OpConversionPattern(converter, context), plans(plans),
        workgroup(workgroup) {}

  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const AccessPlan &plan = plans.at(op);
    KeptChunks chunks = KeptChunks::get(op.getBlockType());
    Type elementType = op.getType().getElementType();
    ThreadAccess access =
        getThreadAccess(rewriter, loc, plan, adaptor.getBase(),
                        adaptor.getOffsets(), adaptor.getMask(), elementType);
    Value base = chunks.createBase(rewriter, loc, workgroup, op);
    // Masked-off runs hold `other`, or 0 as blk.load's lowering gives.
    Value other = adaptor.getOther();
    if (!other)
      other = arith::ConstantOp::create(rewriter, loc, elementType,
                                        rewriter.getZeroAttr(elementType));
    auto cacheInL2 = NVVM::LoadCacheModifierKindAttr::get(
        getContext(), NVVM::LoadCacheModifierKind::CG);
    auto runType = VectorType::get({plan.width}, elementType);
    for (int64_t c = 0; c < chunks.getNumChunks(); ++c) {
      int64_t first = c * plan.width;
      Value chunk = chunks.createChunkAddress(rewriter, loc, base, c);
      auto copy = [&](OpBuilder &b, Location l) {
        NVVM::CpAsyncOp::create(b, l, chunk, access.address(b, l, first),
                                b.getI32IntegerAttr(kAsyncCopyBytes), cacheInL2,
                                Value());
      };
      if (!access.masked()) {
        copy(rewriter, loc);
        continue;
      }
      scf::IfOp::create(
          rewriter, loc, access.runEnabled(rewriter, loc, first),
          [&](OpBuilder &b, Location l) {
            copy(b, l);
            scf::YieldOp::create(b, l);
          },
          [&](OpBuilder &b, Location l) {
            LLVM::StoreOp::create(
                b, l, vector::BroadcastOp::create(b, l, runType, other), chunk,
                kAsyncCopyBytes);
            scf::YieldOp::create(b, l);
          });
    }
    NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }

  const AccessPlans &plans;
  const WorkgroupPlan &workgroup;
};

/// Every copy the thread started has landed (its commit groups: no
/// barrier, each thread reads back only what it copied).
struct AsyncWaitToWaitGroup : public OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, 0);
    return success();
  }
};

/// Each 16-byte run of a thread goes with one `cp.async.cg` from its global
/// address to its place in the #blk.swizzled buffer (createSwizzledRunAddress,
/// the row rotated where the encoding says so); a run masked off copies no
/// byte and fills its place with zeros (cp.async's source size 0), so the
/// copy needs no branch. The copies join the thread's open group.
struct AsyncCopyIntoToCpAsync : public OpConversionPattern<AsyncCopyIntoOp> {
  AsyncCopyIntoToCpAsync(const TypeConverter &converter, MLIRContext *context,
                         const AccessPlans &plans)
      : OpConversionPattern(converter, context), plans(plans) {}

  LogicalResult
  matchAndRewrite(AsyncCopyIntoOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const AccessPlan &plan = plans.at(op);
    SharedType dest = op.getDest().getType();
    ThreadAccess access = getThreadAccess(
        rewriter, loc, plan, adaptor.getBase(), adaptor.getOffsets(),
        adaptor.getMask(), dest.getElementType());
    Distribution distribution = *Distribution::get(op.getOffsets().getType());
    SmallVector<Value> base = createThreadBase(
        rewriter, loc, distribution, createThreadIds(rewriter, loc));
    auto cacheInL2 = NVVM::LoadCacheModifierKindAttr::get(
        getContext(), NVVM::LoadCacheModifierKind::CG);
    for (int64_t first = 0; first < access.getNumElements();
         first += plan.width) {
      Value place = createSwizzledRunAddress(
          rewriter, loc, distribution, base, first, adaptor.getDest(),
          dest.getShape(), dest.getEncoding());
      Value sourceBytes;
      if (access.masked())
        sourceBytes = arith::SelectOp::create(
            rewriter, loc, access.runEnabled(rewriter, loc, first),
            createI32Constant(rewriter, loc, kAsyncCopyBytes),
            createI32Constant(rewriter, loc, 0));
      NVVM::CpAsyncOp::create(rewriter, loc, place,
                              access.address(rewriter, loc, first),
                              rewriter.getI32IntegerAttr(kAsyncCopyBytes),
                              cacheInL2, sourceBytes);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const AccessPlans &plans;
};

struct AsyncCommitGroupToCommit
    : public OpConversionPattern<AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct BarrierToGpuBarrier : public OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

struct AsyncWaitGroupToWaitGroup
    : public OpConversionPattern<AsyncWaitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncWaitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getPending());
    return success();
  }
};

} // namespace

/// Whether `op`'s plan moves whole 16-byte runs (`blockWidth` elements)
/// that its mask takes whole or not at all; otherwise a diagnostic at it.
static LogicalResult checkWholeRuns(Operation *op, const AccessPlan &plan,
                                    int64_t blockWidth, bool masked) {
  bool wholeRuns = !plan.realign && plan.alignment == kAsyncCopyBytes &&
                   blockWidth == plan.width;
  if (wholeRuns && (!masked || plan.uniformMaskRuns))
    return success();
  return op->emitOpError()
         << "expected runs of " << kAsyncCopyBytes
         << " bytes (blk.vector) that its mask takes whole or not at all, but "
            "found "
         << (plan.realign   ? "a realigned access"
             : !wholeRuns   ? "runs of " + std::to_string(plan.alignment) +
                                  " bytes"
                            : "a mask that may differ within a run");
}

/// Whether the runs `op` copies go along the rows of its buffer's panels:
/// along the block's rows, or down its columns into a transposed buffer.
static LogicalResult checkRunsAlongPanelRows(AsyncCopyIntoOp op) {
  bool transposed = op.getDest().getType().getEncoding().getTransposed();
  bool downColumns =
      Distribution::get(op.getOffsets().getType())->runsDownColumns();
  if (downColumns == transposed)
    return success();
  auto direction = [](bool down) {
    return down ? "down the columns" : "along the rows";
  };
  return op.emitOpError() << "expected runs " << direction(transposed)
                          << " of the block, as the "
                          << (transposed ? "transposed " : "")
                          << "buffer's panel rows go, but the layout's runs go "
                          << direction(downColumns);
}

/// Whether `op` (a copy into shared memory) is on a chip with cp.async.
static LogicalResult checkAsyncCopyChip(Operation *op,
                                        const TargetInfo &target) {
  if (target.hasAsyncCopy())
    return success();
  return op->emitOpError() << "expected a chip with cp.async (sm_"
                           << TargetInfo::kMinAsyncCopyChip
                           << " or newer), but the target is "
                           << target.getChip();
}

/// Whether every blk.local_load of `copy`'s buffer comes after a
/// blk.async_wait of it.
static LogicalResult checkWaited(AsyncCopyOp copy, DominanceInfo &dominance) {
  SmallVector<Operation *> waits;
  for (Operation *user : copy->getUsers())
    if (isa<AsyncWaitOp>(user))
      waits.push_back(user);
  for (Operation *user : copy->getUsers()) {
    if (!isa<LocalLoadOp>(user) || llvm::any_of(waits, [&](Operation *wait) {
          return dominance.properlyDominates(wait, user);
        }))
      continue;
    return user->emitOpError()
           << "expected a blk.async_wait of its buffer before it (the copies "
              "of the blk.async_copy may not have landed)";
  }
  return success();
}

LogicalResult mlir::blk::checkKeptBlocks(Operation *root,
                                          const AccessPlans &plans,
                                          const TargetInfo &target) {
  // Kept blocks outside kernels are refused before, with every blk op
  // there (checkOutsideKernels).
  DominanceInfo dominance(root);
  WalkResult result = root->walk([&](AsyncCopyOp op) {
    // A loop's next copy would overwrite chunks whose reads the thread may
    // not have finished: cp.async is not ordered after earlier ld.shared.
    if (op->getParentOfType<LoopLikeOpInterface>()) {
      op.emitOpError() << "expected outside loops (a next copy would not "
                          "wait for the reads of the last)";
      return WalkResult::interrupt();
    }
    if (failed(checkWaited(op, dominance)) ||
        failed(checkAsyncCopyChip(op, target)) ||
        failed(checkWholeRuns(op, plans.at(op),
                              KeptChunks::get(op.getBlockType()).width,
                              op.getMask() != nullptr)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  result = root->walk([&](AsyncCopyIntoOp op) {
    int64_t runElements =
        kAsyncCopyBytes * 8 /
        op.getDest().getType().getElementType().getIntOrFloatBitWidth();
    if (failed(checkAsyncCopyChip(op, target)) ||
        failed(checkWholeRuns(op, plans.at(op), runElements,
                              op.getMask() != nullptr)) ||
        failed(checkRunsAlongPanelRows(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

AccessPlans mlir::blk::planAccesses(Operation *root) {
  AccessAnalysis analysis;
  AccessPlans plans;
  root->walk([&](Operation *op) {
    Value offsets, mask;
    Type elementType;
    if (auto access = dyn_cast<MemoryAccessOpInterface>(op)) {
      offsets = access.getOffsets();
      mask = access.getMask();
      elementType = access.getAccessedElementType();
    } else if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      offsets = copy.getOffsets();
      mask = copy.getMask();
      elementType = copy.getType().getElementType();
    } else if (auto copy = dyn_cast<AsyncCopyIntoOp>(op)) {
      offsets = copy.getOffsets();
      mask = copy.getMask();
      elementType = copy.getDest().getType().getElementType();
    } else {
      return;
    }
    // Accesses outside kernels have no layout; the conversion reports them.
    FailureOr<Distribution> distribution = Distribution::get(offsets.getType());
    if (succeeded(distribution))
      plans[op] = planAccess(op, elementType, mask, *distribution, analysis);
  });
  return plans;
}

void mlir::blk::populateMemoryOpPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const AccessPlans &plans,
                                         const WorkgroupPlan &workgroup) {
  patterns.add<LoadToGlobalLoads, StoreToGlobalStores>(
      converter, patterns.getContext(), plans);
  patterns.add<AsyncCopyToCpAsync>(converter, patterns.getContext(), plans,
                                   workgroup);
  patterns.add<AsyncCopyIntoToCpAsync>(converter, patterns.getContext(),
                                       plans);
  patterns.add<AsyncWaitToWaitGroup, AsyncCommitGroupToCommit,
               AsyncWaitGroupToWaitGroup, BarrierToGpuBarrier>(
      converter, patterns.getContext());
}
