//===- choose_program.cpp - the program and binding for a shape, in C++ ---===//
//
// Using the compile driver (blk/Driver/Driver.h) as softmax-run auto does:
// for a softmax of M x N elements of a dtype on a chip, pick the built-in
// program (chooseBuiltinSoftmax), fit it to the problem (fitProgram), bind
// it (chooseBinding: constants, warps, CTAs per program, grid) and compile
// it to PTX (compileProgram), whose accesses show the vector width
// blk-distribute chose. --ptx writes the PTX, which is what
// `softmax-run auto --emit-ptx` writes for the same problem (a test checks).
//
//   ninja -C build blk-choose-program
//   build/bin/blk-choose-program 4096 100 f32
//   build/bin/blk-choose-program 1024 65536 bf16 --chip=sm_90
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Driver.h"
#include "blk/Driver/ToolExit.h"
#include "blk/Runtime/Files.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
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
static llvm::cl::opt<std::string>
    chip("chip", llvm::cl::desc("Target chip (default: sm_90)"),
         llvm::cl::cat(toolOptions));
static llvm::cl::opt<int64_t> multiprocessors(
    "multiprocessors",
    llvm::cl::desc("SMs of the GPU the program is for (0: a whole chip)"),
    llvm::cl::init(0), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    ptxPath("ptx", llvm::cl::desc("Write the PTX of the kernels to this file"),
            llvm::cl::cat(toolOptions));

/// Chooses, fits, binds and compiles the program; prints what it got.
static int chooseAndCompile() {
  mlir::blk::ProblemDesc problem;
  problem.rows = rows;
  problem.cols = cols;
  if (dtype == "f16")
    problem.elementType = ::blk::runtime::ElementType::F16;
  else if (dtype == "bf16")
    problem.elementType = ::blk::runtime::ElementType::BF16;
  else if (dtype != "f32") {
    llvm::errs() << "blk-choose-program: the dtype must be f32, f16 or bf16\n";
    return 1;
  }
  mlir::blk::CompileOptions options;
  options.chip = chip.empty() ? std::string(mlir::blk::TargetInfo::kDefaultChip)
                              : chip.getValue();
  options.multiprocessors = multiprocessors;
  const mlir::blk::BuiltinProgram &chosen = mlir::blk::chooseBuiltinSoftmax(problem, options);

  DialectRegistry registry;
  mlir::blk::registerCompilerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> program =
      parseSourceString<ModuleOp>(chosen.source, &context, chosen.name);
  if (!program)
    return 1;
  FailureOr<OwningOpRef<ModuleOp>> fitted = mlir::blk::fitProgram(*program, problem, options);
  if (failed(fitted))
    return 1;
  FailureOr<mlir::blk::Specialization> binding =
      mlir::blk::chooseBinding(**fitted, problem, options);
  if (failed(binding))
    return 1;
  llvm::outs() << chosen.name << " for " << rows << " x " << cols << " "
               << dtype << " on " << options.chip << ": " << binding->describe()
               << ", grid " << binding->getGrid(rows) << "\n";

  FailureOr<mlir::blk::CompiledProgram> compiled =
      mlir::blk::compileProgram(**fitted, problem, *binding, options);
  if (failed(compiled))
    return 1;
  // What a launcher needs (blk/Runtime/Program.h): each kernel's launch
  // record, and one PTX module for all of them.
  const ::blk::runtime::ProgramImage &image = compiled->image;
  llvm::StringRef ptx = image.ptx;
  for (size_t k = 0; k < image.signatures.size(); ++k)
    llvm::outs() << "  kernel " << image.signatures[k].name << ": "
                 << image.launches[k].threads << " threads x "
                 << image.launches[k].ctas << " CTAs, "
                 << ptx.count("ld.global.v4") << " 16-byte loads, "
                 << ptx.count("cp.async.cg.shared.global")
                 << " 16-byte copies to shared memory, "
                 << ptx.count("st.global.v4") << " 16-byte stores\n";
  if (ptxPath.empty())
    return 0;
  // Whole or not at all: a failed write leaves the file as it was.
  if (::blk::runtime::Status written =
          ::blk::runtime::writeFileWhole(ptxPath, image.ptx);
      !written) {
    llvm::errs() << "blk-choose-program: " << written.message() << "\n";
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "the softmax program for a shape\n");
  // Standard output that could not be written is an error too.
  return ::blk::finishStandardOutput("blk-choose-program",
                                     chooseAndCompile());
}
