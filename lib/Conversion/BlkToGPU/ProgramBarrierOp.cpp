//===- ProgramBarrierOp.cpp - blk.program_barrier -------------------------===//
//
// Programs (CTAs) of one launch meet through a counter in global memory, as
// cooperative groups' grid sync does for a whole grid:
//
//   bar.sync                      the CTA's writes are done
//   thread 0: fence.sc.gpu        ... and ordered before the arrival
//             old = atom.add counter, 1
//             spin while counter < old - old % count + count
//             fence.sc.gpu        the others' writes are seen after it
//   bar.sync                      the CTA waits for thread 0
//
// The counter only grows: a round ends at each multiple of `count`, so no
// one has to reset it between launches.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// NVPTX's name for the GPU scope (PTX `.gpu`).
constexpr StringLiteral kDeviceScope = "device";

/// Thread 0's part: arrive, then spin until the round is full.
void createArriveAndWait(OpBuilder &builder, Location loc, Value counter,
                         Value count) {
  Type i64 = builder.getI64Type();
  LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::seq_cst,
                        kDeviceScope);
  Value one = arith::ConstantIntOp::create(builder, loc, i64, 1);
  Value old = LLVM::AtomicRMWOp::create(
      builder, loc, LLVM::AtomicBinOp::add, counter, one,
      LLVM::AtomicOrdering::monotonic, kDeviceScope);
  Value roundSize = arith::ExtUIOp::create(builder, loc, i64, count);
  Value roundStart = arith::SubIOp::create(
      builder, loc, old, arith::RemUIOp::create(builder, loc, old, roundSize));
  Value roundEnd = arith::AddIOp::create(builder, loc, roundStart, roundSize);
  scf::WhileOp::create(
      builder, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &b, Location l, ValueRange) {
        Value arrived = LLVM::LoadOp::create(
            b, l, i64, counter, /*alignment=*/8, /*isVolatile=*/false,
            /*isNonTemporal=*/false, /*isInvariant=*/false,
            /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic,
            kDeviceScope);
        Value waiting = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                              arrived, roundEnd);
        scf::ConditionOp::create(b, l, waiting, ValueRange{});
      },
      [](OpBuilder &b, Location l, ValueRange) { scf::YieldOp::create(b, l); });
  LLVM::FenceOp::create(builder, loc, LLVM::AtomicOrdering::seq_cst,
                        kDeviceScope);
}

struct ProgramBarrierToAtomics : public OpConversionPattern<ProgramBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ProgramBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    gpu::BarrierOp::create(rewriter, loc);
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        tid, zero);
    scf::IfOp::create(rewriter, loc, first, [&](OpBuilder &b, Location l) {
      createArriveAndWait(b, l, adaptor.getCounter(), adaptor.getCount());
      scf::YieldOp::create(b, l);
    });
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

LogicalResult mlir::blk::checkProgramBarriers(func::FuncOp kernel) {
  WalkResult result = kernel.walk([](ProgramBarrierOp barrier) {
    if (getConstantIntValue(barrier.getCount()))
      return WalkResult::advance();
    barrier.emitOpError() << "expected a count known when the kernel is "
                             "compiled (the launcher keeps that many "
                             "programs resident), but found a value "
                             "computed at run time";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

int64_t mlir::blk::getResidentPrograms(func::FuncOp kernel) {
  int64_t programs = 0;
  kernel.walk([&](ProgramBarrierOp barrier) {
    programs =
        std::max(programs, getConstantIntValue(barrier.getCount()).value_or(0));
  });
  return programs;
}

void mlir::blk::populateProgramBarrierOpPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ProgramBarrierToAtomics>(converter, patterns.getContext());
}
