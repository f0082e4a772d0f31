//===- CpuExecution.cpp - run a block program on the host -----------------===//
#include "CpuExecution.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace softmax_run;

blk::runtime::Status CpuExecution::allocateScratch(int64_t rows) {
  if (scratchAllocated)
    return blk::runtime::Status::success();
  scratchAllocated = true;
  return blk::runtime::createHostTensors(
      compiled.getSignatures(), compiled.image.shapes.withRows(rows), scratch,
      blk::runtime::TensorGroup::scratch);
}

mlir::LogicalResult
CpuExecution::launchAll(const Problem &problem,
                        std::vector<blk::runtime::HostTensor> &tensors) {
  blk::runtime::LaunchArguments arguments = getLaunchArguments(problem);
  if (blk::runtime::Status status = allocateScratch(arguments.rows());
      !status) {
    llvm::errs() << "softmax-run: " << status.message() << "\n";
    return mlir::failure();
  }
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
    if (mlir::failed(compiled.cpuKernels->run(
            signature.name, packed.slots,
            compiled.image.getGrid(arguments.rows()), threads)))
      return mlir::failure();
  }
  return mlir::success();
}

static void poisonOutputs(std::vector<blk::runtime::HostTensor> &tensors) {
  for (blk::runtime::HostTensor &tensor : tensors)
    if (tensor.getDeclaration().role == blk::runtime::ArgRole::output)
      tensor.poison();
}

mlir::LogicalResult
CpuExecution::run(const Problem &problem,
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

mlir::LogicalResult
CpuExecution::time(const Problem &problem,
                   const std::vector<blk::runtime::HostTensor> &start,
                   std::vector<blk::runtime::HostTensor> &tensors, int runs,
                   double &milliseconds) {
  milliseconds = medianMilliseconds(
      runs, [&] { return mlir::succeeded(launchAll(problem, tensors)); },
      [&] {
        for (size_t i = 0; i < tensors.size(); ++i)
          tensors[i].getBytes() = start[i].getBytes();
        poisonOutputs(tensors);
      });
  return mlir::failure(milliseconds < 0);
}
