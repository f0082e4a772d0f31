//===- PipelineDotOperands.cpp - copy a K loop's operands ahead -----------===//
//
// A blk.dot in a K loop on wgmma reads A and B from shared memory. Loaded
// into registers (blk-pipeline-loads carries the next iterations' blocks)
// and stored there by the dot, every byte passes through a register and
// the dot's stores and barrier sit between one product and the next. Here
// they are copied from global memory straight into rings of num_stages
// swizzled buffers, the arrangement wgmma reads (`#blk.swizzled`), by
// cp.async, num_stages - 1 iterations ahead (num_stages of 3 or more), as
// Triton's pipeliner does:
//
//   %ring_a = blk.local_alloc -> !blk.shared<S x M x K, #blk.swizzled<..>>
//   copies of iterations 0 .. S - 2 into slots 0 .. S - 2, a group each
//   scf.for %k ... {
//     blk.async_wait_group S - 2            // iteration i's group landed
//     %c = blk.warpgroup_dot %ring_a[i mod S], %ring_b[i mod S], %acc
//     copies of iteration i + S - 1 into slot (i + S - 1) mod S, a group
//   }
//   blk.async_wait_group 0
//
// The copies of iteration i + S - 1 go after the product of iteration i:
// their slot is the one iteration i - 1 read, and every warpgroup's product
// of i - 1 is done once all threads passed the barrier blk.warpgroup_dot
// starts with. Copies of iterations past the last are masked off (they
// fill zeros), so every iteration commits one group and the count of
// groups in flight stays S - 1.
//
// A loop of several products (attention: S = Q K^T, then O += P V) gets
// rings for every operand that is a load of the loop, all copied in one
// group an iteration, after its first product (whose barrier follows
// every warpgroup's products of the iteration before); 2 stages pay there,
// the copies running under the work between the products. An A that is
// not copied is stored where wgmma reads it by blk.local_alloc before the
// loop where it is defined outside it (Q). One computed in the loop in the
// accumulator's layout (P, from S) stays in registers, which are wgmma's
// fragments of A, and its product makes no barrier (synchronize = false):
// its B came in the group the first product's barrier published. Any other
// is stored before its product (after a barrier where no product of the
// iteration comes first, since other warpgroups may still read the last
// one). The products are waited for where they are made.
//
// Where the product's only use is the next iteration's accumulator, the
// product is also left in flight (`pending = 1`), as Triton's pipeliner
// leaves it: the tensor cores still multiply while the next copies are
// issued and the next iteration waits and meets at its barrier, and the
// next product queues behind it on the same accumulator. A warpgroup's
// product of i - 1 is then done only after its wait in iteration i, and
// the copies run 2 iterations ahead: with 3 stages into the slot of
// i - 1, after a barrier (blk.barrier) that follows every warpgroup's wait;
// with 4 or more into the slot of i - 2, whose products every warpgroup
// waited for before the barrier of iteration i. blk.warpgroup_wait after
// the loop waits for the last.
//
//===----------------------------------------------------------------------===//
#include "PipelinedLoad.h"
#include "blk/Analysis/AccessAnalysis.h"
#include "blk/Analysis/TileAccess.h"
#include "blk/IR/Distribution.h"
#include "blk/Transforms/Passes.h"
#include "blk/Transforms/PipelineDotOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKPIPELINEDOTOPERANDS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Stages from which the rings of a loop whose one product reads two of
/// them pay: at 2 the copies run one K step ahead and each is waited for
/// before the next product, so nothing hides their latency; the operands
/// carried in registers by blk-pipeline-loads are faster there
/// (docs/benchmarks.md, "Matmul"). In a loop of several products, with
/// other work between them, 2 do (attention, "What the rules rest on").
constexpr int64_t kMinStages = 3, kMinStagesBesideWork = 2;

/// Rows of A's tile from which TMA's copies pay: on the 64-row tiles of the
/// small-M product rules (one warpgroup) TMA was no faster than cp.async,
/// and slower for a single row, where 128-row tiles gain
/// (docs/benchmarks.md, "Matmul").
constexpr int64_t kMinTensorMapTileRows = 128;

/// Iterations the copies run ahead of products left in flight: two K steps
/// hide a copy's latency behind the products (one does not), and a third
/// costs a stage of shared memory and, at 4 stages, the second barrier
/// for less than it gains (measured on the H100; the numbers are in the
/// commit that set it).
constexpr int64_t kProductsAhead = 2;

