//===- softmax-opt.cpp - mlir-opt for block programs ----------------------===//
//
// Parses .mlir files holding blk programs and runs the project's passes and
// pipelines on them, with every flag of mlir-opt. With --emit=ptx it prints
// the PTX of the compiled module instead of the IR.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/CrashWatchdog.h"
#include "blk/Driver/Driver.h"
#include "blk/Driver/ProgramText.h"
#include "blk/Driver/ToolExit.h"
#include "blk/Driver/Version.h"
#include "blk/Runtime/Files.h"

#include "mlir/Debug/Counter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

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

/// The input as MLIR's parser will see it: a regular file (or standard
/// input) of at most a program's bytes, nested no deeper than a program may
/// be (blk/Driver/ProgramText.h); else the reason, and null.
static std::unique_ptr<llvm::MemoryBuffer> readInput(StringRef inputFilename) {
  std::string text;
  ::blk::runtime::Status read = ::blk::runtime::Status::success();
  if (inputFilename == "-") {
    // Standard input may not end (a pipe from /dev/zero): read a byte
    // past the limit at most, which checkProgramText refuses.
    text.resize(::blk::kMaxProgramBytes + 1);
    text.resize(std::fread(text.data(), 1, text.size(), stdin));
  } else {
    read = ::blk::readProgramFile(inputFilename.str(), text);
  }
  if (read)
    read = ::blk::checkProgramText(
        text, inputFilename == "-" ? "<stdin>" : inputFilename.str());
  if (!read) {
    llvm::errs() << "softmax-opt: " << read.message() << "\n";
    return nullptr;
  }
  return llvm::MemoryBuffer::getMemBufferCopy(text, inputFilename);
}

/// Writes `text` to `outputFilename` whole ("-": standard output): a
/// failure leaves the file as it was.
static LogicalResult writeOutput(StringRef outputFilename,
                                 const std::string &text) {
  if (::blk::runtime::Status written =
          ::blk::runtime::writeFileWhole(outputFilename.str(), text);
      !written) {
    llvm::errs() << "softmax-opt: " << written.message() << "\n";
    return failure();
  }
  return success();
}

/// Runs the passes as mlir-opt would, then writes the IR. Where they fail,
/// a file keeps what it held; standard output still gets what the input's
/// other parts gave (--split-input-file), as mlir-opt prints it.
static LogicalResult emitMLIR(std::unique_ptr<llvm::MemoryBuffer> input,
                              StringRef outputFilename,
                              DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  std::string compiled;
  llvm::raw_string_ostream compiledStream(compiled);
  if (failed(MlirOptMain(compiledStream, std::move(input), registry, config))) {
    if (outputFilename == "-")
      (void)writeOutput(outputFilename, compiled);
    return failure();
  }
  return writeOutput(outputFilename, compiled);
}

