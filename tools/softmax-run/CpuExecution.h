//===- CpuExecution.h - run a block program on the host ---------*- C++ -*-===//
#ifndef TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
#define TOOLS_SOFTMAX_RUN_CPUEXECUTION_H

#include "Problem.h"

#include "blk/Driver/CpuProgram.h"

#include <memory>

namespace softmax_run {

/// What softmax-run adds to blk::CpuProgram (the launcher embedders use):
/// poisoned outputs, timed runs that start from the same data, and the
/// host's copy speed. The host tensors are laid out as on the GPU (same
/// strides, same element types); the host has no occupancy: every kernel
/// runs the binding's grid, a persistent one too.
class CpuExecution {
public:
  /// Links `compiled` (compiled for the CPU, HostCode::objectOnly) into
  /// this process. `threads`: how many run a kernel's programs (0: every
  /// core).
  static blk::runtime::Status load(mlir::blk::CompiledProgram compiled,
                                   unsigned threads,
                                   std::unique_ptr<CpuExecution> &execution);

  /// Poisons the outputs and runs every kernel in order on `tensors`,
  /// which hold the inputs and receive the outputs. A failure (an access
  /// out of bounds, named with its location) is the Status.
  blk::runtime::Status run(const Problem &problem,
                           std::vector<blk::runtime::HostTensor> &tensors);

  /// Median wall time of `runs` runs on `tensors`, in milliseconds; one run
  /// warms up first. Each starts, untimed, from `start` with its outputs
  /// poisoned, as run() did: the timed code has no bounds checks, and a
  /// kernel whose accesses depend on data it writes must make the accesses
  /// the checked run made (from what an earlier run left, one segfaulted).
  blk::runtime::Status time(const Problem &problem,
                            const std::vector<blk::runtime::HostTensor> &start,
                            std::vector<blk::runtime::HostTensor> &tensors,
                            int runs, double &milliseconds);

  /// GB/s of a copy of `bytes` (read) to as many bytes (written), split
  /// over the same threads as the kernels: the host's speed limit for a
  /// kernel that moves 2 x `bytes`.
  double timeCopy(uint64_t bytes, int runs);

  const blk::runtime::ProgramImage &image() const { return program->image(); }

private:
  CpuExecution(std::unique_ptr<blk::CpuProgram> program, unsigned threads)
      : program(std::move(program)), threads(threads) {}
  /// Runs every kernel on `tensors` (scratch is the CpuProgram's own).
  blk::runtime::Status launchAll(const Problem &problem,
                                 std::vector<blk::runtime::HostTensor> &tensors);

  std::unique_ptr<blk::CpuProgram> program;
  unsigned threads;
};

/// Compiles one binding of the fitted program for the CPU (or takes it
/// from the cache) and links it: `times` and `loadMs` say how long each
/// took.
blk::runtime::Status buildOnCPU(mlir::ModuleOp fitted, const Problem &problem,
                                const mlir::blk::CompileOptions &options,
                                const Specialization &binding,
                                unsigned threads,
                                std::unique_ptr<CpuExecution> &execution,
                                mlir::blk::CompileTimes &times,
                                double &loadMs);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_CPUEXECUTION_H
