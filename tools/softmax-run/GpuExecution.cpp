//===- GpuExecution.cpp - softmax-run's data on the GPU -------------------===//
#include "GpuExecution.h"

#include <algorithm>

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

Status GpuExecution::prepare(const blk::runtime::GpuProgram &program,
                             const Problem &problem,
                             blk::runtime::LaunchArguments &arguments) {
  arguments = getLaunchArguments(problem);
  std::vector<Tensor> tensors;
  if (Status status = getTensors(program.image(), tensors); !status)
    return status;
  for (const Tensor &tensor : tensors) {
    // Scratch tensors are the program's own.
    if (tensor.declaration.role == blk::runtime::ArgRole::scratch)
      continue;
    blk::runtime::DeviceBuffer &buffer = buffers[tensor.declaration.name];
    if (buffer.size() != tensor.bytes) {
      buffer = {};
      if (Status status = driver.allocate(tensor.bytes, buffer); !status)
        return status;
    }
    arguments.tensor(tensor.declaration.name, buffer.devicePointer());
  }
  std::vector<uint8_t> staged = stageInput(problem);
  return buffers[problem.input].copyFromHost(staged.data(), staged.size());
}

Status GpuExecution::run(blk::runtime::GpuProgram &program,
                         const Problem &problem, std::vector<uint8_t> &result) {
  blk::runtime::LaunchArguments arguments(0, 0);
  if (Status status = prepare(program, problem, arguments); !status)
    return status;
  blk::runtime::DeviceBuffer &output = buffers[problem.output];
  Status poisoned =
      problem.type() == blk::runtime::ElementType::F32
          ? output.fill32(blk::runtime::poisonBits(problem.type()))
          : output.fill16(static_cast<uint16_t>(
                blk::runtime::poisonBits(problem.type())));
  if (!poisoned)
    return poisoned;
  if (Status status = program.launch(arguments); !status)
    return status;
  if (Status status = driver.synchronize(); !status)
    return status;
  result.resize(output.size());
  return output.copyToHost(result.data(), result.size());
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
                           const Problem &problem, int runs,
                           BenchResult &result) {
  blk::runtime::LaunchArguments arguments(0, 0);
  if (Status status = prepare(program, problem, arguments); !status)
    return status;
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
  size_t bytes = problem.rows() * problem.cols() *
                 blk::runtime::elementSize(problem.type());
  blk::runtime::DeviceBuffer &input = buffers[problem.input];
  blk::runtime::DeviceBuffer &output = buffers[problem.output];
  if (Status status = timeRuns(
          [&] {
            return output.copyFromDevice(input, std::min(bytes, output.size()));
          },
          copyTimes);
      !status)
    return status;

  result.runs = runs;
  result.kernelMs = median(kernelTimes);
  double copyMs = median(copyTimes);
  result.kernelGBps = 2.0 * bytes / (result.kernelMs * 1e6);
  result.copyGBps = 2.0 * bytes / (copyMs * 1e6);
  return Status::success();
}
