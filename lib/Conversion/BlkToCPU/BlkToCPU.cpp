//===- BlkToCPU.cpp - the convert-blk-to-cpu pass -------------------------===//
//
// Each kernel becomes a host function that computes one program: the grid
// coordinates it used to read from the hardware arrive as two trailing
// arguments, and the caller loops over the programs. The body keeps its
// blocks as tensors; the pattern groups of this directory turn blk ops into
// tensor, linalg and LLVM ops, and linalg's own patterns turn elementwise
// arith/math ops on tensors into linalg.generic.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/Conversion/CPUPasses.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::blk {
#define GEN_PASS_DEF_CONVERTBLKTOCPU
#include "blk/Conversion/CPUPasses.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

BlkToCPUTypeConverter::BlkToCPUTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(context);
  });
  // A program instance runs on one core: a block kept "in shared memory"
  // is the block itself.
  addConversion([](SharedType type) -> Type {
    return RankedTensorType::get(type.getShape(), type.getElementType());
  });
}

namespace {

/// What linalg's elementwise-to-linalg patterns rewrite: an elementwise
/// arith/math op with a tensor operand.
bool isElementwiseOnTensors(Operation *op) {
  return OpTrait::hasElementwiseMappableTraits(op) &&
         llvm::any_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>);
}

/// Reports an unbound constant or a dynamic shape: the CPU path needs a
/// specialized program.
LogicalResult checkSpecialized(ModuleOp module) {
  std::optional<Unspecialized> found = findUnspecialized(module);
  if (!found)
    return success();
  if (found->dynamicBlock)
    return found->emitError() << "; the CPU path needs a specialized program "
                                 "(run --blk-specialize first)";
  return found->emitError() << "; run --blk-specialize first";
}

