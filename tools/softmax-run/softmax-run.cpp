//===- softmax-run.cpp - compile a block program, run it, check it, time it -===//
//
//   softmax-run PROGRAM.mlir --rows M --cols N [--check] [--bench] ...
//
// Compiles the program in-process through the same pipeline as softmax-opt
// (binding its constants from the shape), runs it on the GPU (or the CPU),
// compares the result with a double-precision reference, and times it.
//
//===----------------------------------------------------------------------===//
#include "Autotune.h"
#include "CpuExecution.h"
#include "GpuExecution.h"
#include "Problem.h"

#include "blk/IR/BlkDialect.h"
#include "blk/Programs/Programs.h"
#include "blk/Runtime/Npy.h"
#include "blk/Target/PTX.h"
#include "blk/Conversion/Passes.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <functional>
#include <cstdio>
#include <random>

using namespace softmax_run;
using blk::runtime::ElementType;
using blk::runtime::Status;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("softmax-run options");

static cl::opt<std::string> programPath(
    cl::Positional,
    cl::desc("<program.mlir | built-in program name | auto (the program "
             "chosen for the shape)>"),
    cl::cat(runCategory));
static cl::opt<int64_t> rowsOption("rows", cl::desc("Rows (M)"), cl::init(0),
                                   cl::cat(runCategory));
static cl::opt<int64_t> colsOption("cols", cl::desc("Columns (N)"), cl::init(0),
                                   cl::cat(runCategory));
static cl::opt<std::string> dtypeOption("dtype", cl::desc("f32, f16 or bf16"),
                                        cl::init("f32"), cl::cat(runCategory));
static cl::opt<std::string> inputPath("input",
                                      cl::desc("Input .npy (float32/float16)"),
                                      cl::cat(runCategory));
static cl::opt<std::string> outputPath("output", cl::desc("Output .npy"),
                                       cl::cat(runCategory));
static cl::opt<int64_t>
    inStrideOption("in-stride",
                   cl::desc("Input row stride in elements (default N)"),
                   cl::init(0), cl::cat(runCategory));
static cl::opt<int64_t>
    outStrideOption("out-stride",
                    cl::desc("Output row stride in elements (default N)"),
                    cl::init(0), cl::cat(runCategory));
static cl::opt<bool>
    checkOption("check", cl::desc("Compare with a double-precision reference"),
                cl::cat(runCategory));
static cl::opt<bool> benchOption("bench", cl::desc("Time the kernel"),
                                 cl::cat(runCategory));
static cl::opt<int> runsOption("runs", cl::desc("Timed runs (at least 20)"),
                               cl::init(50), cl::cat(runCategory));
static cl::opt<std::string>
    csvPath("csv", cl::desc("Append dtype,M,N,provider,gbps rows to this file"),
            cl::cat(runCategory));
static cl::opt<std::string>
    providerOption("provider",
                   cl::desc("Provider name in the CSV (default: blk-<kernel>)"),
                   cl::cat(runCategory));
static cl::opt<std::string> targetOption("target", cl::desc("gpu, cpu or auto"),
                                         cl::init("auto"),
                                         cl::cat(runCategory));
static cl::opt<std::string>
    chipOption("chip", cl::desc("Target chip (default: the device's)"),
               cl::cat(runCategory));
static cl::opt<unsigned> seedOption("seed", cl::desc("Random seed"),
                                    cl::init(0), cl::cat(runCategory));
static cl::list<std::string>
    constOptions("const", cl::desc("Bind constants: NAME=VALUE[,NAME=VALUE]"),
                 cl::CommaSeparated, cl::cat(runCategory));
static cl::opt<int64_t> warpsOption("num-warps",
                                    cl::desc("Warps per program (override)"),
                                    cl::init(0), cl::cat(runCategory));
static cl::opt<int64_t> ctasOption(
    "num-ctas",
    cl::desc("CTAs (a thread-block cluster, sm_90+) per program (override)"),
    cl::init(0), cl::cat(runCategory));
static cl::opt<int64_t>
    maxTileOption("max-tile",
                  cl::desc("Largest BLOCK for programs that loop over a row"),
                  cl::init(8192), cl::cat(runCategory));
