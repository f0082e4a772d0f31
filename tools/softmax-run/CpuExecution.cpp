//===- CpuExecution.cpp - run a block program on the host -----------------===//
#include "CpuExecution.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace softmax_run;

blk::runtime::Status CpuExecution::allocateScratch() {
  if (scratchAllocated)
    return blk::runtime::Status::success();
  scratchAllocated = true;
  for (const mlir::blk::KernelSignature &signature : compiled.getSignatures())
    for (const mlir::blk::KernelArgument &argument : signature.arguments) {
      if (argument.role != blk::runtime::ArgRole::scratch ||
          blk::runtime::findTensor(scratch, argument.name))
        continue;
      scratch.emplace_back();
      if (blk::runtime::Status status = blk::runtime::HostTensor::create(
              argument, compiled.image.shape, scratch.back());
          !status)
        return status;
    }
  return blk::runtime::Status::success();
}

mlir::LogicalResult
CpuExecution::launchAll(const Problem &problem,
                        std::vector<blk::runtime::HostTensor> &tensors) {
  if (blk::runtime::Status status = allocateScratch(); !status) {
    llvm::errs() << "softmax-run: " << status.message() << "\n";
    return mlir::failure();
  }
  blk::runtime::LaunchArguments arguments = getLaunchArguments(problem);
  std::vector<mlir::blk::CPUKernels::Buffer> extents;
  for (auto *group : {&tensors, &scratch})
    for (blk::runtime::HostTensor &tensor : *group) {
      std::vector<uint8_t> &bytes = tensor.getBytes();
      arguments.tensor(tensor.getName(), bytes.data());
      extents.push_back({bytes.data(), bytes.size(), tensor.getName()});
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

mlir::LogicalResult
CpuExecution::run(const Problem &problem,
                  std::vector<blk::runtime::HostTensor> &tensors) {
  for (blk::runtime::HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == blk::runtime::ArgRole::output)
      tensor.poison();
  return launchAll(problem, tensors);
}

mlir::LogicalResult
CpuExecution::time(const Problem &problem,
                   std::vector<blk::runtime::HostTensor> &tensors, int runs,
                   double &milliseconds) {
  if (mlir::failed(launchAll(problem, tensors)))
    return mlir::failure();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (mlir::failed(launchAll(problem, tensors)))
      return mlir::failure();
    std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    times.push_back(elapsed.count());
  }
  std::sort(times.begin(), times.end());
  milliseconds = times[times.size() / 2];
  return mlir::success();
}