/// Reports, at the op that shows it, anything else the CPU path cannot
/// take: a distributed program, or blk ops outside a kernel (only a kernel
/// knows its program id).
LogicalResult checkSupported(ModuleOp module) {
  auto checkBlockType = [](Operation *op, Type type) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.getEncoding())
      return success();
    return op->emitOpError()
           << "block " << tensor
           << " carries a layout; the CPU path takes the specialized "
              "program before blk-distribute";
  };
  WalkResult result = module.walk([&](Operation *op) {
    if (isa<ProgramBarrierOp>(op)) {
      op->emitOpError() << "waits for other programs, but the CPU path runs "
                           "a kernel's programs one after another";
      return WalkResult::interrupt();
    }
    if (isa<BlkDialect>(op->getDialect())) {
      auto func = op->getParentOfType<func::FuncOp>();
      if (!func || !isKernel(func)) {
        op->emitOpError() << "is outside a kernel; the CPU path converts blk "
                             "ops only inside functions marked blk.kernel";
        return WalkResult::interrupt();
      }
    }
    for (Value result : op->getResults())
      if (failed(checkBlockType(op, result.getType())))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (failed(checkBlockType(op, argument.getType())))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Appends the program's number (over the whole grid) and the grid's
/// programs along x and y to the kernel's arguments, replaces the ops that
/// read the program id and count, and drops the blk attributes, which
/// describe a GPU launch (the host function is called, not launched).
/// Programs are numbered x fastest: program p is (p mod X, p / X).
LogicalResult makeHostFunction(func::FuncOp kernel) {
  MLIRContext *context = kernel.getContext();
  Type i32 = IntegerType::get(context, 32);
  unsigned programIdIndex = kernel.getNumArguments();
  Location loc = kernel.getLoc();
  if (failed(kernel.insertArguments(
          {programIdIndex, programIdIndex, programIdIndex}, {i32, i32, i32},
          {nullptr, nullptr, nullptr}, {loc, loc, loc})))
    return kernel.emitOpError()
           << "could not take the program id and counts as arguments";
  Value program = kernel.getArgument(programIdIndex);
  Value programsX = kernel.getArgument(programIdIndex + 1);
  Value programsY = kernel.getArgument(programIdIndex + 2);

  // Along z there is one program, 0.
  auto axisValue = [&](OpBuilder &builder, Operation *op, ProgramAxis axis,
                       bool count) -> Value {
    Location at = op->getLoc();
    switch (axis) {
    case ProgramAxis::x:
      return count ? programsX
                   : arith::RemUIOp::create(builder, at, program, programsX)
                         .getResult();
    case ProgramAxis::y:
      return count ? programsY
                   : arith::DivUIOp::create(builder, at, program, programsX)
                         .getResult();
    case ProgramAxis::z:
      break;
    }
    return arith::ConstantOp::create(builder, at,
                                     builder.getI32IntegerAttr(count ? 1 : 0));
  };
  kernel.walk([&](Operation *op) {
    OpBuilder builder(op);
    Value replacement;
    if (auto id = dyn_cast<ProgramIdOp>(op))
      replacement = axisValue(builder, op, id.getAxis(), /*count=*/false);
    else if (auto count = dyn_cast<NumProgramsOp>(op))
      replacement = axisValue(builder, op, count.getAxis(), /*count=*/true);
    else
      return;
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  });

  kernel->removeAttr(BlkDialect::getKernelAttrName());
  // The host function is no kernel; its pointers are no !blk.ptr any more.
  for (unsigned index = 0; index < programIdIndex; ++index) {
    kernel.removeArgAttr(index, BlkDialect::getDivisibilityAttrName());
    kernel.removeArgAttr(index, BlkDialect::getArgAttrName());
    kernel.removeArgAttr(index, BlkDialect::getKeepF32AttrName());
  }
  return success();
}

/// "file:line:col" of a location, or MLIR's own print of it.
std::string describeLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    loc.print(os);
  return text;
}

/// Reports, as an access of 0 bytes at null (which no buffer holds), where
/// `fault` holds: scalar, or any element of a block.
void reportWhere(OpBuilder &builder, Location loc, Value fault,
                 int32_t number) {
  while (auto block = dyn_cast<RankedTensorType>(fault.getType())) {
    // Any element: the max of the faults as 0.0 / 1.0, reduced one axis at
    // a time.
    auto floats = RankedTensorType::get(block.getShape(), builder.getF32Type());
    if (block.getElementType().isInteger(1))
      fault = arith::UIToFPOp::create(builder, loc, floats, fault);
    int64_t last = block.getRank() - 1;
    Type reduced = last == 0 ? Type(builder.getF32Type())
                             : RankedTensorType::get(
                                   block.getShape().drop_back(),
                                   builder.getF32Type());
    fault = ReduceOp::create(builder, loc, reduced, ReduceKind::max, fault,
                             last);
    if (last == 0)
      fault = arith::CmpFOp::create(
          builder, loc, arith::CmpFPredicate::OGT, fault,
          arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(0)));
  }
  scf::IfOp::create(builder, loc, fault, [&](OpBuilder &b, Location l) {
    Value null =
        LLVM::ZeroOp::create(b, l, LLVM::LLVMPointerType::get(b.getContext()));
    Value bytes = LLVM::ConstantOp::create(b, l, b.getI64Type(),
                                           b.getI64IntegerAttr(0));
    Value id = LLVM::ConstantOp::create(b, l, b.getI32Type(),
                                        b.getI32IntegerAttr(number));
    LLVM::CallOp::create(
        b, l, TypeRange{b.getI1Type()},
        SymbolRefAttr::get(b.getContext(), kAccessCheckFunction),
        ValueRange{null, bytes, id, null});
    scf::YieldOp::create(b, l);
  });
}

