//===- CpuExecution.cpp - run a block program on the host -----------------===//
#include "CpuExecution.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace softmax_run;

mlir::LogicalResult CpuExecution::compile(mlir::ModuleOp specialized) {
  auto compiled = mlir::blk::CPUKernels::compile(specialized);
  if (mlir::failed(compiled))
    return mlir::failure();
  kernels = std::move(*compiled);
  return mlir::success();
}

mlir::LogicalResult CpuExecution::launchAll(const Problem &problem,
                                            int64_t grid) {
  auto address = [](std::vector<uint8_t> &buffer) {
    return reinterpret_cast<uint64_t>(buffer.data());
  };
  std::vector<uint64_t> scratchPointers;
  for (std::vector<uint8_t> &buffer : scratch)
    scratchPointers.push_back(address(buffer));
  KernelArguments arguments(address(output), address(input), problem,
                            scratchPointers);
  for (const std::string &name : kernels->kernelNames())
    if (mlir::failed(kernels->run(name, arguments.slots, grid)))
      return mlir::failure();
  return mlir::success();
}

mlir::LogicalResult CpuExecution::run(const Problem &problem,
                                      const KernelABI &abi, int64_t grid,
                                      std::vector<uint8_t> &result) {
  size_t elementBytes = blk::runtime::elementSize(problem.type);
  scratch.clear();
  for (size_t i = 0; i < abi.scratchKinds.size(); ++i)
    scratch.emplace_back(abi.scratchBytes(i, problem));
  input = stageInput(problem);
  output.assign(problem.rows * problem.outStride * elementBytes, 0);
  uint32_t poison = blk::runtime::poisonBits(problem.type);
  for (size_t i = 0; i < output.size(); i += elementBytes)
    std::memcpy(&output[i], &poison, elementBytes);
  if (mlir::failed(launchAll(problem, grid)))
    return mlir::failure();
  result = output;
  return mlir::success();
}

mlir::LogicalResult CpuExecution::time(const Problem &problem, int64_t grid,
                                       int runs, double &milliseconds) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (mlir::failed(launchAll(problem, grid)))
      return mlir::failure();
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  milliseconds = times[times.size() / 2];
  return mlir::success();
}
