//===- choose_program.cpp - the program and binding for a shape, in C++ ---===//
//
// Using the library's automatic choice, as softmax-run does: for a softmax
// of M x N elements of a dtype on a chip, pick the built-in program
// (chooseSoftmaxProgram), bind it (chooseSpecialization: BLOCK, ROWS,
// SPLITS, warps, CTAs per program, grid) and compile it to PTX, whose
// accesses show the vector width blk-distribute chose.
//
//   ninja -C build blk-choose-program
//   build/bin/blk-choose-program 4096 100 f32
//   build/bin/blk-choose-program 1024 65536 bf16 --chip=sm_90
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Passes.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Programs/Binding.h"
#include "blk/Programs/Programs.h"
#include "blk/Target/PTX.h"
#include "blk/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::OptionCategory toolOptions("blk-choose-program options");
static llvm::cl::opt<int64_t> rows(llvm::cl::Positional, llvm::cl::Required,
                                   llvm::cl::desc("<M>"),
                                   llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> cols(llvm::cl::Positional, llvm::cl::Required,
                                   llvm::cl::desc("<N>"),
                                   llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> dtype(llvm::cl::Positional,
                                        llvm::cl::desc("<f32|f16|bf16>"),
                                        llvm::cl::init("f32"),
                                        llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> chip("chip", llvm::cl::desc("Target chip"),
                                       llvm::cl::init("sm_90"),
                                       llvm::cl::cat(toolOptions));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "the softmax program for a shape\n");
  if (rows < 1 || cols < 1 || (dtype != "f32" && dtype != "f16" &&
                               dtype != "bf16")) {
    llvm::errs() << "blk-choose-program: M and N must be positive and the "
                    "dtype f32, f16 or bf16\n";
    return 1;
  }
  blk::SoftmaxShape shape{rows, cols, dtype == "f32" ? 4 : 2};
  bool hasClusters = blk::chipHasClusters(chip);
  const blk::BuiltinProgram &chosen =
      blk::chooseSoftmaxProgram(shape.cols, shape.elementBytes, hasClusters);

  DialectRegistry registry;
  registry.insert<blk::BlkDialect, arith::ArithDialect, func::FuncDialect,
                  math::MathDialect, scf::SCFDialect>();
  blk::registerBlkToPTXDependencies(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> program =
      parseSourceString<ModuleOp>(chosen.source, &context, chosen.name);
  if (!program)
    return 1;
  // 16-bit data: the program's f32 accesses go through the narrow type.
  if (dtype != "f32") {
    PassManager pm(&context);
    pm.addPass(blk::createBlkStorageType(
        blk::BlkStorageTypeOptions{dtype.getValue()}));
    if (failed(pm.run(*program)))
      return 1;
  }

  blk::Specialization binding;
  std::string error;
  if (!blk::chooseSpecialization(*program, shape, {}, /*maxTile=*/8192,
                                 /*forcedWarps=*/0, /*forcedCtas=*/0,
                                 hasClusters ? blk::kMaxClusterCtas : 1,
                                 binding, error)) {
    llvm::errs() << "blk-choose-program: " << error << "\n";
    return 1;
  }
  llvm::outs() << chosen.name << " for " << rows << " x " << cols << " "
               << dtype << " on " << chip << ": " << binding.describe()
               << ", grid " << binding.grid << "\n";

  blk::PTXTarget target;
  target.chip = chip;
  target.features = blk::getDefaultFeatures(chip);
  target.numWarps = binding.numWarps;
  target.numCtas = binding.numCtas;
  FailureOr<std::vector<blk::CompiledKernel>> kernels =
      blk::compileToPTX(*program, binding.constants, target);
  if (failed(kernels))
    return 1;
  for (const blk::CompiledKernel &kernel : *kernels) {
    llvm::StringRef ptx = kernel.ptx;
    llvm::outs() << "  kernel " << kernel.name << ": " << kernel.threads
                 << " threads x " << kernel.ctas << " CTAs, "
                 << ptx.count("ld.global.v4") << " 16-byte loads, "
                 << ptx.count("st.global.v4") << " 16-byte stores\n";
  }
  return 0;
}
