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
  void *outPointer = output.data();
  void *inPointer = input.data();
  int32_t scalars[4] = {static_cast<int32_t>(problem.inStride),
                        static_cast<int32_t>(problem.outStride),
                        static_cast<int32_t>(problem.rows),
                        static_cast<int32_t>(problem.cols)};
  void *arguments[6] = {&outPointer, &inPointer,  &scalars[0],
                        &scalars[1], &scalars[2], &scalars[3]};
  for (const std::string &name : kernels->kernelNames())
    if (mlir::failed(kernels->run(name, arguments, grid)))
      return mlir::failure();
  return mlir::success();
}

mlir::LogicalResult CpuExecution::run(const Problem &problem, int64_t grid,
                                      std::vector<uint8_t> &result) {
  size_t elementBytes = blk::runtime::elementSize(problem.type);
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
