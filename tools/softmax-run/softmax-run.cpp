//===- softmax-run.cpp - compile a block program, run it, check it, time it -===//
//
//   softmax-run PROGRAM.mlir --rows M --cols N [--check] [--bench] ...
//
// Compiles the program in-process through the same pipeline as softmax-opt
// (binding its constants from the shape), runs it on the GPU (or the CPU),
// compares the result with a double-precision reference, and times it.
// This file composes: the flags are Options.h's, the data Tensors.h's, the
// reference and comparison Check.h's, the printing Report.h's, tuning
// Autotune.h's; compiling and launching are the libraries'.
//
//===----------------------------------------------------------------------===//
#include "Autotune.h"
#include "Check.h"
#include "CpuExecution.h"
#include "GpuExecution.h"
#include "Options.h"
#include "Problem.h"
#include "Report.h"
#include "RunFacts.h"
#include "Tensors.h"

#include "blk/Driver/CrashWatchdog.h"
#include "blk/Driver/ToolExit.h"
#include "blk/Driver/Driver.h"
#include "blk/Driver/ProgramText.h"
#include "blk/Runtime/Files.h"
#include "blk/Target/TargetInfo.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <string>

using namespace softmax_run;
using blk::runtime::Status;

namespace {

/// Puts the program's text in `sourceMgr`: the file at the positional path,
/// else the built-in program of that name, or for `auto` the built-in
/// program the driver chooses for the problem and target.
bool addProgramSource(llvm::SourceMgr &sourceMgr, const std::string &programPath,
                      const Problem &problem,
                      const mlir::blk::CompileOptions &options,
                      std::string &programName, std::string &error) {
  const mlir::blk::BuiltinProgram *builtin = nullptr;
  if (programPath == "auto")
    builtin = &mlir::blk::chooseBuiltinSoftmax(problem.desc, options);
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
  std::string text;
  if (Status read = blk::readProgramFile(programPath, text); !read) {
    error = read.message();
    if (!llvm::sys::fs::exists(programPath))
      error += " (neither a file nor a built-in program; `auto` picks one)";
    return false;
  }
  if (Status checked = blk::checkProgramText(text, programPath); !checked) {
    error = checked.message();
    return false;
  }
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, programPath), llvm::SMLoc());
  return true;
}

/// One more launch after the timed ones, on outputs poisoned again, writes
/// byte for byte what the checked launch wrote: a program whose launches
/// share state (blk.program_barrier's counters) is right every time, not
/// only the first.
bool relaunchMatches(GpuExecution &gpu, blk::runtime::GpuProgram &program,
                     const Problem &problem,
                     const std::vector<blk::runtime::HostTensor> &checked) {
  std::vector<blk::runtime::HostTensor> again = checked;
  if (Status status = gpu.run(program, problem, again); !status) {
    fail(status.message());
    return false;
  }
  for (size_t i = 0; i < checked.size(); ++i)
    if (checked[i].getDeclaration().role == blk::runtime::ArgRole::output &&
        checked[i].getBytes() != again[i].getBytes()) {
      report() << "  FAIL: a launch after the timed ones wrote another '"
               << checked[i].getName() << "' than the checked launch\n";
      return false;
    }
  report() << "  relaunch: same outputs as the checked launch\n";
  return true;
}

/// "grid 512", or "grid 32 x 64" for a batch of 64 problems (along y).
std::string describeGrid(const Specialization &binding,
                         const Problem &problem) {
  std::string grid = "grid " + std::to_string(binding.getGrid(problem.rows()));
  int64_t instances = problem.batch * problem.heads;
  return instances > 1 ? grid + " x " + std::to_string(instances) : grid;
}

/// The target and the binding it runs (autotuning may have chosen another
/// than the rules), for --json.
void recordTarget(llvm::StringRef target, const Specialization &binding,
                  const Problem &problem) {
  RunFacts &facts = RunFacts::get();
  facts.set("target", target.str());
  facts.set("binding", binding.describe());
  facts.set("grid", binding.getGrid(problem.desc.rows));
  facts.set("instances", problem.batch * problem.heads);
}