/// The position of `dot`'s accumulator among `loop`'s iter_args, where the
/// dot's only use is to yield the next iteration's and the iter_arg's only
/// use is the dot (nothing else reads products that may be in flight).
std::optional<unsigned> getChainedAccumulator(DotOp dot, scf::ForOp loop) {
  if (!dot->hasOneUse())
    return std::nullopt;
  OpOperand &use = *dot->getUses().begin();
  if (use.getOwner() != loop.getBody()->getTerminator())
    return std::nullopt;
  unsigned position = use.getOperandNumber();
  BlockArgument accumulator = loop.getRegionIterArgs()[position];
  if (accumulator != dot.getAcc() || !accumulator.hasOneUse())
    return std::nullopt;
  return position;
}

/// A box TMA copies: its matrix and the kernel argument of its rows, and
/// its first row and column, each the sum of scalars and of the induction
/// variable taken `inductionTerms` times (the variable itself is not kept:
/// carrySlots replaces the loop), with what divides the first row.
struct TensorCopy {
  struct Start {
    SmallVector<Value> terms;
    int64_t inductionTerms = 0;
  };
  BlockArgument matrix, rowBound;
  Start row, col;
  int64_t rowDivisibility = 1;

  TensorCopy(const TileAccess &tile, scf::ForOp loop,
             AccessAnalysis &analysis)
      : matrix(tile.matrix), rowBound(tile.rowBound) {
    auto split = [&](ArrayRef<Value> terms, Start &start) {
      for (Value term : terms)
        if (term == loop.getInductionVar())
          ++start.inductionTerms;
        else
          start.terms.push_back(term);
    };
    split(tile.rowStart, row);
    split(tile.colStart, col);
    rowDivisibility = row.inductionTerms ? 1 : AccessAnalysis::kMaxDivisibility;
    for (Value term : row.terms)
      rowDivisibility =
          std::min(rowDivisibility, analysis.getFacts(term).divisibility);
  }
};

/// How one product of the loop gets its operands: B, and A where it is a
/// load of the loop, copied ahead into rings; otherwise A is stored by the
/// threads.
struct DotCopies {
  DotOp dot;
  std::optional<PipelinedLoad> a;
  PipelinedLoad b;
  /// The boxes A and B read, where TMA copies them (findTensorMapCopies).
  std::optional<TensorCopy> tileA, tileB;
};

/// The products of a loop whose operands are copied ahead, in the loop's
/// order.
struct LoopCopies {
  scf::ForOp loop;
  SmallVector<DotCopies, 2> dots;
  int64_t numStages;
  /// getChainedAccumulator of the loop's one product, both its operands
  /// copied, asked before the rewrite replaces the dot.
  std::optional<unsigned> chained;
  /// Whether TMA copies the operands (every DotCopies has its tiles).
  bool byTensorMaps = false;

  /// Products left in flight after the dot: 1 where the loop chains them.
  int64_t getPendingProducts() const { return chained ? 1 : 0; }
  /// Iterations the copies run ahead: all but one slot, or beside products
  /// in flight kProductsAhead.
  int64_t getAhead() const {
    return getPendingProducts() ? std::min(numStages - 1, kProductsAhead)
                                : numStages - 1;
  }
  /// Whether the copies overwrite the slot of products that may still be
  /// in flight in another warpgroup: a barrier after the wait goes first.
  /// TMA's copies always take one: its products make no barrier of their
  /// own, so nothing else keeps a warpgroup that still reads a slot (or
  /// waits for an older phase of its barrier) from falling behind the
  /// thread that refills it.
  bool needsBarrierBeforeCopies() const {
    return byTensorMaps ||
           (getPendingProducts() && getAhead() == numStages - 1);
  }
};

