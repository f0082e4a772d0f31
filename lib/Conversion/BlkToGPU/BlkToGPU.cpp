//===- BlkToGPU.cpp - the convert-blk-to-gpu pass -------------------------===//
//
// Kernels move into a gpu.module as gpu.func; every op inside is rewritten
// by the pattern groups of this directory, with blocks turned into the
// per-thread vectors their layouts describe.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/Conversion/Passes.h"
#include "blk/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::blk {
#define GEN_PASS_DEF_CONVERTBLKTOGPU
#include "blk/Conversion/Passes.h.inc"
} // namespace mlir::blk

using namespace mlir;
using namespace mlir::blk;

namespace {

struct KernelToGPUFunc : public OpConversionPattern<func::FuncOp> {
  KernelToGPUFunc(const TypeConverter &converter, MLIRContext *context,
                  gpu::GPUModuleOp gpuModule, const WorkgroupPlan &plan)
      : OpConversionPattern(converter, context), gpuModule(gpuModule),
        plan(plan) {}

  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KernelAttr kernel = getKernelAttr(func);
    if (!kernel)
      return rewriter.notifyMatchFailure(func, "not a kernel");
    TypeConverter::SignatureConversion signature(func.getNumArguments());
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
      signature.addInputs(index, getTypeConverter()->convertType(type));
    SmallVector<Type> workgroup;
    for (MemRefType buffer : plan.buffers.lookup(func))
      workgroup.push_back(buffer);
    auto type = FunctionType::get(getContext(),
                                  signature.getConvertedTypes(), {});

    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(gpuModule.getBody());
    auto gpuFunc = gpu::GPUFuncOp::create(rewriter, func.getLoc(),
                                          func.getSymName(), type, workgroup);
    gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                     rewriter.getUnitAttr());
    int32_t threads = kWarpSize * kernel.getNumWarps();
    gpuFunc.setKnownBlockSizeAttr(
        rewriter.getDenseI32ArrayAttr({threads, 1, 1}));
    if (kernel.getNumCtas() > 1) {
      // NVPTX writes nvvm.cluster_dim as .reqnctapercluster: the cluster
      // shape is part of the kernel, and a plain launch forms clusters.
      auto cluster = rewriter.getDenseI32ArrayAttr(
          {static_cast<int32_t>(kernel.getNumCtas()), 1, 1});
      gpuFunc.setKnownClusterSizeAttr(cluster);
      gpuFunc->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(), cluster);
    }
    // One CTA an SM asks for nothing: `.minnctapersm 1` is not ptxas's own
    // choice (layer_norm bf16 12288 on 16 warps: 76 registers, 69 without).
    if (kernel.getMinCtasPerSm() > 1)
      gpuFunc->setAttr(
          NVVM::NVVMDialect::getMinctasmAttrName(),
          rewriter.getI32IntegerAttr(kernel.getMinCtasPerSm()));
    // Tensor maps are passed by value: blk-pass-tensor-maps-by-value makes
    // them so, on the parameters this function attribute lists (NVVM
    // accepts grid constants only on llvm.func kernels, and the conversion
    // to llvm.func keeps no byval).
    SmallVector<int32_t> tensorMaps;
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isa<TensorMapType>(type))
        tensorMaps.push_back(static_cast<int32_t>(index));
    if (!tensorMaps.empty())
      gpuFunc->setAttr(BlkDialect::getTensorMapParamsAttrName(),
                       rewriter.getDenseI32ArrayAttr(tensorMaps));
    for (unsigned i = 0; i < workgroup.size(); ++i)
      gpuFunc.setWorkgroupAttributionAttr(
          i, LLVM::LLVMDialect::getAlignAttrName(),
          rewriter.getI64IntegerAttr(kVectorBytes));

    // Replace the entry block gpu.func made by the kernel's body, whose
    // arguments become the converted ones plus the workgroup buffers.
    rewriter.eraseBlock(&gpuFunc.getBody().front());
    rewriter.inlineRegionBefore(func.getBody(), gpuFunc.getBody(),
                                gpuFunc.end());
    signature.addInputs(workgroup);
    rewriter.applySignatureConversion(&gpuFunc.getBody().front(), signature,
                                      getTypeConverter());
    rewriter.eraseOp(func);
    return success();
  }

  mutable gpu::GPUModuleOp gpuModule;
  const WorkgroupPlan &plan;
};

