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

/// Stages from which the rings pay: at 2 the copies run one K step ahead
/// and each is waited for before the next product, so nothing hides their
/// latency; the operands carried in registers by blk-pipeline-loads are
/// faster there (docs/benchmarks.md, "Matmul").
constexpr int64_t kMinStages = 3;

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

/// A dot whose operands are copied ahead, its loop, and the operands'
/// loads with their address ops.
struct DotOperandCopies {
  DotOp dot;
  scf::ForOp loop;
  PipelinedLoad a, b;
  int64_t numStages;
  /// getChainedAccumulator, asked before the rewrite replaces the dot.
  std::optional<unsigned> chained;

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
  bool needsBarrierBeforeCopies() const {
    return getPendingProducts() && getAhead() == numStages - 1;
  }
};

/// Whether `load` moves runs of 16 bytes that its mask takes whole or not
/// at all, and fills masked-off elements with 0 (what a copy that moves no
/// byte leaves).
bool copiesWholeRuns(LoadOp load, AccessAnalysis &analysis) {
  Type element = load.getType().getElementType();
  int64_t runElements =
      TargetInfo::kAsyncCopyBytes * 8 / element.getIntOrFloatBitWidth();
  if (analysis.getVectorWidth(load.getBase(), load.getOffsets(),
                              runElements) != runElements)
    return false;
  if (load.getMask() && !analysis.isUniformOverRuns(load.getMask(), runElements))
    return false;
  if (Value other = load.getOther()) {
    auto constant = other.getDefiningOp<arith::ConstantOp>();
    auto value = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
    return value && value.getValue().isPosZero();
  }
  return true;
}

/// Whether rings of `stages` slots for A and B fit a CTA of `target`, with
/// room to round the dynamic shared start up to their alignment: where
/// they do not, the operands stay loads (in registers the dot's region
/// takes less).
bool ringsFit(LoadOp a, LoadOp b, int64_t stages, const TargetInfo &target) {
  int64_t bytes = 0;
  for (LoadOp load : {a, b}) {
    ArrayRef<int64_t> shape = load.getType().getShape();
    bytes += stages * getSwizzledBlockBytes(shape[0], shape[1],
                                            load.getType().getElementTypeBitWidth());
  }
  return bytes + kSwizzleRepeatBytes - kVectorBytes <=
         target.getMaxSharedBytesPerCta();
}

/// The copies blk-pipeline-dot-operands makes for `dot`, if it makes any
/// (isCopiedAheadToDot says when); nothing here asks a layout.
std::optional<DotOperandCopies> getDotOperandCopies(DotOp dot,
                                                    AccessAnalysis &analysis) {
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  auto func = dot->getParentOfType<func::FuncOp>();
  KernelAttr kernel = func ? getKernelAttr(func) : KernelAttr();
  // In another loop, the next entry's first copies could overwrite a slot
  // another warpgroup's last products of this entry still read: nothing
  // orders them after the loop.
  if (!loop || !kernel || kernel.getNumStages() < kMinStages ||
      loop.getUnsignedCmp() ||
      !loop.getInductionVar().getType().isInteger(32) ||
      loop->getParentOfType<LoopLikeOpInterface>())
    return std::nullopt;
  TargetInfo target = getTargetInfo(dot);
  if (!target.hasAsyncCopy() ||
      !fitsWgmma(dot, target, kernel.getNumWarps()))
    return std::nullopt;
  auto a = dot.getA().getDefiningOp<LoadOp>();
  auto b = dot.getB().getDefiningOp<LoadOp>();
  if (!a || !b || a == b || !a->hasOneUse() || !b->hasOneUse())
    return std::nullopt;
  std::optional<PipelinedLoad> pipelinedA, pipelinedB;
  for (PipelinedLoad &pipelined : getLoadsBeforeWrites(loop)) {
    if (pipelined.load == a)
      pipelinedA = std::move(pipelined);
    else if (pipelined.load == b)
      pipelinedB = std::move(pipelined);
  }
  if (!pipelinedA || !pipelinedB || !copiesWholeRuns(a, analysis) ||
      !copiesWholeRuns(b, analysis) ||
      !ringsFit(a, b, kernel.getNumStages(), target))
    return std::nullopt;
  return DotOperandCopies{dot,
                          loop,
                          std::move(*pipelinedA),
                          std::move(*pipelinedB),
                          kernel.getNumStages(),
                          getChainedAccumulator(dot, loop)};
}