/// Whether `load` moves runs of 16 bytes that its mask takes whole or not
/// at all, along its rows or (B only, `operand` 1: K^T from the rows of K,
/// copied into a transposed ring) down its columns, and fills masked-off
/// elements with 0 (what a copy that moves no byte leaves).
bool copiesWholeRuns(LoadOp load, int64_t operand, AccessAnalysis &analysis) {
  Type element = load.getType().getElementType();
  int64_t runElements =
      TargetInfo::kAsyncCopyBytes * 8 / element.getIntOrFloatBitWidth();
  auto wholeRuns = [&](bool downColumns) {
    int64_t width =
        downColumns ? analysis.getColumnVectorWidth(load.getBase(),
                                                    load.getOffsets(),
                                                    runElements)
                    : analysis.getVectorWidth(load.getBase(),
                                              load.getOffsets(), runElements);
    return width == runElements &&
           (!load.getMask() ||
            analysis.isUniformOverRuns(load.getMask(), runElements,
                                       downColumns));
  };
  if (!wholeRuns(/*downColumns=*/false) &&
      (operand == 0 || !wholeRuns(/*downColumns=*/true)))
    return false;
  if (Value other = load.getOther()) {
    auto constant = other.getDefiningOp<arith::ConstantOp>();
    auto value = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
    return value && value.getValue().isPosZero();
  }
  return true;
}

/// Bytes of the swizzled buffers `copies` makes: a ring of S for each
/// operand copied, one buffer for each A stored by the threads.
int64_t getBufferBytes(const LoopCopies &copies) {
  auto blockBytes = [](Value operand) {
    auto type = cast<RankedTensorType>(operand.getType());
    return getSwizzledBlockBytes(type.getDimSize(0), type.getDimSize(1),
                                 type.getElementTypeBitWidth());
  };
  int64_t bytes = 0;
  for (const DotCopies &dot : copies.dots) {
    DotOp op = dot.dot;
    bytes += copies.numStages * blockBytes(op.getB());
    bytes += (dot.a ? copies.numStages : 1) * blockBytes(op.getA());
  }
  return bytes;
}

/// The copies blk-pipeline-dot-operands makes for the products of `loop`,
/// if it makes any (isCopiedAheadToDot says when); nothing here asks a
/// layout. Every product directly in the loop must take part: the loop
/// commits one group of copies an iteration.
std::optional<LoopCopies> getLoopCopies(scf::ForOp loop,
                                        AccessAnalysis &analysis) {
  auto func = loop->getParentOfType<func::FuncOp>();
  KernelAttr kernel = func ? getKernelAttr(func) : KernelAttr();
  // In another loop (attention backward's walk over key tiles), a barrier
  // after the loop orders the next entry's first copies and stored A's
  // after the last products of this one (createBody).
  if (!kernel || loop.getUnsignedCmp() ||
      !loop.getInductionVar().getType().isInteger(32))
    return std::nullopt;
  TargetInfo target = getTargetInfo(loop);
  SmallVector<DotOp> dots(loop.getBody()->getOps<DotOp>());
  if (!target.hasAsyncCopy() || dots.empty())
    return std::nullopt;
  SmallVector<PipelinedLoad> candidates = getLoadsBeforeWrites(loop);
  auto getCandidate = [&](Value operand) -> std::optional<PipelinedLoad> {
    auto load = operand.getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse())
      return std::nullopt;
    for (const PipelinedLoad &pipelined : candidates)
      if (pipelined.load == load)
        return pipelined;
    return std::nullopt;
  };
  LoopCopies copies{loop, {}, kernel.getNumStages(), std::nullopt};
  for (DotOp dot : dots) {
    if (!fitsWgmma(dot, target, kernel.getNumWarps()))
      return std::nullopt;
    std::optional<PipelinedLoad> b = getCandidate(dot.getB());
    if (!b || !copiesWholeRuns(b->load, 1, analysis))
      return std::nullopt;
    std::optional<PipelinedLoad> a = getCandidate(dot.getA());
    if (a && !copiesWholeRuns(a->load, 0, analysis))
      a.reset();
    copies.dots.push_back({dot, std::move(a), std::move(*b)});
  }
  // One product with an A the threads store: not measured, left to the
  // dot's own lowering (its loads carried by blk-pipeline-loads).
  bool oneProduct = copies.dots.size() == 1;
  if (oneProduct && !copies.dots.front().a)
    return std::nullopt;
  if (copies.numStages < (oneProduct ? kMinStages : kMinStagesBesideWork) ||
      getBufferBytes(copies) + kSwizzleRepeatBytes - kVectorBytes >
          target.getMaxSharedBytesPerCta())
    return std::nullopt;
  if (oneProduct)
    copies.chained = getChainedAccumulator(copies.dots.front().dot, loop);
  return copies;
}

/// Whether the threads of `load` (laid out) hold runs down its columns.
bool runsDownColumns(LoadOp load) {
  return Distribution::get(load.getOffsets().getType())->runsDownColumns();
}