struct ReturnToGPUReturn : public OpConversionPattern<func::ReturnOp> {
  ReturnToGPUReturn(const TypeConverter &converter, MLIRContext *context,
                    const WorkgroupPlan &plan)
      : OpConversionPattern(converter, context), plan(plan) {}

  LogicalResult
  matchAndRewrite(func::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
    if (!kernel)
      return rewriter.notifyMatchFailure(op, "not in a kernel");
    // Other CTAs of the cluster may still read this one's shared memory.
    if (plan.readsAcrossCtas.contains(kernel.getName())) {
      if (plan.exitArriveOf.count(kernel.getName()))
        NVVM::ClusterWaitOp::create(rewriter, op.getLoc(),
                                    rewriter.getUnitAttr());
      else
        createClusterBarrier(rewriter, op.getLoc());
    }
    rewriter.replaceOpWithNewOp<gpu::ReturnOp>(op);
    return success();
  }

  const WorkgroupPlan &plan;
};

/// A dot's operands meet in one CTA's shared memory, and its lowering
/// spreads them over the kernel's warps: every operand laid out (where it
/// is) over one CTA and the kernel's warps.
LogicalResult checkDotLayouts(DotOp dot, int64_t numWarps) {
  for (auto [name, value] : {std::pair<const char *, Value>{"a", dot.getA()},
                             {"b", dot.getB()},
                             {"acc", dot.getAcc()}}) {
    auto layout = dyn_cast_or_null<BlockedLayoutAttr>(
        cast<RankedTensorType>(value.getType()).getEncoding());
    if (!layout)
      continue;
    if (layout.getNumCtas() > 1)
      return dot.emitOpError()
             << "expected operands laid out over one CTA, but '" << name
             << "' is spread over " << layout.getNumCtas()
             << " (num_ctas = 1 for a kernel with blk.dot)";
    if (layout.getNumWarps() != numWarps)
      return dot.emitOpError()
             << "expected operands laid out over the kernel's " << numWarps
             << " warps, but '" << name << "' is laid out over "
             << layout.getNumWarps();
  }
  return success();
}