/// Runs the passes as mlir-opt would, then writes the PTX of the result.
static LogicalResult emitPTX(std::unique_ptr<llvm::MemoryBuffer> input,
                             StringRef outputFilename,
                             DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  std::string compiled;
  llvm::raw_string_ostream compiledStream(compiled);
  if (failed(MlirOptMain(compiledStream, std::move(input), registry, config)))
    return failure();

  MLIRContext context(registry);
  // The module is the pipeline's output parsed again: its locations would
  // be lines of that text, not of the input, so its errors are the tool's.
  ScopedDiagnosticHandler toolErrors(&context, [](Diagnostic &diagnostic) {
    llvm::errs() << "softmax-opt: --emit=ptx: " << diagnostic.str() << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(compiled, &context);
  if (!module)
    return failure();
  FailureOr<std::vector<mlir::blk::CompiledKernel>> kernels =
      mlir::blk::getCompiledKernels(*module);
  if (failed(kernels))
    return failure();
  return writeOutput(outputFilename, kernels->front().ptx);
}

namespace mlir::blk::test {
/// The passes of test/lib (blk-test-print-access).
void registerTestPasses();
} // namespace mlir::blk::test

/// The options --help shows beside blk's: what a user of softmax-opt sets
/// (input and output, pipelines, IR printing, diagnostics, timing).
static bool isShownOption(llvm::StringRef name) {
  static const char *const kShown[] = {
      "help", "help-list", "version", "o", "pass-pipeline",
      "split-input-file", "verify-diagnostics", "verify-each",
      "verify-roundtrip", "show-dialects", "list-passes",
      "dump-pass-pipeline", "allow-unregistered-dialect",
      "no-implicit-module", "emit-bytecode", "mlir-print-ir-after-all",
      "mlir-print-ir-before-all", "mlir-print-ir-after",
      "mlir-print-ir-before", "mlir-print-ir-after-failure",
      "mlir-print-ir-after-change", "mlir-print-ir-module-scope",
      "mlir-print-op-on-diagnostic", "mlir-print-debuginfo",
      "mlir-print-local-scope", "mlir-print-stacktrace-on-diagnostic",
      "mlir-elide-elementsattrs-if-larger", "mlir-disable-threading",
      "mlir-timing", "mlir-timing-display", "mlir-pass-statistics",
      "mlir-pass-pipeline-crash-reproducer",
      "mlir-diagnostic-verbosity-level"};
  return llvm::is_contained(kShown, name);
}

/// Registers MLIR's options now (registerAndParseCLIOptions registers each
/// set once: its calls later find them there) and hides every option but
/// blk's and isShownOption's: LLVM's backends (amdgpu, x86, polly...) had
/// 400 of the 532 lines of --help. --help-hidden shows them all.
static void registerAndHideOptions(DialectRegistry &registry) {
  MlirOptMainConfig::registerCLOptions(registry);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  tracing::DebugCounter::registerCLOptions();
  // The pass list is one option, registered under every pass's name.
  for (auto &[name, option] : llvm::cl::getRegisteredOptions())
    if (!isShownOption(name) &&
        !llvm::is_contained(option->Categories, &blkCategory) &&
        !PassInfo::lookup(name) && !PassPipelineInfo::lookup(name))
      option->setHiddenFlag(llvm::cl::Hidden);
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  mlir::blk::registerCompilerDialects(registry);
  mlir::blk::registerCompilerPasses();
  mlir::blk::test::registerTestPasses();

  llvm::InitLLVM init(argc, argv);
  ::blk::installCrashWatchdog("softmax-opt");
  // An error points at a line of the program; MLIR's default would also
  // print the op it is attached to, which for an error about the whole
  // program is the whole module. --mlir-print-op-on-diagnostic brings it
  // back.
  mlir::blk::addVersionPrinter("softmax-opt");
  registerAndHideOptions(registry);
  if (auto *printOp = llvm::cl::getRegisteredOptions().lookup(
          "mlir-print-op-on-diagnostic"))
    static_cast<llvm::cl::opt<bool> *>(printOp)->setInitialValue(false);
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "softmax-opt: block programs to PTX\n", registry);
  if (emit != "mlir" && emit != "ptx") {
    llvm::errs() << "softmax-opt: --emit must be mlir or ptx, not '" << emit
                 << "'\n";
    return 1;
  }
  // Listing dialects or passes reads no input: mlir-opt's own main does it.
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return ::blk::finishStandardOutput(
        "softmax-opt",
        asMainReturnCode(
            MlirOptMain(argc, argv, inputFilename, outputFilename, registry)));
  std::unique_ptr<llvm::MemoryBuffer> input = readInput(inputFilename);
  if (!input)
    return 1;
  LogicalResult emitted =
      emit == "ptx" ? emitPTX(std::move(input), outputFilename, registry)
                    : emitMLIR(std::move(input), outputFilename, registry);
  return ::blk::finishStandardOutput("softmax-opt", asMainReturnCode(emitted));
}