/// What blk-distribute decided for the products and their loads: the
/// accumulators laid out for wgmma, the copied loads' threads holding
/// whole 16-byte runs, A's along its rows (wgmma reads A K-major only).
bool hasCopyableLayouts(const LoopCopies &copies) {
  auto wholeRuns = [](LoadOp load) {
    FailureOr<Distribution> d = Distribution::get(load.getOffsets().getType());
    int64_t bits = load.getType().getElementTypeBitWidth();
    return succeeded(d) && getAccessVectorWidth(load, *d) * bits ==
                               TargetInfo::kAsyncCopyBytes * 8;
  };
  return llvm::all_of(copies.dots, [&](const DotCopies &dot) {
    DotOp op = dot.dot;
    FailureOr<Distribution> c = Distribution::get(op.getAcc().getType());
    return succeeded(c) &&
           c->getLayout() == getWgmmaAccumulatorLayout(
                                 op.getContext(), c->getLayout().getNumWarps()) &&
           succeeded(Distribution::get(op.getA().getType())) &&
           wholeRuns(dot.b.load) &&
           (!dot.a || (wholeRuns(dot.a->load) && !runsDownColumns(dot.a->load)));
  });
}

/// The box `load` (an operand copied into a ring) reads, if TMA can copy
/// it: 16-bit elements in whole panel rows, through an address and a row
/// stride that are multiples of 16 bytes (cuTensorMapEncodeTiled's).
std::optional<TileAccess> getCopyableTile(LoadOp load,
                                          AccessAnalysis &analysis) {
  RankedTensorType type = load.getType();
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  std::optional<TileAccess> tile = getTileAccess(load);
  // The copies' coordinates are i32 (tensor maps take 32-bit ones).
  if (!tile || bytes != 2 || type.getDimSize(0) > 256 ||
      !load.getOffsets().getType().getElementType().isInteger(32) ||
      !tile->rowBound.getType().isInteger(32) ||
      type.getDimSize(1) % (kPanelRowBytes / bytes) != 0 ||
      analysis.getPointerDivisibility(tile->matrix) % 16 != 0 ||
      analysis.getFacts(tile->rowStride).divisibility * bytes % 16 != 0)
    return std::nullopt;
  return tile;
}

/// Marks `copies` to be made by TMA where its loop, in no other loop, has
/// one product whose A (of kMinTensorMapTileRows rows or more) and B (not
/// transposed) both read a box of a matrix argument.
void findTensorMapCopies(LoopCopies &copies, AccessAnalysis &analysis) {
  // In another loop, the next entry would initialize the barriers again.
  if (!getTargetInfo(copies.loop).hasTensorMaps() ||
      copies.dots.size() != 1 ||
      copies.loop->getParentOfType<LoopLikeOpInterface>())
    return;
  DotCopies &dot = copies.dots.front();
  if (!dot.a || runsDownColumns(dot.b.load) ||
      dot.a->load.getType().getDimSize(0) < kMinTensorMapTileRows)
    return;
  std::optional<TileAccess> a = getCopyableTile(dot.a->load, analysis);
  std::optional<TileAccess> b = getCopyableTile(dot.b.load, analysis);
  if (!a || !b)
    return;
  dot.tileA = TensorCopy(*a, copies.loop, analysis);
  dot.tileB = TensorCopy(*b, copies.loop, analysis);
  copies.byTensorMaps = true;
}

/// `value` (a scalar the loop body computes from its induction variable and
/// values from outside) for the iteration at `position`, its ops cloned at
/// `b`.
Value createScalarAt(OpBuilder &b, scf::ForOp loop, Value value,
                     Value position, IRMapping &mapping) {
  if (value == loop.getInductionVar())
    return position;
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  Operation *op = value.getDefiningOp();
  if (!op || !loop->isProperAncestor(op))
    return value;
  for (Value operand : op->getOperands())
    mapping.map(operand, createScalarAt(b, loop, operand, position, mapping));
  return b.clone(*op, mapping)->getResult(cast<OpResult>(value).getResultNumber());
}

/// Builds the rings and the copies of a loop's products.
class RingBuilder {
public:
  explicit RingBuilder(LoopCopies &copies) : copies(copies) {}