/// Whether a loop that runs (lb < ub, step > 0) would step its induction
/// variable past the type's largest value, where it wraps to a negative
/// one, still below the bound: `0 to 2147483647 step 1073741824` in i32
/// never ends. Below 64 bits it is exact, computed in i64 (the last value
/// is lb + (ub - 1 - lb) / step * step); at 64 bits (index on the host) a
/// bound within a step of the largest value counts.
Value wrapsPastMaximum(OpBuilder &builder, Location loc, Value lb, Value ub,
                       Value step) {
  Type type = step.getType();
  unsigned width =
      isa<IndexType>(type) ? 64 : cast<IntegerType>(type).getWidth();
  auto constant = [&](Type t, int64_t value) -> Value {
    return arith::ConstantOp::create(builder, loc, builder.getIntegerAttr(t, value));
  };
  Value runs =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, lb, ub);
  Value wraps;
  if (width < 64) {
    Type i64 = builder.getI64Type();
    auto widen = [&](Value v) -> Value {
      return arith::ExtSIOp::create(builder, loc, i64, v);
    };
    Value lb64 = widen(lb), ub64 = widen(ub), step64 = widen(step);
    Value span = arith::SubIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, ub64, constant(i64, 1)),
        lb64);
    Value last = arith::AddIOp::create(
        builder, loc, lb64,
        arith::MulIOp::create(
            builder, loc,
            arith::DivSIOp::create(builder, loc, span, step64), step64));
    Value next = arith::AddIOp::create(builder, loc, last, step64);
    wraps = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sgt, next,
        constant(i64, static_cast<int64_t>((uint64_t(1) << (width - 1)) - 1)));
  } else {
    Value room = arith::SubIOp::create(
        builder, loc, constant(type, INT64_MAX), step);
    Value lastBound =
        arith::SubIOp::create(builder, loc, ub, constant(type, 1));
    wraps = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                  lastBound, room);
  }
  return arith::AndIOp::create(builder, loc, runs, wraps);
}

/// A loop whose step is not positive at run time, or whose induction
/// variable would wrap past its type's maximum, would never end (scf.for
/// needs a positive step and compares signed): checked code reports it to
/// the checker as an access of 0 bytes at null, which no buffer holds, and
/// runs it zero times.
void guardLoopStep(scf::ForOp loop, int32_t number) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  Value step = loop.getStep();
  Value zero = arith::ConstantOp::create(builder, loc,
                                         builder.getZeroAttr(step.getType()));
  Value one = arith::ConstantOp::create(builder, loc,
                                        builder.getOneAttr(step.getType()));
  Value stepNotPositive = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::sle, step, zero);
  // The wrap is computed with a positive step (no division by zero).
  Value someStep =
      arith::SelectOp::create(builder, loc, stepNotPositive, one, step);
  Value wraps = wrapsPastMaximum(builder, loc, loop.getLowerBound(),
                                 loop.getUpperBound(), someStep);
  Value endless =
      arith::OrIOp::create(builder, loc, stepNotPositive, wraps);
  reportWhere(builder, loc, endless, number);
  Value ends = arith::XOrIOp::create(
      builder, loc, endless,
      arith::ConstantOp::create(builder, loc, builder.getBoolAttr(true)));
  loop.getUpperBoundMutable().assign(arith::SelectOp::create(
      builder, loc, ends, loop.getUpperBound(), loop.getLowerBound()));
  loop.getStepMutable().assign(
      arith::SelectOp::create(builder, loc, ends, step, one));
}

/// A constant of `type` (a scalar, or a splat block) with `value`.
Value integerConstant(OpBuilder &builder, Location loc, Type type,
                      int64_t value) {
  Type element = getElementTypeOrSelf(type);
  Attribute scalar = builder.getIntegerAttr(element, value);
  if (auto block = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(block, scalar));
  return arith::ConstantOp::create(builder, loc, cast<TypedAttr>(scalar));
}

/// What an integer op would fault on or leave undefined: a division (or
/// remainder) by zero or of the smallest value by -1 traps the host
/// (SIGFPE, no location); a shift by the width or more is poison (a shifted
/// i1 made the process jump to address 0). Null for other ops.
Value getIntegerFault(OpBuilder &builder, Operation *op) {
  Location loc = op->getLoc();
  auto equals = [&](Value v, int64_t c) -> Value {
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, v,
        integerConstant(builder, loc, v.getType(), c));
  };
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op))
    return equals(op->getOperand(1), 0);
  if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
          arith::FloorDivSIOp>(op)) {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    unsigned width = getElementTypeOrSelf(lhs.getType()).getIntOrFloatBitWidth();
    int64_t smallest = width >= 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
    Value overflow = arith::AndIOp::create(builder, loc, equals(lhs, smallest),
                                           equals(rhs, -1));
    return arith::OrIOp::create(builder, loc, equals(rhs, 0), overflow);
  }
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op)) {
    Value amount = op->getOperand(1);
    unsigned width = getElementTypeOrSelf(amount.getType()).getIntOrFloatBitWidth();
    // i1 shifts by 1 (width 1): as unsigned, every amount but 0 is too far.
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::uge, amount,
        integerConstant(builder, loc, amount.getType(),
                        int64_t(width)));
  }
  return nullptr;
}