/// `driverMs`: how long loading the CUDA driver and its context took.
int runOnGPU(const RunOptions &runOptions, blk::runtime::CudaDriver &driver,
             double driverMs,
             mlir::ModuleOp program, mlir::ModuleOp fitted,
             llvm::StringRef programName, const Problem &problem,
             std::vector<blk::runtime::HostTensor> &tensors,
             Specialization binding, const mlir::blk::CompileOptions &options) {
  const blk::runtime::DeviceInfo &device = driver.device();
  GpuExecution gpu(driver);
  if (runOptions.autotune &&
      !autotune(runOptions, gpu, driver, program, fitted, programName, problem,
                tensors, options, binding))
    return 1;

  report() << "  target: GPU " << device.name << " (" << options.chip << "), "
           << binding.describe() << ", " << describeGrid(binding, problem)
           << "\n";
  recordTarget("gpu", binding, problem);
  RunFacts::get().set("device", device.name);
  RunFacts::get().set("chip", options.chip);
  LoadedProgram loaded;
  if (Status status =
          buildOnGPU(driver, fitted, problem, options, binding, loaded);
      !status)
    return fail(status.message());
  blk::runtime::GpuProgram &gpuProgram = *loaded.program;
  for (size_t k = 0; k < gpuProgram.image().signatures.size(); ++k) {
    int64_t grid = 0;
    if (Status status = gpuProgram.getGrid(k, problem.desc.rows, grid); !status)
      return fail(status.message());
    if (grid != binding.getGrid(problem.desc.rows))
      report() << "  persistent grid of @"
               << gpuProgram.image().signatures[k].name << ": " << grid
               << " programs\n";
  }
  reportCompileTimes(runOptions, loaded.times, loaded.loadMs);
  if (runOptions.verbose) {
    report() << "  CUDA driver and context: " << llvm::format("%.1f", driverMs)
             << " ms\n";
    std::string description;
    if (Status status = gpuProgram.describe(description); !status)
      return fail(status.message());
    report() << description;
  }

  bool ok = true;
  if (runOptions.check || runOptions.writesOutputs() ||
      !problem.expectations.empty()) {
    std::vector<blk::runtime::ReferenceOutput> expected;
    if (runOptions.check && problem.againstCPULowering) {
      if (!expectFromCPU(runOptions, fitted, problem, options, tensors,
                         expected))
        return fail("the CPU run --check compares with failed (see above)");
    } else if (runOptions.check &&
               !computeExpected(fitted, problem, binding, tensors, expected)) {
      return fail("the float64 reference could not be computed (see above)");
    }
    if (Status status = gpu.run(gpuProgram, problem, tensors); !status)
      return fail(status.message());
    ok = checkAndWrite(runOptions, problem, tensors, expected);
  }
  if (runOptions.bench) {
    BenchResult bench;
    if (Status status = gpu.bench(gpuProgram, problem, tensors,
                                  std::max(20, runOptions.runs), bench);
        !status)
      return fail(status.message());
    Timing timing{getMovedBytes(tensors), bench.kernelMs, bench.copyGBps,
                  bench.runs, ", L2 flushed", "device"};
    ok = reportBench(runOptions, problem,
                     gpuProgram.image().signatures.front().name,
                     "gpu " + device.name + " " + options.chip, timing) &&
         ok;
    if (runOptions.check && !relaunchMatches(gpu, gpuProgram, problem, tensors))
      ok = false;
  }
  return ok ? 0 : 1;
}

/// Compiles the binding for the GPU and writes the PTX to --emit-ptx.
bool emitPTX(const RunOptions &runOptions, mlir::ModuleOp fitted,
             const Problem &problem,
             const Specialization &binding,
             const mlir::blk::CompileOptions &options) {
  auto compiled =
      mlir::blk::compileProgram(fitted, problem.desc, binding, options);
  if (mlir::failed(compiled)) {
    fail("compilation failed (see the errors above)");
    return false;
  }
  reportCompileTimes(runOptions, compiled->times, /*loadMs=*/0);
  report() << "  PTX for " << options.chip << ", " << binding.describe()
           << ", " << describeGrid(binding, problem) << ": "
           << runOptions.emitPtx << "\n";
  return writeOutputFile(runOptions.emitPtx, [&](llvm::raw_ostream &os) {
    os << compiled->image.ptx;
  });
}