  /// The rings (and the buffers of A's defined outside the loop) before
  /// the loop, and the copies of its first `ahead` iterations.
  void createPrologue(OpBuilder &b) {
    scf::ForOp loop = copies.loop;
    for (DotCopies &dot : copies.dots) {
      Buffers buffers;
      if (dot.a)
        buffers.ringA = createRing(b, dot.a->load, 0);
      else if (loop.isDefinedOutsideOfLoop(dot.dot.getA()))
        buffers.a = createStoredA(b, dot.dot);
      buffers.ringB = createRing(b, dot.b.load, 1);
      if (copies.byTensorMaps) {
        buffers.mapA = createTensorMap(*dot.tileA, buffers.ringA, false);
        buffers.mapB = createTensorMap(*dot.tileB, buffers.ringB, false);
        if (takesRotatedBox(*dot.tileA, buffers.ringA))
          buffers.mapARotated =
              createTensorMap(*dot.tileA, buffers.ringA, true);
      }
      buffersOf.push_back(buffers);
    }
    Location loc = loop.getLoc();
    if (copies.byTensorMaps)
      barriers = InitBarriersOp::create(
          b, loc, BarriersType::get(b.getContext(), copies.numStages));
    for (int64_t k = 0; k < copies.getAhead(); ++k) {
      Value position = loop.getLowerBound();
      Value bound = loop.getUpperBound();
      if (k > 0) {
        Value steps = createSteps(b, loop, k);
        position = arith::AddIOp::create(b, loc, position, steps);
        bound = createBound(b, loop, steps);
      }
      Value runs = createBelow(b, loc, loop.getLowerBound(), bound);
      createCopies(b, position, runs, createI32(b, k));
    }
  }

  /// Each product from its slots (A stored first where no ring holds it);
  /// the wait before the first, the copies of the iteration `ahead` on
  /// after it, the last wait after the loop.
  void createBody(OpBuilder &before) {
    int64_t ahead = copies.getAhead();
    int64_t pending = copies.getPendingProducts();
    Value aheadSteps = createSteps(before, copies.loop, ahead);
    Value lastBound = createBound(before, copies.loop, aheadSteps);
    auto [slot, next, phase] = carrySlots(ahead);
    scf::ForOp loop = copies.loop;

    for (auto [index, dot] : llvm::enumerate(copies.dots)) {
      Buffers &buffers = buffersOf[index];
      Location loc = dot.dot.getLoc();
      OpBuilder b(dot.dot);
      if (index == 0 && copies.byTensorMaps)
        WaitBarrierOp::create(b, loc, barriers, slot, phase);
      else if (index == 0)
        AsyncWaitGroupOp::create(b, loc, ahead - 1);
      Value a = buffers.ringA ? createSlot(b, buffers.ringA, slot) : buffers.a;
      // An A the threads compute in wgmma's fragments stays in registers;
      // a later product then reads only B, which the first one's barrier
      // published with the iteration's other copies.
      bool aInRegisters =
          !a && holdsWgmmaFragmentsOfA(dot.dot.getA().getType(), getNumWarps());
      // Every thread waited at the slot's barrier for TMA's copies, which
      // the barrier's phase makes visible to it: no barrier of the CTA.
      bool synchronize =
          !copies.byTensorMaps && (index == 0 || !aInRegisters);
      if (aInRegisters) {
        a = dot.dot.getA();
      } else if (!a) {
        // Other warpgroups may still read the last iteration's A, unless
        // a product of this iteration (its barrier) came first.
        if (index == 0)
          BarrierOp::create(b, loc);
        a = createStoredA(b, dot.dot);
      }
      Value product = WarpgroupDotOp::create(
          b, loc, dot.dot.getType(), a, createSlot(b, buffers.ringB, slot),
          dot.dot.getAcc(), pending, synchronize);
      dot.dot.replaceAllUsesWith(product);
      if (index != 0)
        continue;
      b.setInsertionPointAfter(product.getDefiningOp());
      if (copies.needsBarrierBeforeCopies())
        BarrierOp::create(b, loc);
      Value position =
          arith::AddIOp::create(b, loc, loop.getInductionVar(), aheadSteps);
      createCopies(b, position,
                   createBelow(b, loc, loop.getInductionVar(), lastBound),
                   next);
    }

    OpBuilder b(loop->getContext());
    b.setInsertionPointAfter(loop);
    Location loc = loop.getLoc();
    // TMA's copies past the last iteration were never made.
    if (!copies.byTensorMaps)
      AsyncWaitGroupOp::create(b, loc, 0);
    if (pending) {
      Value last = loop.getResult(*copies.chained);
      auto wait = WarpgroupWaitOp::create(b, loc, last.getType(), 0, last);
      last.replaceAllUsesExcept(wait.getResult(0), wait);
    }
    // In another loop, the next entry's first copies and stored A's would
    // overwrite slots another warpgroup's last products of this entry may
    // still read.
    if (loop->getParentOfType<LoopLikeOpInterface>())
      BarrierOp::create(b, loc);
  }

private:
  /// A product's swizzled buffers: rings of its copied operands, or the
  /// buffer of an A defined outside the loop.
  struct Buffers {
    Value ringA, a, ringB;
    /// The tensor maps of A and B, where TMA copies them, and of A in one
    /// box that lands rotated (its tiles wholly inside the matrix), where A
    /// takes one (takesRotatedBox).
    Value mapA, mapB, mapARotated;
  };

