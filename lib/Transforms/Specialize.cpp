//===- Specialize.cpp - bind compile-time constants, make shapes static ---===//
//
// A block program is written once for any block size: shapes name constants
// ([BLOCK]) and stay dynamic ('?') in the IR. Binding replaces the names by
// numbers where they appear, then propagates the static shapes forward
// through every op until nothing changes, the way a frontend would have
// built the program had it known the numbers.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKSPECIALIZE
#include "blk/Transforms/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

using Constants = llvm::StringMap<int64_t>;

/// Parses "NAME=VALUE" into `constants`; the name in `name`.
LogicalResult parseBinding(StringRef binding, Constants &constants,
                           StringRef &name) {
  auto [left, value] = binding.trim().split('=');
  name = left.trim();
  int64_t number;
  if (name.empty() || value.trim().getAsInteger(10, number))
    return failure();
  constants[name] = number;
  return success();
}

RankedTensorType withShape(Type type, ArrayRef<int64_t> shape) {
  return cast<RankedTensorType>(type).clone(shape);
}

/// Sets `value`'s type to `type`; returns whether it changed. Every value
/// has one rule, so the fixed-point iteration settles.
bool refine(Value value, Type type) {
  if (!type || value.getType() == type)
    return false;
  value.setType(type);
  return true;
}

/// Shape of the first ranked tensor among `values`, if any.
std::optional<ArrayRef<int64_t>> firstTensorShape(ValueRange values) {
  for (Value value : values)
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
      return tensor.getShape();
  return std::nullopt;
}

/// Recomputes the result types of `op` from its operands. Returns whether
/// anything changed.
bool refineResultTypes(Operation *op) {
  return TypeSwitch<Operation *, bool>(op)
      .Case<MemoryAccessOpInterface>([](MemoryAccessOpInterface access) {
        // A read's block takes its offsets' shape; a write has no result.
        if (!access.isRead())
          return false;
        Value data = access.getDataBlock();
        return refine(data,
                      withShape(data.getType(),
                                access.getOffsets().getType().getShape()));
      })
      .Case<DotOp>([](DotOp dot) {
        return refine(dot.getResult(), dot.getAcc().getType());
      })
      .Case<ConvertLayoutOp>([](ConvertLayoutOp convert) {
        return refine(convert.getResult(),
                      withShape(convert.getType(),
                                convert.getSrc().getType().getShape()));
      })
      .Case<ExpandDimsOp>([](ExpandDimsOp expand) {
        SmallVector<int64_t> shape(expand.getSrc().getType().getShape());
        shape.insert(shape.begin() + expand.getAxis(), 1);
        return refine(expand.getResult(), withShape(expand.getType(), shape));
      })
      .Case<ReductionOpInterface>([](ReductionOpInterface reduce) {
        ArrayRef<int64_t> srcShape = reduce.getSrc().getType().getShape();
        SmallVector<int64_t> reduced(srcShape);
        reduced.erase(reduced.begin() + reduce.getAxis());
        bool changed = false;
        for (OpResult result : reduce->getResults())
          if (auto resultType = dyn_cast<RankedTensorType>(result.getType()))
            changed |=
                refine(result, resultType.clone(reduce.isReducedResult(
                                                    result.getResultNumber())
                                                    ? ArrayRef<int64_t>(reduced)
                                                    : srcShape));
        return changed;
      })
      .Case<scf::ForOp>([](scf::ForOp loop) {
        bool changed = false;
        for (auto [init, arg, result] :
             llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                       loop.getResults())) {
          changed |= refine(arg, init.getType());
          changed |= refine(result, init.getType());
        }
        return changed;
      })
      .Case<scf::IfOp>([](scf::IfOp branch) {
        bool changed = false;
        for (auto [yielded, result] :
             llvm::zip(branch.thenYield().getOperands(), branch.getResults()))
          changed |= refine(result, yielded.getType());
        return changed;
      })
      .Default([](Operation *op) {
        if (!op->hasTrait<OpTrait::Elementwise>() &&
            !op->hasTrait<OpTrait::SameOperandsAndResultShape>())
          return false;
        std::optional<ArrayRef<int64_t>> shape =
            firstTensorShape(op->getOperands());
        if (!shape)
          return false;
        bool changed = false;
        for (Value result : op->getResults())
          if (isa<RankedTensorType>(result.getType()))
            changed |= refine(result, withShape(result.getType(), *shape));
        return changed;
      });
}

