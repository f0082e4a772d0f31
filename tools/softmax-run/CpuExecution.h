//===- CpuExecution.h - run a block program on the host ---------*- C++ -*-===//
#ifndef TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
#define TOOLS_SOFTMAX_RUN_CPUEXECUTION_H

#include "Problem.h"

namespace softmax_run {

/// A program compiled for the host, run on buffers laid out as on the GPU
/// (same strides, same element type). The host has no occupancy: every
/// kernel runs the binding's grid, a persistent one too.
class CpuExecution {
public:
  /// `threads`: how many run a kernel's programs (0: every core).
  CpuExecution(mlir::blk::CompiledProgram compiled, unsigned threads)
      : compiled(std::move(compiled)), threads(threads) {}

  /// Poisons the output, runs every kernel in order and returns the output
  /// (rows x outStride elements).
  mlir::LogicalResult run(const Problem &problem, std::vector<uint8_t> &output);

  /// Median wall time of `runs` runs, in milliseconds, on the buffers of
  /// the last run() (which must come first).
  mlir::LogicalResult time(const Problem &problem, int runs,
                           double &milliseconds);

private:
  mlir::LogicalResult launchAll(const Problem &problem);

  mlir::blk::CompiledProgram compiled;
  unsigned threads;
  llvm::StringMap<std::vector<uint8_t>> buffers;
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