/// Numbers every load and store for the bounds checks and records, in the
/// module's `blk.accesses`, what and where each is ("store at f.mlir:3:5");
/// guards every loop against a step that is not positive; declares the
/// checker the accesses call.
void prepareBoundsChecks(ModuleOp module) {
  OpBuilder builder(module.getBodyRegion());
  SmallVector<Attribute> accesses;
  module.walk([&](MemoryAccessOpInterface access) {
    access->setAttr(BlkDialect::getAccessAttrName(),
                    builder.getI32IntegerAttr(accesses.size()));
    // The kernel argument the pointer is computed from (through
    // blk.addptr): the access must stay in that argument's buffer.
    Value root = access.getBase();
    while (auto addptr = root.getDefiningOp<AddPtrOp>())
      root = addptr.getPtr();
    auto argument = dyn_cast<BlockArgument>(root);
    if (argument &&
        isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
      access->setAttr(BlkDialect::getAccessRootAttrName(),
                      builder.getI32IntegerAttr(argument.getArgNumber()));
    accesses.push_back(builder.getStringAttr(
        std::string(access.isRead() ? "load" : "store") + " at " +
        describeLocation(access.getLoc())));
  });
  SmallVector<Operation *> integerOps;
  module.walk([&](Operation *op) {
    if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp,
            arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
            arith::FloorDivSIOp, arith::ShLIOp, arith::ShRSIOp,
            arith::ShRUIOp>(op))
      integerOps.push_back(op);
  });
  for (Operation *op : integerOps) {
    OpBuilder before(op);
    reportWhere(before, op->getLoc(), getIntegerFault(before, op),
                accesses.size());
    bool shift = isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op);
    accesses.push_back(builder.getStringAttr(
        op->getName().getStringRef() + " at " +
        describeLocation(op->getLoc()) +
        (shift ? " shifts by its width or more (the result is undefined)"
               : " divides by zero, or the smallest value by -1 (the host "
                 "would trap)")));
  }
  module.walk([&](scf::ForOp loop) {
    guardLoopStep(loop, accesses.size());
    accesses.push_back(builder.getStringAttr(
        "scf.for at " + describeLocation(loop.getLoc()) +
        " with a step that is not positive, or whose induction variable "
        "would wrap past its type's largest value (it would never end)"));
  });
  module->setAttr(BlkDialect::getAccessesAttrName(),
                  builder.getArrayAttr(accesses));
  MLIRContext *context = module.getContext();
  auto type = LLVM::LLVMFunctionType::get(
      IntegerType::get(context, 1),
      {LLVM::LLVMPointerType::get(context), IntegerType::get(context, 64),
       IntegerType::get(context, 32), LLVM::LLVMPointerType::get(context)});
  LLVM::LLVMFuncOp::create(builder, module.getLoc(), kAccessCheckFunction,
                           type);
}