/// Reports the first block whose shape is still dynamic. Binding left no
/// names, so a block is all findUnspecialized can find.
LogicalResult checkAllShapesStatic(Operation *root) {
  std::optional<Unspecialized> found = findUnspecialized(root);
  if (!found)
    return success();
  Value block = found->dynamicBlock;
  found->op->emitOpError()
      << (isa<BlockArgument>(block) ? "argument type " : "result type ")
      << block.getType()
      << " is still dynamic after specialization; its shape must follow "
         "from bound constants";
  return failure();
}

struct BlkSpecializePass
    : public mlir::blk::impl::BlkSpecializeBase<BlkSpecializePass> {
  using BlkSpecializeBase::BlkSpecializeBase;

  /// Also accepts the short form --blk-specialize="BLOCK=1024 ROWS=4": every
  /// NAME=VALUE token that is not an option of its own becomes a binding.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    std::string rewritten;
    SmallVector<StringRef> tokens;
    options.split(tokens, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef token : tokens) {
      if (!token.starts_with("bind="))
        rewritten += "bind=";
      rewritten += token.str() + " ";
    }
    return Pass::initializeOptions(rewritten, errorHandler);
  }

  void runOnOperation() override {
    Constants all = constants;
    llvm::StringSet<> given;
    for (const std::string &binding : bindings) {
      StringRef name;
      if (failed(parseBinding(binding, all, name))) {
        getOperation().emitError()
            << "malformed binding '" << binding
            << "' for --blk-specialize: expected NAME=VALUE with an integer "
               "VALUE";
        return signalPassFailure();
      }
      if (!given.insert(name).second) {
        getOperation().emitError()
            << "--blk-specialize binds '" << name << "' twice";
        return signalPassFailure();
      }
    }

    // Collected first: binding a blk.constexpr replaces it.
    // A name no op uses is no error: one set of bindings may serve every
    // part of a --split-input-file input.
    SmallVector<ConstantNamesOpInterface> named;
    getOperation().walk(
        [&](ConstantNamesOpInterface op) { named.push_back(op); });
    IRRewriter rewriter(&getContext());
    bool bound = true;
    for (ConstantNamesOpInterface op : named)
      bound &= succeeded(op.bindConstants(rewriter, all));
    if (!bound)
      return signalPassFailure();

    bool changed = true;
    while (changed) {
      changed = false;
      getOperation().walk(
          [&](Operation *op) { changed |= refineResultTypes(op); });
    }
    if (failed(checkAllShapesStatic(getOperation())))
      return signalPassFailure();
    // Every constant is bound: the kernels' roles for them (row_block...)
    // have nothing left to name.
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (KernelAttr kernel = getKernelAttr(func))
        func->setAttr(BlkDialect::getKernelAttrName(),
                      KernelAttr::get(kernel.getContext(), kernel.getNumWarps(),
                                      kernel.getGrid(), kernel.getNumCtas(),
                                      kernel.getNumStages(),
                                      kernel.getMinCtasPerSm(), "", "", "",
                                      ""));
  }

  Constants constants;
};

} // namespace

std::unique_ptr<Pass>
mlir::blk::createBlkSpecializePass(const llvm::StringMap<int64_t> &constants) {
  auto pass = std::make_unique<BlkSpecializePass>();
  pass->constants = constants;
  return pass;
}
