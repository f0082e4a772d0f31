//===- softmax-opt.cpp - mlir-opt for block programs ----------------------===//
//
// Parses .mlir files holding blk programs and runs the project's passes and
// pipelines on them, with every flag of mlir-opt. With --emit=ptx it prints
// the PTX of the compiled module instead of the IR.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Driver.h"
#include "blk/Driver/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

// --help lists categories by name: this one comes before LLVM's and MLIR's
// hundreds of "General options", so the project's own flag is not buried.
static llvm::cl::OptionCategory blkCategory(
    "Blk options",
    "Passes and pipelines: --blk-specialize, --blk-to-ptx, --blk-to-cpu "
    "(see `Passes:` under General options)");
static llvm::cl::opt<std::string>
    emit("emit", llvm::cl::desc("What to write: mlir (the IR, default) or ptx "
                                "(the PTX of a module compiled by blk-to-ptx)"),
         llvm::cl::init("mlir"), llvm::cl::cat(blkCategory));

/// Runs the passes as mlir-opt would, then writes the PTX of the result.
static LogicalResult emitPTX(StringRef inputFilename,
                             StringRef outputFilename,
                             DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  std::string compiled;
  llvm::raw_string_ostream compiledStream(compiled);
  if (failed(MlirOptMain(compiledStream, std::move(input), registry, config)))
    return failure();

  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(compiled, &context);
  if (!module)
    return failure();
  FailureOr<std::vector<mlir::blk::CompiledKernel>> kernels =
      mlir::blk::getCompiledKernels(*module);
  if (failed(kernels))
    return failure();
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  output->os() << kernels->front().ptx;
  output->os().close();
  if (output->os().has_error()) {
    llvm::errs() << "softmax-opt: cannot write " << outputFilename << ": "
                 << output->os().error().message() << "\n";
    output->os().clear_error();
    return failure();
  }
  output->keep();
  return success();
}

namespace mlir::blk::test {
/// The passes of test/lib (blk-test-print-access).
void registerTestPasses();
} // namespace mlir::blk::test

int main(int argc, char **argv) {
  DialectRegistry registry;
  mlir::blk::registerCompilerDialects(registry);
  mlir::blk::registerCompilerPasses();
  mlir::blk::test::registerTestPasses();

  llvm::InitLLVM init(argc, argv);
  // An error points at a line of the program; MLIR's default would also
  // print the op it is attached to, which for an error about the whole
  // program is the whole module. --mlir-print-op-on-diagnostic brings it
  // back.
  mlir::blk::addVersionPrinter("softmax-opt");
  registerMLIRContextCLOptions();
  if (auto *printOp = llvm::cl::getRegisteredOptions().lookup(
          "mlir-print-op-on-diagnostic"))
    static_cast<llvm::cl::opt<bool> *>(printOp)->setInitialValue(false);
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "softmax-opt: block programs to PTX\n", registry);
  if (emit == "ptx")
    return asMainReturnCode(
        emitPTX(inputFilename, outputFilename, registry));
  if (emit != "mlir") {
    llvm::errs() << "softmax-opt: --emit must be mlir or ptx, not '" << emit
                 << "'\n";
    return 1;
  }
  return asMainReturnCode(
      MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
