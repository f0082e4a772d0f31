//===- GpuExecution.cpp - softmax-run's data on the GPU -------------------===//
#include "GpuExecution.h"

#include "Report.h"

#include <algorithm>
#include <chrono>

using namespace softmax_run;
using blk::runtime::Status;

namespace {

double median(std::vector<float> values) {
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle]
                           : 0.5 * (values[middle - 1] + values[middle]);
}

} // namespace

Status GpuExecution::prepare(const Problem &problem,
                             const std::vector<blk::runtime::HostTensor> &tensors,
                             blk::runtime::LaunchArguments &arguments) {
  arguments = getLaunchArguments(problem);
  for (const blk::runtime::HostTensor &tensor : tensors) {
    const std::vector<uint8_t> &bytes = tensor.getBytes();
    blk::runtime::DeviceBuffer &buffer = buffers[tensor.getName()];
    if (buffer.size() != bytes.size()) {
      buffer = {};
      if (Status status = driver.allocate(bytes.size(), buffer); !status)
        return status;
    }
    if (Status status = buffer.copyFromHost(bytes.data(), bytes.size());
        !status)
      return status;
    arguments.tensor(tensor.getName(), buffer.devicePointer());
  }
  return Status::success();
}

Status GpuExecution::run(blk::runtime::GpuProgram &program,
                         const Problem &problem,
                         std::vector<blk::runtime::HostTensor> &tensors) {
  for (blk::runtime::HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == blk::runtime::ArgRole::output)
      tensor.poison();
  blk::runtime::LaunchArguments arguments(0, 0);
  if (Status status = prepare(problem, tensors, arguments); !status)
    return status;
  if (Status status = program.launch(arguments); !status)
    return status;
  if (Status status = driver.synchronize(); !status)
    return status;
  for (blk::runtime::HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == blk::runtime::ArgRole::output)
      if (Status status = buffers[tensor.getName()].copyToHost(
              tensor.getBytes().data(), tensor.getBytes().size());
          !status)
        return status;
  return Status::success();
}

Status GpuExecution::flushL2() {
  if (!flush.size()) {
    size_t bytes = 2 * std::max(driver.device().l2CacheBytes, 1 << 22);
    if (Status status = driver.allocate(bytes, flush); !status)
      return status;
  }
  return flush.fillBytes(0);
}

Status GpuExecution::bench(blk::runtime::GpuProgram &program,
                           const Problem &problem,
                           const std::vector<blk::runtime::HostTensor> &tensors,
                           int runs, BenchResult &result) {
  blk::runtime::LaunchArguments arguments(0, 0);
  if (Status status = prepare(problem, tensors, arguments); !status)
    return status;
  // The copy reads half the bytes the kernels move and writes the other
  // half.
  uint64_t moved = getMovedBytes(tensors);
  size_t copyBytes = std::max<uint64_t>(moved / 2, 1);
  for (blk::runtime::DeviceBuffer *buffer : {&copySource, &copyTarget})
    if (buffer->size() != copyBytes) {
      *buffer = {};
      if (Status status = driver.allocate(copyBytes, *buffer); !status)
        return status;
    }
  blk::runtime::EventTimer timer;
  if (Status status = driver.createTimer(timer); !status)
    return status;
  auto timeRuns = [&](auto &&work, std::vector<float> &times) -> Status {
    for (int i = 0; i < 3; ++i) // warm-up
      if (Status status = work(); !status)
        return status;
    for (int i = 0; i < runs; ++i) {
      float ms = 0;
      if (Status status = flushL2(); !status)
        return status;
      if (Status status = timer.start(); !status)
        return status;
      if (Status status = work(); !status)
        return status;
      if (Status status = timer.stop(ms); !status)
        return status;
      times.push_back(ms);
    }
    return Status::success();
  };

  std::vector<float> kernelTimes, copyTimes;
  if (Status status =
          timeRuns([&] { return program.launch(arguments); }, kernelTimes);
      !status)
    return status;
  if (Status status = timeRuns(
          [&] { return copyTarget.copyFromDevice(copySource, copyBytes); },
          copyTimes);
      !status)
    return status;

  result.runs = runs;
  result.kernelMs = median(kernelTimes);
  double copyMs = median(copyTimes);
  result.kernelGBps = double(moved) / (result.kernelMs * 1e6);
  result.copyGBps = 2.0 * double(copyBytes) / (copyMs * 1e6);
  return Status::success();
}

Status softmax_run::buildOnGPU(blk::runtime::CudaDriver &driver, mlir::ModuleOp fitted,
                  const Problem &problem,
                  const mlir::blk::CompileOptions &options,
                  const Specialization &binding, LoadedProgram &loaded) {
  auto compiled =
      mlir::blk::compileProgram(fitted, problem.desc, binding, options);
  if (mlir::failed(compiled))
    return Status::failure("compilation failed (see the errors above)");
  loaded.times = compiled->times;
  auto start = std::chrono::steady_clock::now();
  Status status = blk::runtime::GpuProgram::load(
      driver, std::move(compiled->image), loaded.program);
  loaded.loadMs = millisecondsSince(start);
  return status;
}