int runOnCPU(const RunOptions &runOptions, mlir::ModuleOp fitted,
             const Problem &problem,
             std::vector<blk::runtime::HostTensor> &tensors,
             const Specialization &binding,
             const mlir::blk::CompileOptions &options) {
  if (runOptions.autotune)
    report() << "  autotune: times kernels on the GPU; not on the CPU\n";
  unsigned threads = mlir::blk::CPUKernels::getThreads(
      runOptions.threads,
      binding.getGrid(problem.desc.rows) * problem.batch * problem.heads);
  report() << "  target: CPU (JIT), " << binding.describe() << ", "
           << describeGrid(binding, problem) << ", " << threads
           << (threads == 1 ? " thread" : " threads") << "\n";
  recordTarget("cpu", binding, problem);
  RunFacts::get().set("threads", int64_t(threads));
  std::unique_ptr<CpuExecution> cpu;
  mlir::blk::CompileTimes times;
  double loadMs = 0;
  if (Status status = buildOnCPU(fitted, problem, options, binding, threads,
                                 cpu, times, loadMs);
      !status)
    return fail(status.message());
  reportCompileTimes(runOptions, times, loadMs);
  std::vector<blk::runtime::ReferenceOutput> expected;
  if (runOptions.check &&
      !computeExpected(fitted, problem, binding, tensors, expected))
    return fail("the float64 reference could not be computed (see above)");
  // The timed runs start where the checked one did.
  std::vector<blk::runtime::HostTensor> start;
  if (runOptions.bench)
    start = tensors;
  if (Status status = cpu->run(problem, tensors); !status)
    return fail(status.message());
  bool ok = checkAndWrite(runOptions, problem, tensors, expected);
  if (runOptions.bench) {
    // The checked run above showed that this binding stays in the buffers
    // of this problem; the timing is of the code without checks (a call
    // per element access: 0.8 instead of 1.1 GB/s at 4096 x 1024).
    mlir::blk::CompileOptions unchecked = options;
    unchecked.checkBounds = false;
    std::unique_ptr<CpuExecution> timedCpu;
    if (Status status = buildOnCPU(fitted, problem, unchecked, binding,
                                   threads, timedCpu, times, loadMs);
        !status)
      return fail(status.message());
    double milliseconds = 0;
    int runs = std::max(3, std::min(20, runOptions.runs));
    if (Status status =
            timedCpu->time(problem, start, tensors, runs, milliseconds);
        !status)
      return fail(status.message());
    uint64_t moved = getMovedBytes(tensors);
    double copyGBps =
        timedCpu->timeCopy(std::max<uint64_t>(moved / 2, 1), runs);
    Timing timing{moved, milliseconds, copyGBps, runs, ", wall clock",
                  "host"};
    ok = reportBench(runOptions, problem,
                     cpu->image().signatures.front().name,
                     "cpu " + std::to_string(threads) +
                         (threads == 1 ? " thread" : " threads"),
                     timing) &&
         ok;
  }
  return ok ? 0 : 1;
}

/// The target compiled for: the GPU where there is a driver (or --emit-ptx
/// asks for PTX), its chip from --chip, else the device's, else the
/// default; its SMs where the chip is the device's (--chip sm_120 on an
/// H100 compiles for a chip not present).
mlir::blk::CompileOptions chooseTarget(const RunOptions &runOptions,
                                       const blk::runtime::CudaDriver *driver) {
  mlir::blk::CompileOptions options = runOptions.compile;
  bool forGPU = driver || !runOptions.emitPtx.empty();
  std::string deviceChip =
      driver ? mlir::blk::TargetInfo::getDeviceChip(
                   driver->device().computeCapabilityMajor,
                   driver->device().computeCapabilityMinor)
             : "";
  options.target =
      forGPU ? mlir::blk::TargetKind::GPU : mlir::blk::TargetKind::CPU;
  if (!runOptions.chip.empty())
    options.chip = runOptions.chip;
  else if (driver)
    options.chip = deviceChip;
  else if (forGPU)
    options.chip = mlir::blk::TargetInfo::kDefaultChip;
  // The device's SMs also for its portable chip (--chip sm_90 on an H100).
  if (driver && mlir::blk::TargetInfo::parseChipNumber(options.chip) ==
                    mlir::blk::TargetInfo::parseChipNumber(deviceChip))
    options.multiprocessors = driver->device().multiprocessorCount;
  return options;
}

/// The problem's first facts for --json and the report's first line.
void reportProblem(const RunOptions &runOptions, llvm::StringRef programName,
                   const Problem &problem, const Specialization &binding) {
  report() << programName << ": ";
  if (problem.batch * problem.heads > 1)
    report() << problem.batch << " x " << problem.heads << " (batch x heads) of ";
  report() << problem.rows() << " x " << problem.cols();
  if (problem.desc.inner)
    report() << " x " << problem.desc.inner << " (M x N x K)";
  report() << " " << blk::runtime::elementTypeName(problem.type())
           << (runOptions.isAuto() ? " (auto)" : "") << "\n";
  RunFacts &facts = RunFacts::get();
  facts.set("program", programName.str());
  facts.set("rows", problem.rows());
  facts.set("cols", problem.cols());
  if (problem.desc.inner)
    facts.set("inner", problem.desc.inner);
  facts.set("batch", problem.batch);
  facts.set("heads", problem.heads);
  facts.set("dtype",
            std::string(blk::runtime::elementTypeName(problem.type())));
  facts.set("binding", binding.describe());
  facts.set("grid", binding.getGrid(problem.rows()));
}

