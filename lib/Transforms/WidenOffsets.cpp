//===- WidenOffsets.cpp - 64-bit scalar offsets of blk.addptr -------------===//
//
// A row's start `row * stride` wraps in i32 once a tensor holds 2^31
// elements. Each i32 offset of a blk.addptr is recomputed in i64 from the
// leaves of its scalar chain; the offsets blocks of loads and stores, which
// index inside a row, stay i32.
//
// Why the extensions are exact: the addptr's lowering (a GEP) sign-extends
// an i32 offset, so the offset is a signed integer and so is every operand
// of the +, -, * that compute it. Sign-extending the leaves and redoing
// +, -, * in i64 gives the true integer wherever the i32 chain did, and
// keeps going where it wrapped: a product of two 32-bit values is below
// 2^62. The leaves that are non-negative (sizes, program ids) extend the
// same either way. divui/remui read their operands as unsigned, so their
// results are zero-extended (see OffsetWidener::build).
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKWIDENOFFSETS
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Values whose i32 value is a signed integer known without computing it
/// here: sizes and strides (function arguments), grid indices, compile-time
/// constants, loop counters. Their sign extension is exact.
bool isSignedLeaf(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<FunctionOpInterface>(owner))
      return true;
    // The induction variable lies between the loop's i32 bounds; the other
    // arguments of a loop are carried from one iteration to the next and
    // may have wrapped there.
    auto loop = dyn_cast<scf::ForOp>(owner);
    return loop && value == loop.getInductionVar();
  }
  return isa<ProgramIdOp, NumProgramsOp, ConstexprOp>(value.getDefiningOp());
}

/// Builds i64 copies of the scalar chains behind i32 offsets, each value
/// once (the row index behind both the input and the output row, say).
class OffsetWidener {
public:
  explicit OffsetWidener(MLIRContext *context)
      : i64(IntegerType::get(context, 64)) {}

  /// The i64 value of the i32 `value`, or failure with an error at `user`.
  FailureOr<Value> widen(Value value, AddPtrOp user);

  /// Erases the i32 ops of the widened chains that nothing uses any more.
  void eraseDeadChains();

private:
  FailureOr<Value> build(Value value, AddPtrOp user);
  FailureOr<Value> rebuild(Operation *op, AddPtrOp user);
  Value widenConstant(arith::ConstantOp constant);
  template <typename ExtOp>
  Value extend(Value value);

  Type i64;
  DenseMap<Value, Value> widened;
  /// The keys of `widened`, each after its operands.
  SmallVector<Value> order;
};

FailureOr<Value> OffsetWidener::widen(Value value, AddPtrOp user) {
  if (Value known = widened.lookup(value))
    return known;
  FailureOr<Value> result = build(value, user);
  if (succeeded(result)) {
    widened[value] = *result;
    order.push_back(value);
  }
  return result;
}

void OffsetWidener::eraseDeadChains() {
  // Users before operands, so that an op's operands are looked at once it
  // is gone; each op comes once, so none is looked at after its erasure.
  for (Value value : llvm::reverse(order))
    if (Operation *op = value.getDefiningOp(); op && isOpTriviallyDead(op))
      op->erase();
  order.clear();
  widened.clear();
}

FailureOr<Value> OffsetWidener::build(Value value, AddPtrOp user) {
  if (isSignedLeaf(value))
    return extend<arith::ExtSIOp>(value);
  Operation *op = value.getDefiningOp();
  if (auto constant = dyn_cast_or_null<arith::ConstantOp>(op))
    return widenConstant(constant);
  // An unsigned quotient or remainder of i32 values is below 2^32, so its
  // zero extension is the quotient of the zero-extended operands. Dividing
  // in 32 bits and extending the result keeps the division cheap (a 64-bit
  // one is a long software routine on the GPU).
  if (isa_and_nonnull<arith::DivUIOp, arith::RemUIOp>(op))
    return extend<arith::ExtUIOp>(value);
  if (isa_and_nonnull<arith::MulIOp, arith::AddIOp, arith::SubIOp>(op))
    return rebuild(op, user);
  InFlightDiagnostic error =
      user.emitOpError()
      << "offset cannot be computed in 64 bits: it depends on a 32-bit value "
         "that blk-widen-offsets cannot recompute (only +, -, *, unsigned "
         "/ and %, constants, arguments, program ids and loop counters)";
  error.attachNote(value.getLoc()) << "this value";
  return failure();
}

/// The same +, - or * in i64, right after the i32 op, so that it dominates
/// whatever the i32 op dominated.
FailureOr<Value> OffsetWidener::rebuild(Operation *op, AddPtrOp user) {
  FailureOr<Value> lhs = widen(op->getOperand(0), user);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = widen(op->getOperand(1), user);
  if (failed(rhs))
    return failure();
  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(op);
  OperationState state(op->getLoc(), op->getName().getStringRef(),
                       ValueRange{*lhs, *rhs}, TypeRange{i64});
  return builder.create(state)->getResult(0);
}

Value OffsetWidener::widenConstant(arith::ConstantOp constant) {
  OpBuilder builder(constant);
  builder.setInsertionPointAfter(constant);
  int64_t value = cast<IntegerAttr>(constant.getValue()).getInt();
  return arith::ConstantOp::create(builder, constant.getLoc(),
                                   builder.getI64IntegerAttr(value));
}

/// The extension of `value`, where `value` is defined: right after its op,
/// or at the start of the block that takes it as an argument.
template <typename ExtOp>
Value OffsetWidener::extend(Value value) {
  OpBuilder builder(value.getContext());
  builder.setInsertionPointAfterValue(value);
  return ExtOp::create(builder, value.getLoc(), i64, value);
}

LogicalResult widenOffsets(FunctionOpInterface func) {
  OffsetWidener widener(func.getContext());
  WalkResult result = func.walk([&](AddPtrOp addptr) {
    Value offset = addptr.getOffset();
    if (!offset.getType().isInteger(32))
      return WalkResult::advance();
    FailureOr<Value> wide = widener.widen(offset, addptr);
    if (failed(wide))
      return WalkResult::interrupt();
    addptr.getOffsetMutable().assign(*wide);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  widener.eraseDeadChains();
  return success();
}

struct BlkWidenOffsetsPass
    : public mlir::blk::impl::BlkWidenOffsetsBase<BlkWidenOffsetsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<FunctionOpInterface>())
      if (failed(widenOffsets(func)))
        return signalPassFailure();
  }
};

} // namespace
