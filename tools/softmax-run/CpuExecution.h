//===- CpuExecution.h - run a block program on the host ---------*- C++ -*-===//
#ifndef TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
#define TOOLS_SOFTMAX_RUN_CPUEXECUTION_H

#include "Problem.h"
#include "blk/Target/CPU.h"

namespace softmax_run {

/// The kernels of a fitted, specialized program JIT-compiled for the host,
/// run on buffers laid out as on the GPU (same strides, same element type).
class CpuExecution {
public:
  /// Compiles `specialized`; diagnostics go to its context.
  mlir::LogicalResult compile(mlir::ModuleOp specialized);

  /// Poisons the output, runs every kernel in order over `grid` programs
  /// and returns the output (rows x outStride elements).
  mlir::LogicalResult run(const Problem &problem, const KernelABI &abi,
                          int64_t grid, std::vector<uint8_t> &output);

  /// Median wall time of `runs` runs, in milliseconds.
  mlir::LogicalResult time(const Problem &problem, int64_t grid, int runs,
                           double &milliseconds);

private:
  mlir::LogicalResult launchAll(const Problem &problem, int64_t grid);

  std::unique_ptr<mlir::blk::CPUKernels> kernels;
  std::vector<uint8_t> input, output;
  std::vector<std::vector<uint8_t>> scratch;
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
