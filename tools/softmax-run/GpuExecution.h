//===- GpuExecution.h - softmax-run's data on the GPU ------------*- C++ -*-===//
//
// What softmax-run adds to the runtime's launcher (blk/Runtime/GpuProgram.h):
// its own input and output buffers, the poisoned output, timing against a
// copy of the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_GPUEXECUTION_H
#define TOOLS_SOFTMAX_RUN_GPUEXECUTION_H

#include "Problem.h"
#include "blk/Runtime/CudaDriver.h"
#include "blk/Runtime/GpuProgram.h"

#include <memory>

namespace softmax_run {

struct BenchResult {
  double kernelMs = 0;
  double kernelGBps = 0;
  double copyGBps = 0;
  int runs = 0;
};

class GpuExecution {
public:
  explicit GpuExecution(blk::runtime::CudaDriver &driver) : driver(driver) {}

  /// Copies the input in, poisons the output, launches the program and
  /// copies the output (rows x outStride elements) back.
  blk::runtime::Status run(blk::runtime::GpuProgram &program,
                           const Problem &problem,
                           std::vector<uint8_t> &output);

  /// Median time of `runs` launches with L2 flushed before each, and of a
  /// device-to-device copy of the same bytes timed the same way.
  blk::runtime::Status bench(blk::runtime::GpuProgram &program,
                             const Problem &problem, int runs,
                             BenchResult &result);

private:
  /// Allocates the problem's input and output (kept between calls while
  /// their sizes hold), copies the input in, and returns the launch
  /// arguments on them.
  blk::runtime::Status prepare(const blk::runtime::GpuProgram &program,
                               const Problem &problem,
                               blk::runtime::LaunchArguments &arguments);
  blk::runtime::Status flushL2();

  blk::runtime::CudaDriver &driver;
  llvm::StringMap<blk::runtime::DeviceBuffer> buffers;
  blk::runtime::DeviceBuffer flush;
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_GPUEXECUTION_H
