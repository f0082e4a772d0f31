//===- GpuExecution.h - softmax-run's data on the GPU ------------*- C++ -*-===//
//
// What softmax-run adds to the runtime's launcher (blk/Runtime/GpuProgram.h):
// device buffers for the program's host tensors, poisoned outputs, timing
// against a copy of the same bytes.
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

  /// Copies the inputs in and the outputs, poisoned, too; launches the
  /// program and copies the outputs back into `tensors`.
  blk::runtime::Status run(blk::runtime::GpuProgram &program,
                           const Problem &problem,
                           std::vector<blk::runtime::HostTensor> &tensors);

  /// Median time of `runs` launches with L2 flushed before each, and of a
  /// device-to-device copy of the bytes the kernels move, timed the same
  /// way.
  blk::runtime::Status bench(blk::runtime::GpuProgram &program,
                             const Problem &problem,
                             const std::vector<blk::runtime::HostTensor> &tensors,
                             int runs, BenchResult &result);

private:
  /// Gives every tensor a device buffer (kept between calls while its size
  /// holds), copies the host bytes in, and returns the launch arguments on
  /// the buffers.
  blk::runtime::Status
  prepare(const Problem &problem,
          const std::vector<blk::runtime::HostTensor> &tensors,
          blk::runtime::LaunchArguments &arguments);
  blk::runtime::Status flushL2();

  blk::runtime::CudaDriver &driver;
  llvm::StringMap<blk::runtime::DeviceBuffer> buffers;
  blk::runtime::DeviceBuffer flush, copySource, copyTarget;
};

/// A compiled program loaded on the GPU.
struct LoadedProgram {
  std::unique_ptr<blk::runtime::GpuProgram> program;
  mlir::blk::CompileTimes times;
  /// Milliseconds to load the PTX (the driver's JIT).
  double loadMs = 0;
};

/// Compiles one binding of the fitted program (or takes it from the
/// cache) and loads it.
blk::runtime::Status buildOnGPU(blk::runtime::CudaDriver &driver,
                                mlir::ModuleOp fitted, const Problem &problem,
                                const mlir::blk::CompileOptions &options,
                                const Specialization &binding,
                                LoadedProgram &loaded);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_GPUEXECUTION_H