/// What blk-distribute decided for the dot and its loads: the accumulator
/// laid out for wgmma, the loads' threads holding whole 16-byte runs.
bool hasCopyableLayouts(DotOperandCopies &copies) {
  FailureOr<Distribution> c = Distribution::get(copies.dot.getAcc().getType());
  if (failed(c) ||
      c->getLayout() != getWgmmaAccumulatorLayout(
                            copies.dot.getContext(),
                            c->getLayout().getNumWarps()))
    return false;
  return llvm::all_of(std::array{copies.a.load, copies.b.load}, [](LoadOp load) {
    FailureOr<Distribution> d = Distribution::get(load.getOffsets().getType());
    int64_t bits = load.getType().getElementTypeBitWidth();
    return succeeded(d) && getAccessVectorWidth(load, *d) * bits ==
                               TargetInfo::kAsyncCopyBytes * 8;
  });
}

/// Builds the rings and the copies of one dot's operands.
class RingBuilder {
public:
  explicit RingBuilder(DotOperandCopies &copies) : copies(copies) {}

  /// The rings before the loop, and the copies of its first S - 1
  /// iterations.
  void createPrologue(OpBuilder &b) {
    scf::ForOp loop = copies.loop;
    int64_t warps =
        Distribution::get(copies.dot.getAcc().getType())->getLayout()
            .getNumWarps();
    ringA = createRing(b, copies.a.load, warps, 0);
    ringB = createRing(b, copies.b.load, warps, 1);
    Location loc = loop.getLoc();
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

  /// The product of iteration i from slot i mod S, then the copies of the
  /// iteration `ahead` on; the wait before the product, the last ones after
  /// the loop.
  void createBody(OpBuilder &before) {
    DotOp dot = copies.dot;
    Location loc = dot.getLoc();
    int64_t ahead = copies.getAhead();
    int64_t pending = copies.getPendingProducts();
    Value aheadSteps = createSteps(before, copies.loop, ahead);
    Value lastBound = createBound(before, copies.loop, aheadSteps);
    auto [slot, next] = carrySlots(ahead);
    scf::ForOp loop = copies.loop;

    OpBuilder b(dot);
    AsyncWaitGroupOp::create(b, loc, ahead - 1);
    Value product = WarpgroupDotOp::create(
        b, loc, dot.getType(), createSlot(b, ringA, slot),
        createSlot(b, ringB, slot), dot.getAcc(), pending);
    dot.replaceAllUsesWith(product);

    b.setInsertionPointAfter(product.getDefiningOp());
    if (copies.needsBarrierBeforeCopies())
      BarrierOp::create(b, loc);
    Value position =
        arith::AddIOp::create(b, loc, loop.getInductionVar(), aheadSteps);
    createCopies(b, position,
                 createBelow(b, loc, loop.getInductionVar(), lastBound), next);

    b.setInsertionPointAfter(loop);
    AsyncWaitGroupOp::create(b, loc, 0);
    if (pending) {
      Value last = loop.getResult(*copies.chained);
      auto wait = WarpgroupWaitOp::create(b, loc, last.getType(), 0, last);
      last.replaceAllUsesExcept(wait.getResult(0), wait);
    }
  }

private:
  /// The slots iteration i reads (i mod S) and writes ((i + ahead) mod S),
  /// carried by the loop from 0 and `ahead` and stepped round the ring
  /// (the remainders by S cost a multiply-high and four more instructions a
  /// slot each iteration); replaces copies.loop by the loop that carries
  /// them.
  std::pair<Value, Value> carrySlots(int64_t ahead) {
    scf::ForOp loop = copies.loop;
    IRRewriter rewriter(loop);
    int64_t stages = copies.numStages;
    auto step = [&](OpBuilder &b, Location loc, Value slot) -> Value {
      Value next = arith::AddIOp::create(b, loc, slot, createI32(b, 1));
      Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          next, createI32(b, stages));
      return arith::SelectOp::create(b, loc, wraps, createI32(b, 0), next);
    };
    FailureOr<LoopLikeOpInterface> carried = loop.replaceWithAdditionalYields(
        rewriter, ValueRange{createI32(rewriter, 0), createI32(rewriter, ahead)},
        /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument> slots) {
          return SmallVector<Value>{step(b, loc, slots[0]),
                                    step(b, loc, slots[1])};
        });
    copies.loop = cast<scf::ForOp>(carried->getOperation());
    ValueRange slots = copies.loop.getRegionIterArgs().take_back(2);
    return {slots[0], slots[1]};
  }

  static Value createI32(OpBuilder &b, int64_t value) {
    return arith::ConstantOp::create(b, b.getUnknownLoc(),
                                     b.getI32IntegerAttr(value));
  }

  /// A ring of S buffers for operand `operand` (0: A, 1: B) of the dot.
  Value createRing(OpBuilder &b, LoadOp load, int64_t warps, int64_t operand) {
    ArrayRef<int64_t> shape = load.getType().getShape();
    auto type = SharedType::get(
        b.getContext(), {copies.numStages, shape[0], shape[1]},
        load.getType().getElementType(),
        getWgmmaOperandEncoding(b.getContext(), warps, operand));
    return LocalAllocOp::create(b, load.getLoc(), type, Value());
  }

  static Value createSlot(OpBuilder &b, Value ring, Value index) {
    return LocalIndexOp::create(b, ring.getLoc(),
                                cast<SharedType>(ring.getType()).getSlotType(),
                                ring, index);
  }

  /// A's and B's copies of the iteration at `position` (none where `runs`
  /// is false) into slot `slot` of their rings, one group.
  void createCopies(OpBuilder &b, Value position, Value runs, Value slot) {
    createCopy(b, copies.a, position, runs, createSlot(b, ringA, slot));
    createCopy(b, copies.b, position, runs, createSlot(b, ringB, slot));
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

  DotOperandCopies &copies;
  Value ringA, ringB;
};