  int64_t getNumWarps() const {
    return Distribution::get(copies.dots.front().dot.getAcc().getType())
        ->getLayout()
        .getNumWarps();
  }

  /// The slots iteration i reads (i mod S) and writes ((i + ahead) mod S),
  /// carried by the loop from 0 and `ahead` and stepped round the ring
  /// (the remainders by S cost a multiply-high and four more instructions a
  /// slot each iteration), and where TMA copies, the parity of the phase of
  /// the barrier of the slot read ((i / S) mod 2, from 0, flipped where the
  /// slot wraps); replaces copies.loop by the loop that carries them.
  std::tuple<Value, Value, Value> carrySlots(int64_t ahead) {
    scf::ForOp loop = copies.loop;
    IRRewriter rewriter(loop);
    int64_t stages = copies.numStages;
    bool carriesPhase = copies.byTensorMaps;
    // The slot after `slot`, and whether that wraps round the ring.
    auto step = [&](OpBuilder &b, Location loc,
                    Value slot) -> std::pair<Value, Value> {
      Value next = arith::AddIOp::create(b, loc, slot, createI32(b, 1));
      Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          next, createI32(b, stages));
      return {arith::SelectOp::create(b, loc, wraps, createI32(b, 0), next),
              wraps};
    };
    SmallVector<Value> initial{createI32(rewriter, 0),
                               createI32(rewriter, ahead)};
    if (carriesPhase)
      initial.push_back(createI32(rewriter, 0));
    FailureOr<LoopLikeOpInterface> carried = loop.replaceWithAdditionalYields(
        rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> slots) {
          auto [read, readWraps] = step(b, loc, slots[0]);
          SmallVector<Value> stepped{read, step(b, loc, slots[1]).first};
          if (carriesPhase) {
            Value flip =
                arith::ExtUIOp::create(b, loc, b.getI32Type(), readWraps);
            stepped.push_back(arith::XOrIOp::create(b, loc, slots[2], flip));
          }
          return stepped;
        });
    copies.loop = cast<scf::ForOp>(carried->getOperation());
    ValueRange slots =
        copies.loop.getRegionIterArgs().take_back(initial.size());
    return {slots[0], slots[1], carriesPhase ? slots[2] : Value()};
  }

  static Value createI32(OpBuilder &b, int64_t value) {
    return arith::ConstantOp::create(b, b.getUnknownLoc(),
                                     b.getI32IntegerAttr(value));
  }

  /// A ring of S buffers for operand `operand` (0: A, 1: B) of a product:
  /// B K-major where its copies run down its columns.
  Value createRing(OpBuilder &b, LoadOp load, int64_t operand) {
    ArrayRef<int64_t> shape = load.getType().getShape();
    auto type = SharedType::get(
        b.getContext(), {copies.numStages, shape[0], shape[1]},
        load.getType().getElementType(),
        getWgmmaOperandEncoding(b.getContext(), getNumWarps(), operand,
                                /*kMajorB=*/runsDownColumns(load)));
    return LocalAllocOp::create(b, load.getLoc(), type, Value());
  }

  /// `dot`'s A stored by the threads where wgmma reads it.
  Value createStoredA(OpBuilder &b, DotOp dot) {
    RankedTensorType a = dot.getA().getType();
    auto type = SharedType::get(
        b.getContext(), a.getShape(), a.getElementType(),
        getWgmmaOperandEncoding(b.getContext(), getNumWarps(), 0));
    return LocalAllocOp::create(b, dot.getLoc(), type, dot.getA());
  }

  static Value createSlot(OpBuilder &b, Value ring, Value index) {
    return LocalIndexOp::create(b, ring.getLoc(),
                                cast<SharedType>(ring.getType()).getSlotType(),
                                ring, index);
  }

  /// Whether the slots of `ring` (rows rotated) can take `tile` as one box
  /// of a rotated map: a slot is one block of the rotation (2^(first +
  /// bits) rows, one panel) and the tile starts at a multiple of it.
  static bool takesRotatedBox(const TensorCopy &tile, Value ring) {
    auto type = cast<SharedType>(ring.getType());
    std::optional<BitRotation> rotation = getRowRotation(type.getEncoding());
    if (!rotation)
      return false;
    int64_t rows = int64_t(1) << (rotation->first + rotation->count);
    int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
    return type.getShape()[1] == rows &&
           type.getShape()[2] * elementBytes == kPanelRowBytes &&
           tile.rowDivisibility % rows == 0;
  }

  /// The tensor map through which TMA copies `tile` into the slots of
  /// `ring`: a new argument of the kernel. Its boxes are the panels'
  /// 128-byte rows by the rows a rotation keeps together (else all of a
  /// slot's), or `rotated` (takesRotatedBox), a whole slot that lands with
  /// the rotation.
  Value createTensorMap(const TensorCopy &tile, Value ring, bool rotated) {
    auto type = cast<SharedType>(ring.getType());
    std::optional<BitRotation> rotation = getRowRotation(type.getEncoding());
    int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t boxRows = rotation && !rotated ? int64_t(1) << rotation->first
                                           : type.getShape()[1];
    auto mapType = TensorMapType::get(
        ring.getContext(), {boxRows, kPanelRowBytes / elementBytes},
        type.getElementType(), rotated ? rotation->first : 0,
        rotated ? rotation->count : 0);
    auto kernel = cast<func::FuncOp>(tile.matrix.getOwner()->getParentOp());
    ArgAttr matrix = getArgAttr(kernel, tile.matrix.getArgNumber());
    MLIRContext *context = kernel.getContext();
    auto declared = NamedAttribute(
        BlkDialect::getArgAttrName(),
        ArgAttr::get(context, ArgRole::tensor_map, matrix.getName(),
                     ArgExtent::matrix));
    unsigned index = kernel.getNumArguments();
    (void)kernel.insertArgument(index, mapType,
                                DictionaryAttr::get(context, {declared}),
                                tile.matrix.getLoc());
    return kernel.getArgument(index);
  }

  /// A box's first row or column at `position`.
  Value createTileStart(OpBuilder &b, const TensorCopy::Start &start,
                        Value position) {
    IRMapping mapping;
    Location loc = copies.loop.getLoc();
    Value sum = createI32(b, 0);
    for (int64_t i = 0; i < start.inductionTerms; ++i)
      sum = arith::AddIOp::create(b, loc, sum, position);
    for (Value term : start.terms)
      sum = arith::AddIOp::create(
          b, loc, sum, createScalarAt(b, copies.loop, term, position, mapping));
    return sum;
  }

  /// TMA's copies of the iteration at `position` into slot `slot`, under
  /// the slot's barrier: one thread announces their bytes, then starts
  /// them (nothing where `runs` is false). A with a rotated map goes as
  /// one box where its tile lies wholly inside the matrix (its first row
  /// at most its rows less the tile's), else in boxes of its groups.
  void createTensorCopies(OpBuilder &b, Value position, Value runs,
                          Value slot) {
    Location loc = copies.loop.getLoc();
    SmallVector<std::tuple<const TensorCopy *, Value, Value, Value>> operands;
    for (auto [dot, buffers] : llvm::zip(copies.dots, buffersOf)) {
      operands.push_back({&*dot.tileA, buffers.mapA, buffers.mapARotated,
                          createSlot(b, buffers.ringA, slot)});
      operands.push_back({&*dot.tileB, buffers.mapB, Value(),
                          createSlot(b, buffers.ringB, slot)});
    }
    Operation *first = nullptr;
    int64_t bytes = 0;
    for (auto [tile, map, rotatedMap, dest] : operands) {
      Value row = createTileStart(b, tile->row, position);
      Value col = createTileStart(b, tile->col, position);
      Value plainRuns = runs;
      if (rotatedMap) {
        int64_t tileRows = cast<SharedType>(dest.getType()).getShape()[0];
        Value lastStart = arith::SubIOp::create(b, loc, tile->rowBound,
                                                createI32(b, tileRows));
        Value inside = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sle, row, lastStart);
        Value outside = arith::XOrIOp::create(
            b, loc, inside,
            arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
        Operation *whole = TensorCopyIntoOp::create(
            b, loc, rotatedMap, row, col, dest, barriers, slot,
            arith::AndIOp::create(b, loc, runs, inside));
        first = first ? first : whole;
        plainRuns = arith::AndIOp::create(b, loc, runs, outside);
      }
      auto copy = TensorCopyIntoOp::create(b, loc, map, row, col, dest,
                                           barriers, slot, plainRuns);
      first = first ? first : copy.getOperation();
      bytes += copy.getCopiedBytes();
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(first);
    BarrierExpectOp::create(b, loc, barriers, slot, bytes, runs);
  }

  /// Every ring's copies of the iteration at `position` (none where `runs`
  /// is false) into slot `slot`, one group.
  void createCopies(OpBuilder &b, Value position, Value runs, Value slot) {
    if (copies.byTensorMaps)
      return createTensorCopies(b, position, runs, slot);
    for (auto [dot, buffers] : llvm::zip(copies.dots, buffersOf)) {
      if (dot.a)
        createCopy(b, *dot.a, position, runs,
                   createSlot(b, buffers.ringA, slot));
      createCopy(b, dot.b, position, runs, createSlot(b, buffers.ringB, slot));
    }
    AsyncCommitGroupOp::create(b, copies.loop.getLoc());
  }

  void createCopy(OpBuilder &b, const PipelinedLoad &pipelined, Value position,
                  Value runs, Value dest) {
    IRMapping mapping = createAddressAt(b, copies.loop, pipelined, position);
    LoadOp load = pipelined.load;
    Value mask = createMaskWhere(b, mapping, load, runs);
    auto copy = AsyncCopyIntoOp::create(
        b, load.getLoc(), mapping.lookupOrDefault(load.getBase()),
        mapping.lookupOrDefault(load.getOffsets()), mask, dest);
    copy->setAttr(BlkDialect::getVectorAttrName(),
                  load->getAttr(BlkDialect::getVectorAttrName()));
  }

  LoopCopies &copies;
  SmallVector<Buffers> buffersOf;
  /// The barriers of the rings' slots, where TMA copies.
  Value barriers;
};