/// Compiles, runs, checks and times what `runOptions` asks; the exit
/// status.
int run(const RunOptions &runOptions) {
  if (runOptions.probeGpu) {
    std::unique_ptr<blk::runtime::CudaDriver> driver;
    Status loaded = blk::runtime::CudaDriver::load(driver);
    report() << (loaded ? driver->device().summary() : loaded.message())
             << "\n";
    return loaded ? 0 : 1;
  }
  if (runOptions.program.empty())
    return fail("no program given (softmax-run PROGRAM.mlir --rows M --cols N)");
  std::string error;
  Problem problem;
  problem.params = runOptions.params;
  blk::runtime::NpyArray array;
  if (!readShape(runOptions, problem, array, error))
    return fail(error);

  // The target comes first: the program `auto` picks depends on it.
  std::unique_ptr<blk::runtime::CudaDriver> driver;
  Status gpuLoad = Status::success();
  double driverMs = 0;
  if (runOptions.target != "cpu") {
    auto start = std::chrono::steady_clock::now();
    gpuLoad = blk::runtime::CudaDriver::load(driver);
    driverMs = millisecondsSince(start);
    if (!gpuLoad && runOptions.target == "gpu")
      return fail(gpuLoad.message());
  }
  mlir::blk::CompileOptions options = chooseTarget(runOptions, driver.get());

  mlir::DialectRegistry registry;
  mlir::blk::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  // An error points at a line of the program; the whole module printed
  // after it would bury it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string programName;
  if (!addProgramSource(sourceMgr, runOptions.program, problem, options,
                        programName, error))
    return fail(error);
  mlir::OwningOpRef<mlir::ModuleOp> program =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!program)
    return fail("cannot parse the program " + programName);

  auto signatures = mlir::blk::getKernelSignatures(*program);
  if (mlir::failed(signatures))
    return fail("the program's kernels cannot be run (see above)");
  if (!inferProductShape(runOptions, *signatures, problem, error) ||
      !findInputAndOutput(*signatures, problem, error) ||
      !checkParams(*signatures, problem, error) ||
      !chooseReference(runOptions, *program, *signatures, problem, error))
    return fail(error);
  if (runOptions.inStride)
    problem.desc.rowStrides[problem.input] = runOptions.inStride;
  if (runOptions.outStride)
    problem.desc.rowStrides[problem.output] = runOptions.outStride;
  problem.batch = runOptions.batch;
  problem.heads = runOptions.heads;
  if (!fitBatch(*signatures, runOptions.layout, problem, error))
    return fail(error);
  auto fitted = mlir::blk::fitProgram(*program, problem.desc, options);
  if (mlir::failed(fitted))
    return fail("the program cannot be fitted to the problem (see above)");
  auto binding = mlir::blk::chooseBinding(**fitted, problem.desc, options);
  if (mlir::failed(binding))
    return fail("the program cannot be bound to the problem (see above)");
  problem.causal = binding->constants.lookup("CAUSAL") != 0;
  reportProblem(runOptions, programName, problem, *binding);

  if (!runOptions.emitPtx.empty()) {
    if (!emitPTX(runOptions, **fitted, problem, *binding, options))
      return 1;
    if (!driver)
      return 0;
  }
  if (runOptions.check && problem.againstCPULowering && !driver)
    return fail("--reference cpu compares a GPU run with the CPU lowering; "
                "on the CPU, --check compares with the program in float64 "
                "(or --reference KIND)");
  // Only a run needs the data (--emit-ptx alone compiles).
  auto fittedSignatures = mlir::blk::getKernelSignatures(**fitted);
  if (mlir::failed(fittedSignatures))
    return fail("the program's kernels cannot be run (see above)");
  std::vector<blk::runtime::HostTensor> tensors;
  if (!checkHostMemory(runOptions, problem, *fittedSignatures, error) ||
      !makeTensors(runOptions, *fittedSignatures, problem, *binding, array,
                   tensors, error))
    return fail(error);
  if (driver)
    return runOnGPU(runOptions, *driver, driverMs, *program, **fitted,
                    programName, problem, tensors, *binding, options);
  if (runOptions.target == "auto")
    report() << "  no GPU (" << gpuLoad.message() << "): running on the CPU\n";
  return runOnCPU(runOptions, **fitted, problem, tensors, *binding, options);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  ::blk::installCrashWatchdog("softmax-run");
  // Past a file-size limit a write fails with EFBIG, which is reported like
  // any failed write, instead of the signal (whose LLVM handler prints a
  // crash report).
  std::signal(SIGXFSZ, SIG_IGN);
  RunOptions options;
  std::string error;
  int result = 1;
  if (!RunOptions::createFromCommandLine(argc, argv, options, error)) {
    result = fail(error);
  } else {
    reportToStandardError(options.reportsToStderr());
    result = run(options);
  }
  if (options.json)
    RunFacts::get().print(llvm::outs(), result == 0);
  return ::blk::finishStandardOutput("softmax-run", result);
}
