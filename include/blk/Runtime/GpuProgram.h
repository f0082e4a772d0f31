//===- GpuProgram.h - launch a compiled program on the caller's memory -*- C++ -*-===//
//
// The runtime API for embedding: a program compiled for one problem
// (ProgramImage, from the compile driver or the kernel cache) is loaded
// once, then launched on device memory the caller owns, on the caller's
// stream. Scratch tensors, clusters and the resident grid of persistent
// kernels are handled here. No MLIR and no LLVM: this header needs only
// the runtime.
//
//   std::unique_ptr<GpuProgram> softmax;
//   if (Status s = GpuProgram::load(*cuda, image, softmax); !s) ...
//   LaunchArguments arguments(rows, cols);
//   arguments.tensor("x", x).tensor("y", y);
//   if (Status s = softmax->launch(arguments, stream); !s) ...
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_GPUPROGRAM_H
#define BLK_RUNTIME_GPUPROGRAM_H

#include "blk/Runtime/CudaDriver.h"
#include "blk/Runtime/Launch.h"
#include "blk/Runtime/Program.h"

#include <memory>

namespace blk::runtime {

class GpuProgram {
public:
  /// Loads the image's PTX on the driver's device (which must outlive the
  /// program) and sets each kernel's grid: the image's, or for a persistent
  /// kernel the programs the GPU keeps resident at once (SMs x programs per
  /// SM, at most one per row), and allocates the program's scratch tensors.
  /// Fails on a grid no launch can have.
  static Status load(const CudaDriver &driver, ProgramImage image,
                     std::unique_ptr<GpuProgram> &program);

  /// Enqueues every kernel, in order, on `stream` (null: the default
  /// stream). The arguments must have the shape the program was compiled
  /// for; scratch tensors are the program's own, so launches of one
  /// GpuProgram must not run concurrently.
  /// Returns once the launches are enqueued; faults surface when the
  /// stream is synchronized.
  Status launch(const LaunchArguments &arguments, CUstream stream = nullptr);

  const ProgramImage &image() const { return programImage; }
  /// Programs per launch of kernel `k`.
  int64_t getGrid(size_t k) const { return kernelGrids[k]; }

  /// Registers, spills, shared memory and occupancy of each kernel, a line
  /// each.
  Status describe(std::string &report) const;

private:
  GpuProgram(const CudaDriver &driver, ProgramImage image)
      : driver(driver), programImage(std::move(image)) {}
  Status allocateScratch();

  const CudaDriver &driver;
  ProgramImage programImage;
  KernelModule module;
  std::vector<Kernel> kernels;
  std::vector<int64_t> kernelGrids;
  std::vector<std::pair<std::string, DeviceBuffer>> scratch;
};

} // namespace blk::runtime

#endif // BLK_RUNTIME_GPUPROGRAM_H
