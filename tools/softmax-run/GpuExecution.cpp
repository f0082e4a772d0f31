//===- GpuExecution.cpp - run a compiled block program on the GPU ---------===//
#include "GpuExecution.h"

#include <algorithm>
#include <cstring>

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

Status GpuExecution::load(mlir::blk::CompiledProgram compiled,
                          const Problem &problem, LoadedProgram &program) {
  const std::vector<mlir::blk::CompiledKernel> &kernels = compiled.gpuKernels;
  if (Status status = driver.loadModule(kernels.front().ptx, program.module);
      !status)
    return status;
  program.grid = compiled.binding.grid;
  for (const mlir::blk::CompiledKernel &kernel : kernels) {
    blk::runtime::Kernel handle;
    if (Status status = program.module.getKernel(kernel.name, handle); !status)
      return status;
    if (kernel.ctas > target.getMaxPortableClusterCtas())
      if (Status status = handle.allowNonPortableClusterSize(); !status)
        return status;
    if (kernel.grid == mlir::blk::GridKind::persistent) {
      int blocksPerSM = 0;
      if (Status status = handle.maxActiveBlocksPerMultiprocessor(
              kernel.threads, kernel.dynamicSharedBytes, blocksPerSM);
          !status)
        return status;
      int64_t resident = int64_t(driver.device().multiprocessorCount) *
                         std::max(1, blocksPerSM);
      program.grid = std::min<int64_t>(problem.rows(), resident);
    }
    program.kernels.push_back(handle);
  }
  program.compiled = std::move(compiled);
  return Status::success();
}

Status GpuExecution::prepare(const LoadedProgram &program,
                             const Problem &problem) {
  for (const Tensor &tensor :
       getTensors(program.compiled.signatures, problem)) {
    blk::runtime::DeviceBuffer &buffer = buffers[tensor.declaration.name];
    if (buffer.size() == tensor.bytes)
      continue;
    buffer = {};
    if (Status status = driver.allocate(tensor.bytes, buffer); !status)
      return status;
  }
  std::vector<uint8_t> staged = stageInput(problem);
  return buffers[problem.input].copyFromHost(staged.data(), staged.size());
}

Status GpuExecution::launchAll(const LoadedProgram &program,
                               const Problem &problem) {
  llvm::StringMap<uint64_t> addresses;
  for (const auto &buffer : buffers)
    addresses[buffer.getKey()] = buffer.getValue().devicePointer();
  for (size_t k = 0; k < program.kernels.size(); ++k) {
    const mlir::blk::CompiledKernel &compiled = program.compiled.gpuKernels[k];
    KernelArguments arguments;
    std::string error;
    if (!KernelArguments::build(program.compiled.signatures[k], addresses,
                                problem, arguments, error))
      return Status::failure(error);
    blk::runtime::LaunchConfig config;
    // A program is a cluster of `ctas` CTAs, numbered consecutively. The
    // grid fits: the binding keeps it under the rows, an i32.
    config.grid.x = static_cast<unsigned>(program.grid * compiled.ctas);
    config.block.x = static_cast<unsigned>(compiled.threads);
    config.dynamicSharedBytes =
        static_cast<unsigned>(compiled.dynamicSharedBytes);
    if (Status status =
            program.kernels[k].launch(config, arguments.slots.data());
        !status)
      return status;
  }
  return Status::success();
}

Status GpuExecution::run(const LoadedProgram &program, const Problem &problem,
                         std::vector<uint8_t> &result) {
  if (Status status = prepare(program, problem); !status)
    return status;
  blk::runtime::DeviceBuffer &output = buffers[problem.output];
  Status poisoned =
      problem.type() == blk::runtime::ElementType::F32
          ? output.fill32(blk::runtime::poisonBits(problem.type()))
          : output.fill16(static_cast<uint16_t>(
                blk::runtime::poisonBits(problem.type())));
  if (!poisoned)
    return poisoned;
  if (Status status = launchAll(program, problem); !status)
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

Status GpuExecution::bench(const LoadedProgram &program, const Problem &problem,
                           int runs, BenchResult &result) {
  if (Status status = prepare(program, problem); !status)
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
  if (Status status = timeRuns([&] { return launchAll(program, problem); },
                               kernelTimes);
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

Status GpuExecution::describe(const LoadedProgram &program,
                              std::string &report) {
  for (size_t k = 0; k < program.kernels.size(); ++k) {
    const mlir::blk::CompiledKernel &compiled = program.compiled.gpuKernels[k];
    blk::runtime::KernelAttributes attributes;
    if (Status status = program.kernels[k].attributes(attributes); !status)
      return status;
    int blocksPerSM = 0;
    if (Status status = program.kernels[k].maxActiveBlocksPerMultiprocessor(
            compiled.threads, compiled.dynamicSharedBytes, blocksPerSM);
        !status)
      return status;
    report += "  kernel @" + compiled.name + ": " +
              std::to_string(compiled.threads) + " threads, " +
              std::to_string(attributes.registersPerThread) + " registers, " +
              std::to_string(attributes.localBytesPerThread) +
              " local (spill) bytes, " +
              std::to_string(attributes.staticSharedBytes) +
              " B static shared, occupancy " + std::to_string(blocksPerSM) +
              " CTAs/SM" +
              (compiled.ctas > 1
                   ? ", " + std::to_string(compiled.ctas) + " CTAs/program"
                   : std::string()) +
              "\n";
  }
  return Status::success();
}