/// Rewrites `copies.dot` to read rings its operands are copied into, and
/// erases the loads and the address ops only they used.
void pipelineDotOperands(DotOperandCopies &copies) {
  OpBuilder before(copies.loop);
  RingBuilder rings(copies);
  rings.createPrologue(before);
  rings.createBody(before);
  copies.dot.erase();
  copies.a.load.erase();
  copies.b.load.erase();
  // A's and B's address ops may share ops: each is erased once, users
  // first.
  llvm::SetVector<Operation *> addressOps;
  addressOps.insert_range(copies.a.addressOps);
  addressOps.insert_range(copies.b.addressOps);
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
    SmallVector<DotOperandCopies> found;
    getOperation().walk([&](DotOp dot) {
      std::optional<DotOperandCopies> copies =
          getDotOperandCopies(dot, analysis);
      if (copies && hasCopyableLayouts(*copies))
        found.push_back(std::move(*copies));
    });
    for (DotOperandCopies &copies : found)
      pipelineDotOperands(copies);
  }
};

} // namespace

bool mlir::blk::isCopiedAheadToDot(LoadOp load) {
  AccessAnalysis analysis;
  for (Operation *user : load->getUsers())
    if (auto dot = dyn_cast<DotOp>(user))
      if (getDotOperandCopies(dot, analysis))
        return true;
  return false;
}
