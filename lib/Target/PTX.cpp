//===- PTX.cpp - the blk-to-ptx pipeline and the compiled kernels ---------===//
#include "blk/Target/PTX.h"
#include "blk/Target/TargetInfo.h"
#include "blk/Target/ToLLVM.h"

#include "blk/Conversion/Passes.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::blk;

void mlir::blk::buildBlkToPTXPipeline(OpPassManager &pm,
                                      const PTXTarget &options) {
  // convert-blk-to-gpu checks the chip and features (TargetInfo::get); the
  // attached target must get the same features.
  std::string features = options.features.empty()
                             ? TargetInfo::getDefaultFeatures(options.chip)
                             : options.features;
  pm.addPass(createBlkPeelAlignment(
      BlkPeelAlignmentOptions{options.numWarps, options.numCtas}));
  // Row offsets left in 32 bits (the problem did not need
  // blk-widen-offsets) are cheaper inside the offsets blocks.
  pm.addPass(createBlkFoldOffsets());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBlkPipelineLoads());
  pm.addPass(createBlkDistribute(
      BlkDistributeOptions{options.numWarps, options.numCtas}));
  pm.addPass(createBlkStageHeldLoads(BlkStageHeldLoadsOptions{
      options.chip, options.stageOnClusters, options.stageMinRegisters,
      options.asyncFillMinRuns}));
  pm.addPass(createBlkAsyncFill(
      BlkAsyncFillOptions{options.chip, options.asyncFillMinRuns}));
  if (options.combineReductions)
    pm.addPass(createBlkCombineReductions());
  pm.addPass(
      createBlkNarrowReductions(BlkNarrowReductionsOptions{options.chip}));
  if (options.divideInExponent)
    pm.addPass(createBlkDivideInExponent());
  pm.addPass(createConvertBlkToGPU(
      ConvertBlkToGPUOptions{options.chip, features}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &gpuModule = pm.nest<gpu::GPUModuleOp>();
  gpuModule.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 32;
  gpuModule.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::blk::registerBlkToPTXPipeline() {
  PassPipelineRegistration<BlkToPTXOptions>(
      "blk-to-ptx",
      "Lower specialized block programs to PTX (distribute, convert to gpu, "
      "NVVM, LLVM NVPTX backend)",
      [](OpPassManager &pm, const BlkToPTXOptions &options) {
        buildBlkToPTXPipeline(
            pm, PTXTarget{options.chip, options.features, options.numWarps,
                          options.numCtas, options.stageMinRegisters,
                          options.stageOnClusters, options.combineReductions,
                          options.divideInExponent, options.asyncFillMinRuns,
                          options.optLevel});
      });
}

void mlir::blk::registerBlkToPTXDependencies(DialectRegistry &registry) {
  registerCommonToLLVMDependencies(registry);
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect>();
  registerConvertNVVMToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

FailureOr<std::vector<CompiledKernel>>
mlir::blk::getCompiledKernels(ModuleOp module) {
  std::string ptx;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
        if (gpuObject.getFormat() == gpu::CompilationTarget::Assembly)
          ptx += gpuObject.getObject().getValue().str();
  });
  auto launches =
      module->getAttrOfType<ArrayAttr>(BlkDialect::getLaunchAttrName());
  if (ptx.empty() || !launches)
    return module.emitError()
           << "no compiled kernels: the module holds no PTX gpu.binary with "
              "blk.launch records (did blk-to-ptx run?)";
  std::vector<CompiledKernel> kernels;
  for (auto launch : launches.getAsRange<LaunchAttr>()) {
    CompiledKernel kernel;
    kernel.name = launch.getKernel().str();
    kernel.ptx = ptx;
    kernel.threads = launch.getThreads();
    kernel.ctas = launch.getCtas();
    kernel.staticSharedBytes = launch.getStaticSharedBytes();
    kernel.dynamicSharedBytes = launch.getDynamicSharedBytes();
    kernel.grid = launch.getGrid();
    kernel.residentPrograms = launch.getResidentPrograms();
    for (Type type : launch.getArgs()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << type;
      kernel.args.push_back(text);
    }
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}
