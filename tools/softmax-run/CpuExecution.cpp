//===- CpuExecution.cpp - run a block program on the host -----------------===//
#include "CpuExecution.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace softmax_run;

mlir::LogicalResult CpuExecution::launchAll(const Problem &problem) {
  blk::runtime::LaunchArguments arguments = getLaunchArguments(problem);
  std::vector<mlir::blk::CPUKernels::Buffer> extents;
  for (auto &buffer : buffers) {
    arguments.tensor(buffer.getKey().str(), buffer.getValue().data());
    extents.push_back({buffer.getValue().data(), buffer.getValue().size(),
                       buffer.getKey().str()});
  }
  // What bounds-checked code may touch (ignored by unchecked code).
  compiled.cpuKernels->setBuffers(std::move(extents));
  blk::runtime::PackedArguments packed;
  for (const mlir::blk::KernelSignature &signature :
       compiled.getSignatures()) {
    if (blk::runtime::Status status =
            blk::runtime::packArguments(signature, arguments, packed);
        !status) {
      llvm::errs() << "softmax-run: " << status.message() << "\n";
      return mlir::failure();
    }
    if (mlir::failed(compiled.cpuKernels->run(signature.name, packed.slots,
                                              compiled.binding.grid, threads)))
      return mlir::failure();
  }
  return mlir::success();
}

mlir::LogicalResult CpuExecution::run(const Problem &problem,
                                      std::vector<uint8_t> &result) {
  buffers.clear();
  std::vector<Tensor> tensors;
  if (blk::runtime::Status status = getTensors(compiled.image, tensors);
      !status) {
    llvm::errs() << "softmax-run: " << status.message() << "\n";
    return mlir::failure();
  }
  for (const Tensor &tensor : tensors)
    buffers[tensor.declaration.name].assign(tensor.bytes, 0);
  buffers[problem.input] = stageInput(problem);
  std::vector<uint8_t> &output = buffers[problem.output];
  size_t elementBytes = blk::runtime::elementSize(problem.type());
  uint32_t poison = blk::runtime::poisonBits(problem.type());
  for (size_t i = 0; i < output.size(); i += elementBytes)
    std::memcpy(&output[i], &poison, elementBytes);
  if (mlir::failed(launchAll(problem)))
    return mlir::failure();
  result = buffers[problem.output];
  return mlir::success();
}

mlir::LogicalResult CpuExecution::time(const Problem &problem, int runs,
                                       double &milliseconds) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (mlir::failed(launchAll(problem)))
      return mlir::failure();
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  milliseconds = times[times.size() / 2];
  return mlir::success();
}
