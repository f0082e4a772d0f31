//===- TensorCopyOps.cpp - TMA copies and mbarriers ------------------------===//
//
// A ring filled by the tensor memory accelerator: mbarriers in static
// shared memory (the plan's globals), one thread announcing each slot's
// bytes and issuing its boxes, every thread waiting for the slot's phase.
// The boxes land already swizzled: TMA's 128-byte swizzle is the
// arrangement wgmma reads (#blk.swizzled), the pattern following the
// shared address, which each box's 1024-byte aligned place keeps.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Whether this thread is the CTA's first, which issues the copies and
/// arrivals: `pred` (if any) and thread 0.
Value createIssuerPredicate(OpBuilder &b, Location loc, Value pred) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                      createI32Constant(b, loc, 0));
  return pred ? arith::AndIOp::create(b, loc, first, pred) : first;
}

/// The address of barrier `index` of an array of them.
Value createBarrierAddress(OpBuilder &b, Location loc, Value barriers,
                           Value index) {
  return LLVM::GEPOp::create(b, loc, barriers.getType(), b.getI64Type(),
                             barriers, ValueRange{index});
}

/// The plan's global of the barriers, initialized for one arrival each by
/// thread 0, made visible to the asynchronous proxy (the fence) and to
/// every thread (the barrier).
struct InitBarriersToMbarriers : public OpConversionPattern<InitBarriersOp> {
  InitBarriersToMbarriers(const TypeConverter &converter, MLIRContext *context,
                          const WorkgroupPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}

  LogicalResult
  matchAndRewrite(InitBarriersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LLVM::GlobalOp global = plan.barriersOf.lookup(op);
    if (!global)
      return rewriter.notifyMatchFailure(op, "no planned barriers");
    Type pointer = getTypeConverter()->convertType(op.getType());
    Value barriers = LLVM::AddressOfOp::create(rewriter, loc, pointer,
                                               global.getSymName());
    Value issuer = createIssuerPredicate(rewriter, loc, Value());
    for (int64_t i = 0; i < op.getType().getCount(); ++i)
      NVVM::MBarrierInitOp::create(
          rewriter, loc,
          createBarrierAddress(rewriter, loc, barriers,
                               createI32Constant(rewriter, loc, i)),
          createI32Constant(rewriter, loc, 1), issuer);
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, barriers);
    return success();
  }

  const WorkgroupPlan &plan;
};