static cl::opt<bool>
    specialOption("special",
                  cl::desc("Put special values (+-inf, NaN, huge, tiny) in the "
                           "first rows of the random input"),
                  cl::cat(runCategory));
static cl::opt<bool>
    probeOption("probe-gpu",
                cl::desc("Only say whether a usable GPU is present (exit "
                         "status 0) or not (1), and exit"),
                cl::cat(runCategory));
static cl::opt<bool> autotuneOption(
    "autotune",
    cl::desc("Time candidate warps, ROWS and tiles on the GPU and "
             "remember the fastest on disk for this device, "
             "program, dtype and shape"),
    cl::cat(runCategory));
static cl::opt<std::string> autotuneCachePath(
    "autotune-cache",
    cl::desc("Autotune cache file (default ~/.cache/blk-softmax/autotune.tsv)"),
    cl::cat(runCategory));
static cl::opt<bool>
    verboseOption("verbose",
                  cl::desc("Print registers, spills, shared memory, occupancy"),
                  cl::cat(runCategory));

namespace {

/// Largest cluster the rules may use on `chip`: clusters need sm_90.
int64_t maxClusterCtas(llvm::StringRef chip) {
  return mlir::blk::chipHasClusters(chip) ? mlir::blk::kMaxClusterCtas : 1;
}

int fail(const std::string &message) {
  llvm::errs() << "softmax-run: " << message << "\n";
  return 1;
}

/// Puts the program's text in `sourceMgr`: the file at the positional path,
/// else the built-in program of that name, or for `auto` the built-in
/// program chosen for the problem's rows.
bool addProgramSource(llvm::SourceMgr &sourceMgr, const Problem &problem,
                      bool hasClusters, std::string &programName,
                      std::string &error) {
  const mlir::blk::BuiltinProgram *builtin = nullptr;
  if (programPath == "auto")
    builtin = &mlir::blk::chooseSoftmaxProgram(
        problem.cols, blk::runtime::elementSize(problem.type), hasClusters);
  else if (!llvm::sys::fs::exists(programPath))
    builtin = mlir::blk::lookupBuiltinProgram(programPath);
  if (builtin) {
    programName = builtin->name.str();
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(builtin->source, programName),
        llvm::SMLoc());
    return true;
  }
  programName = llvm::sys::path::filename(programPath).str();
  auto file = llvm::MemoryBuffer::getFile(programPath);
  if (!file) {
    error = "cannot read the program " + programPath + ": " +
            file.getError().message() +
            " (neither a file nor a built-in program; `auto` picks one)";
    return false;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  return true;
}

bool parseElementType(llvm::StringRef name, ElementType &type) {
  if (name == "f32")
    type = ElementType::F32;
  else if (name == "f16")
    type = ElementType::F16;
  else if (name == "bf16")
    type = ElementType::BF16;
  else
    return false;
  return true;
}

/// Rows of special values, one kind per row, from row 0 on.
void injectSpecialValues(Problem &problem) {
  const float inf = INFINITY, nan = NAN;
  auto row = [&](int64_t r) { return &problem.input[r * problem.inStride]; };
  int64_t n = problem.cols;
  std::vector<std::function<void(float *)>> kinds = {
      [&](float *x) { x[0] = -inf; x[n / 2] = -inf; },     // some -inf
      [&](float *x) { std::fill(x, x + n, -inf); },        // all -inf: NaN
      [&](float *x) { x[n - 1] = inf; },                   // +inf: NaN
      [&](float *x) { x[n / 3] = nan; },                   // NaN anywhere
      [&](float *x) { x[0] = 3e38f; x[n - 1] = -3e38f; },  // near the limits
      [&](float *x) { for (int64_t i = 0; i < n; ++i) x[i] *= 1e30f; },
      [&](float *x) { for (int64_t i = 0; i < n; ++i) x[i] *= 1e-38f; },
  };
  for (int64_t r = 0; r < problem.rows && r < int64_t(kinds.size()); ++r)
    kinds[r](row(r));
}

bool buildProblem(Problem &problem, std::string &error) {
  if (!parseElementType(dtypeOption, problem.type)) {
    error = "--dtype must be f32, f16 or bf16, not '" + dtypeOption + "'";
    return false;
  }
  blk::runtime::NpyArray array;
  if (!inputPath.empty()) {
    if (Status status = blk::runtime::readNpy(inputPath, array); !status) {
      error = status.message();
      return false;
    }
    problem.rows = array.rows;
    problem.cols = array.cols;
  } else {
    problem.rows = rowsOption;
    problem.cols = colsOption;
  }
  if (problem.rows < 1 || problem.cols < 1) {
    error = "give the shape with --rows M --cols N (both >= 1) or --input";
    return false;
  }
  problem.inStride = inStrideOption ? inStrideOption.getValue() : problem.cols;
  problem.outStride =
      outStrideOption ? outStrideOption.getValue() : problem.cols;
  if (problem.inStride < problem.cols || problem.outStride < problem.cols) {
    error = "row strides must be at least N (" + std::to_string(problem.cols) +
            ")";
    return false;
  }
  if (problem.rows * std::max(problem.inStride, problem.outStride) >
      (int64_t(1) << 31) - 1) {
    error = "the tensor has more than 2^31 - 1 elements; kernels index with "
            "32-bit offsets";
    return false;
  }
  problem.input.assign(problem.rows * problem.inStride, 0.0f);
  if (!inputPath.empty()) {
    for (int64_t r = 0; r < problem.rows; ++r)
      std::copy_n(&array.values[r * problem.cols], problem.cols,
                  &problem.input[r * problem.inStride]);
  } else {
    std::mt19937 generator(seedOption);
    std::normal_distribution<float> normal(0.0f, 2.0f);
    for (int64_t r = 0; r < problem.rows; ++r)
      for (int64_t c = 0; c < problem.cols; ++c)
        problem.input[r * problem.inStride + c] = normal(generator);
  }
  if (specialOption)
    injectSpecialValues(problem);
  // What the kernel sees is the input rounded to its element type.
  if (problem.type != ElementType::F32)
    for (float &value : problem.input)
      value = problem.type == ElementType::F16
                  ? blk::runtime::halfBitsToFloat(
                        blk::runtime::floatToHalfBits(value))
                  : blk::runtime::bf16BitsToFloat(
                        blk::runtime::floatToBf16Bits(value));
  return true;
}

bool parseConstants(llvm::StringMap<int64_t> &constants, std::string &error) {
  for (const std::string &binding : constOptions) {
    auto [name, value] = llvm::StringRef(binding).split('=');
    int64_t number;
    if (name.empty() || value.getAsInteger(10, number)) {
      error = "--const " + binding + ": expected NAME=VALUE";
      return false;
    }
    constants[name] = number;
  }
  return true;
}

/// Checks the output against the reference; prints the figures.
bool checkOutput(const Problem &problem, const std::vector<uint8_t> &output) {
  std::vector<double> reference(problem.rows * problem.cols);
  blk::runtime::referenceSoftmax(problem.input.data(), problem.rows,
                                 problem.cols, problem.inStride,
                                 reference.data());
  blk::runtime::ErrorStats stats = blk::runtime::compareToReference(
      output.data(), problem.type, problem.rows, problem.cols,
      problem.outStride, reference.data());
  double tolerance = problem.type == ElementType::F32 ? 1e-5 : 1e-2;
  bool ok = stats.nanPatternAndCoverageMatch() && stats.relL2Error <= tolerance;
  llvm::outs() << "  check: " << stats.summary() << "  "
               << (ok ? "OK" : "FAILED") << " (relative L2 tolerance "
               << llvm::format("%.0e", tolerance) << ")\n";
  return ok;
}

bool writeOutput(const Problem &problem, const std::vector<uint8_t> &output,
                 std::string &error) {
  std::vector<float> values(problem.rows * problem.cols);
  for (int64_t r = 0; r < problem.rows; ++r)
    for (int64_t c = 0; c < problem.cols; ++c)
      values[r * problem.cols + c] = blk::runtime::loadAsFloat(
          output.data(), problem.type, r * problem.outStride + c);
  Status status = blk::runtime::writeNpy(
      outputPath, problem.rows, problem.cols, values.data(),
      problem.type == ElementType::F16 ? blk::runtime::NpyDtype::Float16
                                       : blk::runtime::NpyDtype::Float32);
  if (!status)
    error = status.message();
  return status.ok();
}

void appendCsv(const Problem &problem, const std::string &provider,
               double gbps) {
  bool fresh = !llvm::sys::fs::exists(csvPath);
  std::error_code ec;
  llvm::raw_fd_ostream csv(csvPath, ec, llvm::sys::fs::OF_Append);
  if (ec) {
    llvm::errs() << "softmax-run: " << csvPath << ": " << ec.message() << "\n";
    return;
  }
  if (fresh)
    csv << "dtype,M,N,provider,gbps\n";
  csv << blk::runtime::elementTypeName(problem.type) << "," << problem.rows
      << "," << problem.cols << "," << provider << ","
      << llvm::format("%.1f", gbps) << "\n";
}

/// --check and --output on a run's output; false if the check failed or the
/// output could not be written.
bool checkAndWrite(const Problem &problem, const std::vector<uint8_t> &output) {
  bool ok = !checkOption || checkOutput(problem, output);
  std::string error;
  if (!outputPath.empty() && !writeOutput(problem, output, error)) {
    llvm::errs() << "softmax-run: " << error << "\n";
    return false;
  }
  return ok;
}

void reportBench(const Problem &problem, const std::string &kernel,
                 double milliseconds, double copyGBps, int runs,
                 const char *how) {
  double bytes = 2.0 * problem.rows * problem.cols *
                 blk::runtime::elementSize(problem.type);
  double gbps = bytes / (milliseconds * 1e6);
  llvm::outs() << "  bench: " << llvm::format("%.4f", milliseconds)
               << " ms (median of " << runs << how << "), "
               << llvm::format("%.1f", gbps) << " GB/s";
  if (copyGBps > 0)
    llvm::outs() << " = " << llvm::format("%.1f", 100 * gbps / copyGBps)
                 << "% of a device copy (" << llvm::format("%.1f", copyGBps)
                 << " GB/s)";
  llvm::outs() << "\n";
  if (!csvPath.empty())
    appendCsv(problem,
              providerOption.empty() ? "blk-" + kernel
                                     : providerOption.getValue(),
              gbps);
}

/// Compiles one specialization of the fitted program and loads it; sets
/// the grid of persistent kernels.
Status buildOnGPU(GpuExecution &gpu, mlir::ModuleOp fitted,
                  const Problem &problem, mlir::blk::PTXTarget target,
                  Specialization &specialization, LoadedProgram &loaded) {
  target.numWarps = specialization.numWarps;
  target.numCtas = specialization.numCtas;
  auto compiled = mlir::blk::compileToPTX(fitted, specialization.constants,
                                          target);
  if (mlir::failed(compiled))
    return Status::failure("compilation failed (see the errors above)");
  if (Status status = gpu.load(std::move(*compiled), loaded); !status)
    return status;
  return gpu.fitGrid(loaded, problem, specialization);
}

/// Times every candidate specialization (20 runs each) and returns the
/// fastest; candidates that do not compile (too many registers...) are
/// skipped quietly.
bool tuneOnGPU(GpuExecution &gpu, mlir::ModuleOp program,
               mlir::ModuleOp fitted, const Problem &problem,
               const KernelABI &abi, const mlir::blk::PTXTarget &target,
               const llvm::StringMap<int64_t> &overrides,
               Specialization &best) {
  double bestGBps = 0;
  int tried = 0;
  for (Specialization candidate :
       candidateSpecializations(program, shapeOf(problem), overrides, maxTileOption,
                                maxClusterCtas(target.chip))) {
    mlir::ScopedDiagnosticHandler quiet(
        program.getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    LoadedProgram loaded;
    BenchResult bench;
    if (!buildOnGPU(gpu, fitted, problem, target, candidate, loaded) ||
        !gpu.bench(loaded, candidate, problem, abi, 20, bench))
      continue;
    ++tried;
    if (bench.kernelGBps > bestGBps) {
      bestGBps = bench.kernelGBps;
      best = candidate;
    }
  }
  llvm::outs() << "  autotune: " << tried << " candidates timed, best "
               << best.describe() << " ("
               << llvm::format("%.1f", bestGBps) << " GB/s)\n";
  return tried > 0;
}

/// The chip to compile for: --chip, else the device's.
std::string targetChip(const blk::runtime::CudaDriver &driver) {
  return chipOption.empty() ? driver.device().smArch() : chipOption.getValue();
}

int runOnGPU(blk::runtime::CudaDriver &driver, mlir::ModuleOp program,
             llvm::StringRef programName, const Problem &problem,
             Specialization specialization,
             const llvm::StringMap<int64_t> &overrides) {
  const blk::runtime::DeviceInfo &device = driver.device();
  mlir::blk::PTXTarget target;
  target.chip = targetChip(driver);
  target.features = mlir::blk::getDefaultFeatures(target.chip);

  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> fitted = fitToProblem(program, problem);
  if (!fitted)
    return fail("the program cannot be fitted to the problem (see above)");
  KernelABI abi;
  if (!KernelABI::read(*fitted, problem, abi, error))
    return fail(error);
  GpuExecution gpu(driver);

  if (autotuneOption) {
    AutotuneCache cache(autotuneCachePath);
    std::string key = AutotuneCache::key(device.name + " " + target.chip,
                                         program, programName.str(), problem);
    if (auto remembered = cache.lookup(key)) {
      if (!chooseSpecialization(program, shapeOf(problem), remembered->constants,
                                maxTileOption, remembered->numWarps,
                                remembered->numCtas,
                                maxClusterCtas(target.chip), specialization,
                                error))
        return fail(error);
      llvm::outs() << "  autotune: remembered in " << cache.getPath() << "\n";
    } else {
      if (!tuneOnGPU(gpu, program, *fitted, problem, abi, target, overrides,
                     specialization))
        return fail("autotune: no candidate compiled and ran");
      if (!cache.store(key, specialization, error))
        llvm::errs() << "softmax-run: autotune cache: " << error << "\n";
    }
  }

  llvm::outs() << "  target: GPU " << device.name << " (" << target.chip
               << "), " << specialization.describe() << ", grid "
               << specialization.grid << "\n";
  LoadedProgram loaded;
  Specialization launched = specialization;
  if (Status status =
          buildOnGPU(gpu, *fitted, problem, target, launched, loaded);
      !status)
    return fail(status.message());
  if (launched.grid != specialization.grid)
    llvm::outs() << "  persistent grid: " << launched.grid << " programs\n";
  if (verboseOption) {
    std::string report;
    if (Status status = gpu.describe(loaded, report); !status)
      return fail(status.message());
    llvm::outs() << report;
  }

  bool ok = true;
  if (checkOption || !outputPath.empty()) {
    std::vector<uint8_t> output;
    if (Status status = gpu.run(loaded, launched, problem, abi, output);
        !status)
      return fail(status.message());
    ok = checkAndWrite(problem, output);
  }
  if (benchOption) {
    BenchResult bench;
    if (Status status = gpu.bench(loaded, launched, problem, abi,
                                  std::max(20, runsOption.getValue()), bench);
        !status)
      return fail(status.message());
    reportBench(problem, loaded.compiled.front().name, bench.kernelMs,
                bench.copyGBps, bench.runs, ", L2 flushed");
  }
  return ok ? 0 : 1;
}

/// The host has no persistent-grid notion of occupancy: a persistent
/// program runs with one program per row, like the others.
int runOnCPU(mlir::ModuleOp program, const Problem &problem,
             Specialization specialization) {
  // The CPU runs a program as one loop nest: clusters mean nothing there.
  specialization.numCtas = 0;
  if (autotuneOption)
    llvm::outs() << "  autotune: times kernels on the GPU; not on the CPU\n";
  llvm::outs() << "  target: CPU (JIT), " << specialization.describe()
               << ", grid " << specialization.grid << "\n";
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> fitted = fitToProblem(program, problem);
  if (!fitted)
    return fail("the program cannot be fitted to the problem (see above)");
  KernelABI abi;
  if (!KernelABI::read(*fitted, problem, abi, error))
    return fail(error);
  mlir::PassManager pm(program.getContext());
  pm.addPass(mlir::blk::createBlkSpecializePass(specialization.constants));
  CpuExecution cpu;
  if (mlir::failed(pm.run(*fitted)) || mlir::failed(cpu.compile(*fitted)))
    return fail("compilation failed (see the errors above)");
  std::vector<uint8_t> output;
  if (mlir::failed(cpu.run(problem, abi, specialization.grid, output)))
    return fail("the CPU run failed (see the errors above)");
  bool ok = checkAndWrite(problem, output);
  if (benchOption) {
    double milliseconds = 0;
    int runs = std::max(3, std::min(20, runsOption.getValue()));
    if (mlir::failed(cpu.time(problem, specialization.grid, runs, milliseconds)))
      return fail("the CPU run failed (see the errors above)");
    std::string name;
    for (auto func : program.getOps<mlir::func::FuncOp>())
      if (mlir::blk::isKernel(func) && name.empty())
        name = func.getSymName().str();
    reportBench(problem, name, milliseconds, /*copyGBps=*/0, runs,
                ", wall clock");
  }
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // LLVM's own options would bury softmax-run's in --help.
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv, "softmax-run: compile a block program, run, check, time\n");
  std::string error;
  if (probeOption) {
    auto driver = blk::runtime::CudaDriver::load(error);
    llvm::outs() << (driver ? driver->device().summary() : error) << "\n";
    return driver ? 0 : 1;
  }
  if (programPath.empty())
    return fail("no program given (softmax-run PROGRAM.mlir --rows M --cols N)");

  mlir::DialectRegistry registry;
  registry.insert<mlir::blk::BlkDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
  mlir::blk::registerBlkToPTXDependencies(registry);
  mlir::blk::registerBlkToCPUDependencies(registry);
  mlir::MLIRContext context(registry);

  if (targetOption != "gpu" && targetOption != "cpu" && targetOption != "auto")
    return fail("--target must be gpu, cpu or auto");
  if (maxTileOption < 2 || !llvm::isPowerOf2_64(maxTileOption))
    return fail("--max-tile must be a power of two of at least 2, not " +
                std::to_string(maxTileOption));
  // 0 leaves the kernels' own values; checked here too, since the CPU
  // target does not use them.
  auto isPowerOfTwoUpTo = [](int64_t value, int64_t limit) {
    return value == 0 ||
           (value >= 1 && value <= limit && llvm::isPowerOf2_64(value));
  };
  if (!isPowerOfTwoUpTo(warpsOption, 32))
    return fail("--num-warps must be a power of two from 1 to 32, not " +
                std::to_string(warpsOption));
  if (!isPowerOfTwoUpTo(ctasOption, mlir::blk::kMaxClusterCtas))
    return fail("--num-ctas must be a power of two from 1 to " +
                std::to_string(mlir::blk::kMaxClusterCtas) + ", not " +
                std::to_string(ctasOption));
  Problem problem;
  if (!buildProblem(problem, error))
    return fail(error);
  llvm::StringMap<int64_t> overrides;
  if (!parseConstants(overrides, error))
    return fail(error);

  // The target comes first: the program `auto` picks depends on it.
  std::unique_ptr<blk::runtime::CudaDriver> driver;
  std::string noGpu;
  if (targetOption != "cpu") {
    driver = blk::runtime::CudaDriver::load(noGpu);
    if (!driver && targetOption == "gpu")
      return fail(noGpu);
  }
  // The CPU ignores CTAs, so the rules may assume clusters there; a GPU
  // without them gets one CTA per program (unless asked otherwise, which its
  // compilation rejects).
  int64_t maxCtas = driver ? maxClusterCtas(targetChip(*driver))
                           : mlir::blk::kMaxClusterCtas;
  // --num-ctas 1 rules clusters out as much as a chip without them does.
  bool hasClusters = driver && maxCtas > 1 && ctasOption != 1;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string programName;
  if (!addProgramSource(sourceMgr, problem, hasClusters, programName, error))
    return fail(error);
  mlir::OwningOpRef<mlir::ModuleOp> program =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!program)
    return fail("cannot parse the program " + programName);

  Specialization specialization;
  if (!chooseSpecialization(*program, shapeOf(problem), overrides, maxTileOption,
                            warpsOption, ctasOption, maxCtas, specialization,
                            error))
    return fail(error);

  llvm::outs() << programName << ": " << problem.rows << " x "
               << problem.cols << " "
               << blk::runtime::elementTypeName(problem.type)
               << (programPath == "auto" ? " (auto)" : "") << "\n";

  if (driver)
    return runOnGPU(*driver, *program, programName, problem, specialization,
                    overrides);
  if (targetOption == "auto")
    llvm::outs() << "  no GPU (" << noGpu << "): running on the CPU\n";
  return runOnCPU(*program, problem, specialization);
}
