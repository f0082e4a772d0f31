//===- softmax-opt.cpp - mlir-opt for block programs ----------------------===//
//
// Parses .mlir files holding blk programs and runs the project's passes and
// pipelines on them, with every flag of mlir-opt.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkDialect.h"
#include "blk/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::blk::BlkDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::blk::registerBlkPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "softmax-opt: block programs to PTX\n", registry));
}
