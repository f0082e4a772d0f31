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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::blk;

void mlir::blk::buildBlkToPTXPipeline(OpPassManager &pm,
                                      const ::blk::CompileOptions &options) {
  // The chip is said once, on the module; every pass below reads it there.
  BlkAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  pm.addPass(createBlkAttachTarget(target));
  pm.addPass(createBlkPeelAlignment());
  // Row offsets left in 32 bits (the problem did not need
  // blk-widen-offsets) are cheaper inside the offsets blocks.
  pm.addPass(createBlkFoldOffsets());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBlkPipelineLoads());
  pm.addPass(createBlkDistribute());
  BlkPipelineDotOperandsOptions dotOperands;
  dotOperands.tensorMaps = options.tensorMaps;
  pm.addPass(createBlkPipelineDotOperands(dotOperands));
  BlkStageHeldLoadsOptions staging;
  staging.onClusters = options.stageOnClusters;
  staging.peeledRows = options.stagePeeledRows;
  staging.minRegisters = options.stageMinRegisters;
  staging.wideMinRuns = options.asyncFillMinRuns;
  pm.addPass(createBlkStageHeldLoads(staging));
  BlkAsyncFillOptions asyncFill;
  asyncFill.minRuns = options.asyncFillMinRuns;
  pm.addPass(createBlkAsyncFill(asyncFill));
  if (options.combineReductions)
    pm.addPass(createBlkCombineReductions());
  if (options.combineCenteredSquares ||
      options.combineCenteredSquaresMinElements > 0) {
    BlkCombineCenteredSquaresOptions centeredSquares;
    centeredSquares.peeledMinElements =
        options.combineCenteredSquares
            ? 0
            : options.combineCenteredSquaresMinElements;
    pm.addPass(createBlkCombineCenteredSquares(centeredSquares));
  }
  pm.addPass(createBlkNarrowReductions());
  if (options.divideInExponent)
    pm.addPass(createBlkDivideInExponent());
  // Before the pipelines part: the CPU's products are the GPU's.
  pm.addPass(createBlkDivideBySplat());
  pm.addPass(createConvertBlkToGPU());
  pm.addPass(createBlkScalarizeMasks());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.hoistCombines)
    pm.addPass(createBlkHoistCombines());
  if (options.sinkToUses)
    pm.addPass(createBlkSinkToUses());
  BlkAttachNVVMTargetOptions nvvmTarget;
  nvvmTarget.optLevel = options.optLevel;
  pm.addPass(createBlkAttachNVVMTarget(nvvmTarget));

  OpPassManager &gpuModule = pm.nest<gpu::GPUModuleOp>();
  gpuModule.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 32;
  gpuModule.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  gpuModule.addPass(createBlkPassTensorMapsByValue());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async) become inline PTX.
  gpuModule.addPass(createConvertNVVMToLLVMPass());
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

::blk::CompileOptions BlkToPTXOptions::getCompileOptions() const {
  ::blk::CompileOptions options;
#define BLK_PIPELINE_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION)          \
  options.FIELD = FIELD;
#define BLK_TARGET_OPTION(...) BLK_PIPELINE_OPTION(__VA_ARGS__)
#define BLK_PTX_OPTION(...) BLK_PIPELINE_OPTION(__VA_ARGS__)
#define BLK_LAUNCH_OPTION(...) BLK_PIPELINE_OPTION(__VA_ARGS__)
#include "blk/Target/CompileOptions.def"
#undef BLK_PIPELINE_OPTION
  return options;
}

void mlir::blk::registerBlkToPTXPipeline() {
  PassPipelineRegistration<BlkToPTXOptions>(
      "blk-to-ptx",
      "Lower specialized block programs to PTX (distribute, convert to gpu, "
      "NVVM, LLVM NVPTX backend)",
      [](OpPassManager &pm, const BlkToPTXOptions &pipelineOptions) {
        ::blk::CompileOptions options = pipelineOptions.getCompileOptions();
        // The launch shape asked for lives in each #blk.kernel from here.
        if (options.numWarps || options.numCtas || options.numStages ||
            options.minCtasPerSm) {
          BlkSetLaunchShapeOptions shape;
          shape.numWarps = options.numWarps;
          shape.numCtas = options.numCtas;
          shape.numStages = options.numStages;
          shape.minCtasPerSm = options.minCtasPerSm;
          pm.addPass(createBlkSetLaunchShape(shape));
        }
        buildBlkToPTXPipeline(pm, options);
      });
}

void mlir::blk::registerBlkToPTXDependencies(DialectRegistry &registry) {
  registerCommonToLLVMDependencies(registry);
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect, vector::VectorDialect>();
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
    if (ArrayAttr maps = launch.getTensorMaps())
      for (auto map : maps.getAsRange<TensorMapAttr>())
        kernel.tensorMaps.push_back({map.getTensor().str(), map.getBox()[0],
                                     map.getBox()[1], map.getRotationFirst(),
                                     map.getRotationBits()});
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}