struct BarrierExpectToArrive : public OpConversionPattern<BarrierExpectOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, loc, Type(),
        createBarrierAddress(rewriter, loc, adaptor.getBarriers(),
                             adaptor.getIndex()),
        createI32Constant(rewriter, loc, op.getBytes()),
        NVVM::MemScopeKindAttr(), BoolAttr(),
        createIssuerPredicate(rewriter, loc, adaptor.getPred()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// One `cp.async.bulk.tensor.2d` per box of the buffer, issued by the
/// first threads side by side, a box each (panels of 64 columns, R rows of
/// 128 bytes each; a box of rows at its row of its panel, rotated where the
/// buffer's rows are): one instruction of warp 0 for up to 32 boxes. A
/// rotated map's one box is one `cp.async.bulk.tensor.4d` of thread 0: TMA
/// takes a few large boxes much faster than many small ones (a 128 x 64
/// tile of A in 16 boxes of 8 rows against one box: docs/benchmarks.md,
/// "What the rules rest on").
struct TensorCopyIntoToBulkCopies
    : public OpConversionPattern<TensorCopyIntoOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TensorCopyIntoOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (std::optional<BitRotation> rotation =
            getRowRotation(op.getMap().getType()))
      return copyRotatedBox(op, adaptor, *rotation, rewriter);
    SharedType dest = op.getDest().getType();
    ArrayRef<int64_t> box = op.getMap().getType().getBox();
    ArrayRef<int64_t> shape = dest.getShape();
    std::optional<BitRotation> rotation = getRowRotation(dest.getEncoding());
    int64_t rowBoxes = shape[0] / box[0];
    int64_t boxes = shape[1] / box[1] * rowBoxes;
    auto constant = [&](int64_t value) {
      return createI32Constant(rewriter, loc, value);
    };
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value barrier = createBarrierAddress(rewriter, loc, adaptor.getBarriers(),
                                         adaptor.getIndex());
    Type clusterPointer = getClusterPointerType();
    for (int64_t first = 0; first < boxes; first += kWarpSize) {
      Value issues = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, tid,
          constant(std::min<int64_t>(kWarpSize, boxes - first)));
      if (Value pred = adaptor.getPred())
        issues = arith::AndIOp::create(rewriter, loc, issues, pred);
      Value index = arith::AddIOp::create(rewriter, loc, tid, constant(first));
      Value panel = arith::DivUIOp::create(rewriter, loc, index,
                                           constant(rowBoxes));
      Value boxRow = arith::MulIOp::create(
          rewriter, loc,
          arith::RemUIOp::create(rewriter, loc, index, constant(rowBoxes)),
          constant(box[0]));
      Value placeRow =
          rotation ? createRotatedRow(rewriter, loc, boxRow, *rotation) : boxRow;
      Value offset = createMulAdd(
          rewriter, loc, panel, shape[0] * kPanelRowBytes,
          createMulAdd(rewriter, loc, placeRow, kPanelRowBytes, Value()));
      Value place = LLVM::GEPOp::create(
          rewriter, loc, adaptor.getDest().getType(), rewriter.getI8Type(),
          adaptor.getDest(), ValueRange{offset});
      place = LLVM::AddrSpaceCastOp::create(rewriter, loc, clusterPointer,
                                            place);
      Value col = arith::AddIOp::create(
          rewriter, loc, adaptor.getCol(),
          arith::MulIOp::create(rewriter, loc, panel, constant(box[1])));
      Value row = arith::AddIOp::create(rewriter, loc, adaptor.getRow(), boxRow);
      // Coordinates go fastest dimension first: column, then row.
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, place, adaptor.getMap(), ValueRange{col, row},
          barrier, ValueRange(), Value(), Value(), NVVM::TMALoadModeAttr(),
          BoolAttr(), NVVM::CTAGroupKindAttr(), issues);
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// The one box of a rotated map, by thread 0: coordinates (column; row
  /// in its group; block of 2^(first + bits - 1) rows; group in the
  /// block), the box's first row starting a block.
  LogicalResult copyRotatedBox(TensorCopyIntoOp op, OpAdaptor adaptor,
                               const BitRotation &rotation,
                               ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Value zero = createI32Constant(rewriter, loc, 0);
    Value block = arith::ShRUIOp::create(
        rewriter, loc, adaptor.getRow(),
        createI32Constant(rewriter, loc, rotation.first + rotation.count - 1));
    Value place = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, getClusterPointerType(), adaptor.getDest());
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, place, adaptor.getMap(),
        ValueRange{adaptor.getCol(), zero, block, zero},
        createBarrierAddress(rewriter, loc, adaptor.getBarriers(),
                             adaptor.getIndex()),
        ValueRange(), Value(), Value(), NVVM::TMALoadModeAttr(), BoolAttr(),
        NVVM::CTAGroupKindAttr(),
        createIssuerPredicate(rewriter, loc, adaptor.getPred()));
    rewriter.eraseOp(op);
    return success();
  }

  /// The cluster form of the copy's destination (PTX 8.0): a CTA's own
  /// shared memory is its place in its cluster's window.
  Type getClusterPointerType() const {
    return LLVM::LLVMPointerType::get(
        getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  }
};

/// `mbarrier.try_wait.parity` until the phase completes, suspending the
/// thread for up to the hint (CUTLASS's ten million ns) between tries.
struct WaitBarrierToTryWait : public OpConversionPattern<WaitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    constexpr int64_t kSuspendHintNs = 10000000;
    NVVM::MBarrierTryWaitParityOp::create(
        rewriter, loc,
        createBarrierAddress(rewriter, loc, adaptor.getBarriers(),
                             adaptor.getIndex()),
        adaptor.getPhase(), createI32Constant(rewriter, loc, kSuspendHintNs));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::blk::populateTensorCopyOpPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             const WorkgroupPlan &plan) {
  patterns.add<InitBarriersToMbarriers>(converter, patterns.getContext(), plan);
  patterns.add<BarrierExpectToArrive, TensorCopyIntoToBulkCopies,
               WaitBarrierToTryWait>(converter, patterns.getContext());
}