/// Rewrites the loop's products to read the rings their operands are
/// copied into, and erases the loads and the address ops only they used.
void pipelineDotOperands(LoopCopies &copies) {
  OpBuilder before(copies.loop);
  RingBuilder rings(copies);
  rings.createPrologue(before);
  rings.createBody(before);
  // The loads' address ops may share ops: each is erased once, users
  // first.
  llvm::SetVector<Operation *> addressOps;
  for (DotCopies &dot : copies.dots) {
    dot.dot.erase();
    for (PipelinedLoad *pipelined : {dot.a ? &*dot.a : nullptr, &dot.b}) {
      if (!pipelined)
        continue;
      pipelined->load.erase();
      addressOps.insert_range(pipelined->addressOps);
    }
  }
  SmallVector<Operation *> ops = addressOps.takeVector();
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *op : ops)
    if (op->use_empty())
      op->erase();
}

struct BlkPipelineDotOperandsPass
    : public mlir::blk::impl::BlkPipelineDotOperandsBase<
          BlkPipelineDotOperandsPass> {
  using BlkPipelineDotOperandsBase::BlkPipelineDotOperandsBase;

  void runOnOperation() override {
    AccessAnalysis analysis;
    SmallVector<LoopCopies, 1> found;
    getOperation().walk([&](scf::ForOp loop) {
      std::optional<LoopCopies> copies = getLoopCopies(loop, analysis);
      if (!copies || !hasCopyableLayouts(*copies))
        return;
      if (tensorMaps)
        findTensorMapCopies(*copies, analysis);
      found.push_back(std::move(*copies));
    });
    for (LoopCopies &copies : found)
      pipelineDotOperands(copies);
  }
};

} // namespace

bool mlir::blk::isCopiedAheadToDot(LoadOp load) {
  auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
  if (!loop)
    return false;
  AccessAnalysis analysis;
  std::optional<LoopCopies> copies = getLoopCopies(loop, analysis);
  return copies && llvm::any_of(copies->dots, [&](const DotCopies &dot) {
           return dot.b.load == load || (dot.a && dot.a->load == load);
         });
}
