//===- Registration.cpp - the dialects and passes of the compiler, once ---===//
#include "blk/Driver/Driver.h"

#include "blk/Conversion/CPUPasses.h"
#include "blk/Conversion/Passes.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::blk::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<BlkDialect, arith::ArithDialect, func::FuncDialect,
                  math::MathDialect, scf::SCFDialect>();
  registerBlkToPTXDependencies(registry);
  registerBlkToCPUDependencies(registry);
}

void mlir::blk::registerCompilerPasses() {
  registerCanonicalizerPass();
  registerCSEPass();
  registerBlkPasses();
  registerBlkConversionPasses();
  registerBlkCPUPasses();
  registerBlkToPTXPipeline();
  registerBlkToCPUPipeline();
}