/// blk.max_exp_sum as the ops it stands for. A CPU program holds its row
/// in one thread: there is no exchange to save, and the two passes
/// vectorize where the pair's rescaling would not.
void expandMaxExpSums(ModuleOp module) {
  module.walk([](MaxExpSumOp op) {
    OpBuilder builder(op);
    Location loc = op.getLoc();
    Value src = op.getSrc();
    auto srcType = cast<RankedTensorType>(src.getType());
    int64_t axis = op.getAxis();
    Value max = ReduceOp::create(builder, loc, op.getMax().getType(),
                                 ReduceKind::max, src, axis);
    Value repeated;
    if (isa<RankedTensorType>(max.getType())) {
      SmallVector<int64_t> column(srcType.getShape());
      column[axis] = 1;
      Value expanded =
          ExpandDimsOp::create(builder, loc, srcType.clone(column), max, axis);
      repeated =
          BroadcastOp::create(builder, loc, srcType, expanded, ArrayAttr());
    } else {
      repeated = SplatOp::create(builder, loc, srcType, max, ArrayAttr());
    }
    Value exp = math::ExpOp::create(
        builder, loc, arith::SubFOp::create(builder, loc, src, repeated));
    Value sum = ReduceOp::create(builder, loc, op.getSum().getType(),
                                 ReduceKind::sum, exp, axis);
    op.replaceAllUsesWith(ValueRange{max, sum, exp});
    op.erase();
  });
}

/// blk.sum_centered_squares as the reductions it stands for: the sum of
/// the lanes counted, then the sum of their squares about sum / divisor
/// (the program's own centered row, which CSE finds again). As for
/// blk.max_exp_sum, one thread holds the row: no exchange to save.
void expandSumCenteredSquares(ModuleOp module) {
  module.walk([](SumCenteredSquaresOp op) {
    OpBuilder builder(op);
    Location loc = op.getLoc();
    Value src = op.getSrc();
    Type f32 = builder.getF32Type();
    auto rowOf = [&](Value scalar) {
      return SplatOp::create(builder, loc, src.getType(), scalar, ArrayAttr());
    };
    Value zeros = rowOf(arith::ConstantOp::create(builder, loc,
                                                  builder.getF32FloatAttr(0)));
    auto counted = [&](Value row) {
      return op.getMask() ? arith::SelectOp::create(builder, loc, op.getMask(),
                                                    row, zeros)
                                .getResult()
                          : row;
    };
    Value sum = ReduceOp::create(builder, loc, f32, ReduceKind::sum,
                                 counted(src), op.getAxis());
    Value mean = arith::DivFOp::create(builder, loc, sum, op.getDivisor());
    Value centered =
        counted(arith::SubFOp::create(builder, loc, src, rowOf(mean)));
    Value squares = ReduceOp::create(
        builder, loc, f32, ReduceKind::sum,
        arith::MulFOp::create(builder, loc, centered, centered), op.getAxis());
    op.replaceAllUsesWith(ValueRange{sum, squares});
    op.erase();
  });
}

struct ConvertBlkToCPUPass
    : public mlir::blk::impl::ConvertBlkToCPUBase<ConvertBlkToCPUPass> {
  using ConvertBlkToCPUBase::ConvertBlkToCPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkSpecialized(module)) || failed(checkSupported(module)))
      return signalPassFailure();

    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (isKernel(func))
        kernels.push_back(func);
    for (func::FuncOp kernel : kernels)
      if (failed(makeHostFunction(kernel)))
        return signalPassFailure();
    expandMaxExpSums(module);
    expandSumCenteredSquares(module);
    if (checkBounds)
      prepareBoundsChecks(module);
    RowAccesses rowAccesses = findRowAccesses(module);

    BlkToCPUTypeConverter converter(context);
    ConversionTarget target(*context);
    target.addIllegalDialect<BlkDialect>();
    target.addLegalDialect<linalg::LinalgDialect, LLVM::LLVMDialect,
                           tensor::TensorDialect>();
    target.addLegalOp<ModuleOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&](Operation *op) {
          return converter.isLegal(op) && !isElementwiseOnTensors(op);
        });
    // Splat tensor constants become fills, like blk.splat.
    target.addDynamicallyLegalOp<arith::ConstantOp>([](arith::ConstantOp op) {
      return !isa<RankedTensorType>(op.getType()) ||
             !isa<SplatElementsAttr>(op.getValue());
    });

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateBlockOpToLinalgPatterns(converter, patterns);
    populateMemoryOpToLLVMPatterns(converter, patterns, rowAccesses);
    linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    // Folding would turn splats of constants back into tensor constants.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(module, target, std::move(patterns),
                                      config)))
      signalPassFailure();
  }
};

} // namespace
