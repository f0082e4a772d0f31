//===- GpuExecution.h - run a compiled block program on the GPU -*- C++ -*-===//
#ifndef TOOLS_SOFTMAX_RUN_GPUEXECUTION_H
#define TOOLS_SOFTMAX_RUN_GPUEXECUTION_H

#include "Problem.h"
#include "blk/Runtime/CudaDriver.h"
#include "blk/Target/PTX.h"

namespace softmax_run {

struct BenchResult {
  double kernelMs = 0;
  double kernelGBps = 0;
  double copyGBps = 0;
  int runs = 0;
};

/// Kernels compiled for one specialization, loaded on the device.
struct LoadedProgram {
  std::vector<mlir::blk::CompiledKernel> compiled;
  blk::runtime::KernelModule module;
  std::vector<blk::runtime::Kernel> kernels;
};

class GpuExecution {
public:
  explicit GpuExecution(blk::runtime::CudaDriver &driver) : driver(driver) {}

  /// Loads the PTX of the program's kernels.
  blk::runtime::Status load(std::vector<mlir::blk::CompiledKernel> compiled,
                            LoadedProgram &program);

  /// Copies the input in, poisons the output, runs every kernel in order,
  /// and copies the output (rows x outStride elements) back.
  blk::runtime::Status run(const LoadedProgram &program,
                           const Specialization &specialization,
                           const Problem &problem, const KernelABI &abi,
                           std::vector<uint8_t> &output);

  /// Median kernel time over `runs` launches with L2 flushed before each,
  /// and a device-to-device copy of the same bytes timed the same way.
  blk::runtime::Status bench(const LoadedProgram &program,
                             const Specialization &specialization,
                             const Problem &problem, const KernelABI &abi,
                             int runs, BenchResult &result);

  /// For persistent kernels, the grid the GPU keeps resident at once:
  /// SMs x programs per SM, at most one program per row.
  blk::runtime::Status fitGrid(const LoadedProgram &program,
                               const Problem &problem,
                               Specialization &specialization);

  /// Registers, spills, shared memory and occupancy of each kernel.
  blk::runtime::Status describe(const LoadedProgram &program,
                                std::string &report);

private:
  /// Allocates and fills the input, output and scratch buffers.
  blk::runtime::Status prepare(const Problem &problem, const KernelABI &abi);
  blk::runtime::Status launchAll(const LoadedProgram &program,
                                 const Specialization &specialization,
                                 const Problem &problem);
  blk::runtime::Status flushL2();

  blk::runtime::CudaDriver &driver;
  blk::runtime::DeviceBuffer input, output, flush;
  std::vector<blk::runtime::DeviceBuffer> scratch;
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_GPUEXECUTION_H
