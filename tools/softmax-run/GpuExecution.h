//===- GpuExecution.h - run a compiled block program on the GPU -*- C++ -*-===//
#ifndef TOOLS_SOFTMAX_RUN_GPUEXECUTION_H
#define TOOLS_SOFTMAX_RUN_GPUEXECUTION_H

#include "Problem.h"
#include "blk/Runtime/CudaDriver.h"
#include "blk/Target/TargetInfo.h"

namespace softmax_run {

struct BenchResult {
  double kernelMs = 0;
  double kernelGBps = 0;
  double copyGBps = 0;
  int runs = 0;
};

/// A compiled program's kernels loaded on the device, with the grid they
/// are launched with.
struct LoadedProgram {
  mlir::blk::CompiledProgram compiled;
  blk::runtime::KernelModule module;
  std::vector<blk::runtime::Kernel> kernels;
  /// Programs per launch (clusters when a kernel has several CTAs).
  int64_t grid = 0;
};

class GpuExecution {
public:
  GpuExecution(blk::runtime::CudaDriver &driver,
               const mlir::blk::TargetInfo &target)
      : driver(driver), target(target) {}

  /// Loads the PTX of the program's kernels and sets the grid: the
  /// binding's, or for persistent kernels the programs the GPU keeps
  /// resident at once (SMs x programs per SM, at most one per row).
  blk::runtime::Status load(mlir::blk::CompiledProgram compiled,
                            const Problem &problem, LoadedProgram &program);

  /// Copies the input in, poisons the output, runs every kernel in order,
  /// and copies the output (rows x outStride elements) back.
  blk::runtime::Status run(const LoadedProgram &program, const Problem &problem,
                           std::vector<uint8_t> &output);

  /// Median kernel time over `runs` launches with L2 flushed before each,
  /// and a device-to-device copy of the same bytes timed the same way.
  blk::runtime::Status bench(const LoadedProgram &program,
                             const Problem &problem, int runs,
                             BenchResult &result);

  /// Registers, spills, shared memory and occupancy of each kernel.
  blk::runtime::Status describe(const LoadedProgram &program,
                                std::string &report);

private:
  /// Allocates the program's tensors (kept between calls while their sizes
  /// hold) and copies the input in.
  blk::runtime::Status prepare(const LoadedProgram &program,
                               const Problem &problem);
  blk::runtime::Status launchAll(const LoadedProgram &program,
                                 const Problem &problem);
  blk::runtime::Status flushL2();

  blk::runtime::CudaDriver &driver;
  const mlir::blk::TargetInfo &target;
  llvm::StringMap<blk::runtime::DeviceBuffer> buffers;
  blk::runtime::DeviceBuffer flush;
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_GPUEXECUTION_H
