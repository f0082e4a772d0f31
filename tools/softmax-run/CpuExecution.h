//===- CpuExecution.h - run a block program on the host ---------*- C++ -*-===//
#ifndef TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
#define TOOLS_SOFTMAX_RUN_CPUEXECUTION_H

#include "Problem.h"

namespace softmax_run {

/// A program compiled for the host, run on the host tensors (laid out as on
/// the GPU: same strides, same element types). The host has no occupancy: every
/// kernel runs the binding's grid, a persistent one too.
class CpuExecution {
public:
  /// `threads`: how many run a kernel's programs (0: every core).
  CpuExecution(mlir::blk::CompiledProgram compiled, unsigned threads)
      : compiled(std::move(compiled)), threads(threads) {}

  /// Poisons the outputs and runs every kernel in order on `tensors`,
  /// which hold the inputs and receive the outputs.
  mlir::LogicalResult run(const Problem &problem,
                          std::vector<blk::runtime::HostTensor> &tensors);

  /// Median wall time of `runs` runs on `tensors`, in milliseconds; one run
  /// warms up first. Each starts, untimed, from `start` with its outputs
  /// poisoned, as run() did: the timed code has no bounds checks, and a
  /// kernel whose accesses depend on data it writes must make the accesses
  /// the checked run made (from what an earlier run left, one segfaulted).
  mlir::LogicalResult time(const Problem &problem,
                           const std::vector<blk::runtime::HostTensor> &start,
                           std::vector<blk::runtime::HostTensor> &tensors,
                           int runs, double &milliseconds);

  /// GB/s of a copy of `bytes` (read) to as many bytes (written), split
  /// over the same threads as the kernels: the host's speed limit for a
  /// kernel that moves 2 x `bytes`.
  double timeCopy(uint64_t bytes, int runs);

private:
  /// Allocates the program's scratch tensors (on the GPU, the launcher's
  /// own), once.
  blk::runtime::Status allocateScratch(int64_t rows);
  mlir::LogicalResult launchAll(const Problem &problem,
                                std::vector<blk::runtime::HostTensor> &tensors);

  mlir::blk::CompiledProgram compiled;
  unsigned threads;
  std::vector<blk::runtime::HostTensor> scratch;
  bool scratchAllocated = false;
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