/// Ops the conversion cannot turn into NVVM without libdevice or a layout
/// change; reported before converting, with the reason.
LogicalResult checkSupported(func::FuncOp func) {
  int64_t numWarps = getKernelAttr(func).getNumWarps();
  if (std::optional<Unspecialized> found = findUnspecialized(func))
    return found->emitError() << "; run --blk-specialize first";
  WalkResult result = func.walk([&](Operation *op) {
    if (auto dot = dyn_cast<DotOp>(op)) {
      if (failed(checkDotLayouts(dot, numWarps)))
        return WalkResult::interrupt();
    }
    if (isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::RsqrtOp,
            math::FmaOp, math::AbsFOp, math::SqrtOp, math::TanhOp,
            math::ErfOp, math::PowFOp>(op)) {
      Type type = getElementTypeOrSelf(op->getResult(0).getType());
      if (!type.isF32()) {
        op->emitOpError() << "on " << type
                          << " is not supported: compute in f32 (arith.extf "
                             "before, arith.truncf after)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    if (!hasGPUMathLowering(op)) {
      op->emitOpError() << "has no GPU lowering without libdevice; supported "
                           "math ops are "
                        << kGPUMathOps;
      return WalkResult::interrupt();
    }
    for (Value value : op->getResults())
      if (isa<RankedTensorType>(value.getType()) &&
          failed(Distribution::get(value.getType()))) {
        op->emitOpError() << "block " << value.getType()
                          << " has no layout; run blk-distribute first";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// blk ops outside kernels: only a kernel has a launch (program ids,
/// threads) and layouts (blk-distribute lays out kernels alone), so a
/// helper function's blocks have no thread to live on.
LogicalResult checkOutsideKernels(ModuleOp module) {
  WalkResult result = module.walk([&](Operation *op) {
    if (!isa<BlkDialect>(op->getDialect()))
      return WalkResult::advance();
    auto func = op->getParentOfType<func::FuncOp>();
    if (func && isKernel(func))
      return WalkResult::advance();
    op->emitOpError() << "is outside a kernel; the GPU path converts blk ops "
                         "only inside functions marked blk.kernel (inline "
                         "the helper into the kernel)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// What keeps `kernel` from being converted for the target: ops without a
/// lowering, or clusters on a chip without them.
LogicalResult checkKernel(func::FuncOp kernel, const TargetInfo &target) {
  if (failed(checkSupported(kernel)) || failed(checkProgramBarriers(kernel)))
    return failure();
  int64_t ctas = getKernelAttr(kernel).getNumCtas();
  if (ctas > target.getMaxClusterCtas())
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " runs on " << ctas
           << " CTAs (num_ctas), but " << target.getChip()
           << " has no thread-block clusters; they need sm_"
           << TargetInfo::kMinClusterChip << " or newer";
  return success();
}

/// The gpu.module the kernels move into, with the plan's shared globals;
/// the module gets the launch records.
gpu::GPUModuleOp createGPUModule(ModuleOp module,
                                 ArrayRef<func::FuncOp> kernels,
                                 WorkgroupPlan &plan) {
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto gpuModule =
      gpu::GPUModuleOp::create(builder, module.getLoc(), "kernels");
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  module->setAttr(BlkDialect::getLaunchAttrName(),
                  buildLaunchRecords(module.getContext(), kernels, plan));
  createSharedGlobals(gpuModule, plan);
  return gpuModule;
}

/// What the conversion produces (gpu, LLVM, NVVM, vector, memref) and what
/// it must remove: blk, kernels as func.func, math.exp, and arith/math on
/// blocks.
void addLegality(ConversionTarget &target, const TypeConverter &converter) {
  target.addLegalDialect<gpu::GPUDialect, LLVM::LLVMDialect,
                         memref::MemRefDialect, NVVM::NVVMDialect,
                         vector::VectorDialect>();
  target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
  target.addIllegalDialect<BlkDialect>();
  target.addDynamicallyLegalOp<func::FuncOp>(
      [](func::FuncOp func) { return !isKernel(func); });
  target.addDynamicallyLegalOp<func::ReturnOp>([](func::ReturnOp op) {
    return !op->getParentOfType<gpu::GPUFuncOp>();
  });
  markMathOpsIllegal(target);
  target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
      [&converter](Operation *op) { return converter.isLegal(op); });
}

struct ConvertBlkToGPUPass
    : public mlir::blk::impl::ConvertBlkToGPUBase<ConvertBlkToGPUPass> {
  using ConvertBlkToGPUBase::ConvertBlkToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    TargetInfo targetInfo = getTargetInfo(module);

    if (failed(checkOutsideKernels(module)))
      return signalPassFailure();
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (isKernel(func))
        kernels.push_back(func);
    if (kernels.empty())
      return;

    WorkgroupPlan plan;
    for (func::FuncOp kernel : kernels)
      if (failed(checkKernel(kernel, targetInfo)) ||
          failed(planSharedMemory(kernel, targetInfo, plan)))
        return signalPassFailure();
    AccessPlans accessPlans = planAccesses(module);
    if (failed(checkKeptBlocks(module, accessPlans, targetInfo)))
      return signalPassFailure();
    gpu::GPUModuleOp gpuModule = createGPUModule(module, kernels, plan);

    BlkToGPUTypeConverter converter(context);
    ConversionTarget target(*context);
    addLegality(target, converter);
    RewritePatternSet patterns(context);
    patterns.add<KernelToGPUFunc>(converter, context, gpuModule, plan);
    patterns.add<ReturnToGPUReturn>(converter, context, plan);
    populateBlockOpPatterns(converter, patterns);
    populateMathOpPatterns(converter, patterns);
    populateMemoryOpPatterns(converter, patterns, accessPlans, plan);
    populateReduceOpPatterns(converter, patterns, plan);
    populateDotOpPatterns(converter, patterns, plan, targetInfo);
    populateProgramBarrierOpPatterns(converter, patterns);
    populateSharedMemoryOpPatterns(converter, patterns, plan);
    populateTensorCopyOpPatterns(converter, patterns, plan);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

bool mlir::blk::hasGPUMathLowering(Operation *op) {
  return !isa_and_nonnull<math::MathDialect>(op->getDialect()) ||
         isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
             math::RsqrtOp, math::FmaOp, math::AbsFOp, math::SqrtOp,
             math::TanhOp, math::ErfOp, math::PowFOp>(op);
}
