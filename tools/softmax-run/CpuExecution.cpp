//===- CpuExecution.cpp - run a block program on the host -----------------===//
#include "CpuExecution.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace softmax_run;
using blk::runtime::Status;

Status CpuExecution::load(mlir::blk::CompiledProgram compiled,
                          unsigned threads,
                          std::unique_ptr<CpuExecution> &execution) {
  std::unique_ptr<blk::CpuProgram> program;
  if (Status status = blk::CpuProgram::load(std::move(compiled.image), program);
      !status)
    return status;
  execution.reset(new CpuExecution(std::move(program), threads));
  return Status::success();
}

Status softmax_run::buildOnCPU(mlir::ModuleOp fitted, const Problem &problem,
                               const mlir::blk::CompileOptions &options,
                               const Specialization &binding, unsigned threads,
                               std::unique_ptr<CpuExecution> &execution,
                               mlir::blk::CompileTimes &times, double &loadMs) {
  auto compiled = mlir::blk::compileProgram(fitted, problem.desc, binding,
                                            options,
                                            mlir::blk::HostCode::objectOnly);
  if (mlir::failed(compiled))
    return Status::failure("compilation failed (see the errors above)");
  times = compiled->times;
  auto start = std::chrono::steady_clock::now();
  Status status = CpuExecution::load(std::move(*compiled), threads, execution);
  loadMs = std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
               .count();
  return status;
}

Status CpuExecution::launchAll(const Problem &problem,
                               std::vector<blk::runtime::HostTensor> &tensors) {
  blk::runtime::LaunchArguments arguments = getLaunchArguments(problem);
  for (blk::runtime::HostTensor &tensor : tensors)
    arguments.tensor(tensor.getName(), tensor.getBytes().data());
  return program->run(arguments, threads);
}

static void poisonOutputs(std::vector<blk::runtime::HostTensor> &tensors) {
  for (blk::runtime::HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == blk::runtime::ArgRole::output)
      tensor.poison();
}

Status CpuExecution::run(const Problem &problem,
                         std::vector<blk::runtime::HostTensor> &tensors) {
  poisonOutputs(tensors);
  return launchAll(problem, tensors);
}

/// The median of `runs` timings of `step`, in milliseconds, after one run
/// that warms up; `prepare` runs, untimed, before each.
static double medianMilliseconds(int runs, llvm::function_ref<bool()> step,
                                 llvm::function_ref<void()> prepare = [] {}) {
  std::vector<double> times;
  prepare();
  if (!step())
    return -1;
  for (int i = 0; i < runs; ++i) {
    prepare();
    auto start = std::chrono::steady_clock::now();
    if (!step())
      return -1;
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

double CpuExecution::timeCopy(uint64_t bytes, int runs) {
  unsigned workers = mlir::blk::CPUKernels::getThreads(threads, 1 << 30);
  std::vector<uint8_t> source(bytes, 1), target(bytes, 0);
  llvm::StdThreadPool pool(llvm::hardware_concurrency(workers));
  auto copyPart = [&](uint64_t part) {
    uint64_t begin = bytes * part / workers, end = bytes * (part + 1) / workers;
    std::memcpy(target.data() + begin, source.data() + begin, end - begin);
  };
  double milliseconds = medianMilliseconds(runs, [&] {
    for (unsigned part = 1; part < workers; ++part)
      pool.async([&copyPart, part] { copyPart(part); });
    copyPart(0);
    pool.wait();
    return true;
  });
  return 2.0 * double(bytes) / (milliseconds * 1e6);
}

Status CpuExecution::time(const Problem &problem,
                          const std::vector<blk::runtime::HostTensor> &start,
                          std::vector<blk::runtime::HostTensor> &tensors,
                          int runs, double &milliseconds) {
  Status failure = Status::success();
  milliseconds = medianMilliseconds(
      runs,
      [&] {
        failure = launchAll(problem, tensors);
        return bool(failure);
      },
      [&] {
        for (size_t i = 0; i < tensors.size(); ++i)
          tensors[i].getBytes() = start[i].getBytes();
        poisonOutputs(tensors);
      });
  return failure;
}
