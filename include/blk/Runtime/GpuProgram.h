//===- GpuProgram.h - launch a compiled program on the caller's memory -*- C++
//-*-===//
//
// The runtime API for embedding: a program compiled for one class of
// problems (ProgramImage, from the compile driver or the kernel cache) is
// loaded once, then launched on device memory the caller owns, on the
// caller's stream, for any row count the class serves. Scratch tensors,
// clusters and the resident grid of persistent kernels are handled here. No
// MLIR and no LLVM: this header needs only the runtime.
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
  /// program) and asks the driver how many programs of each persistent
  /// kernel the GPU keeps resident at once (SMs x programs per SM). Fails
  /// where programs that wait for each other cannot all be resident.
  static Status load(const CudaDriver &driver, ProgramImage image,
                     std::unique_ptr<GpuProgram> &program);

  /// Enqueues every kernel, in order, on `stream` (null: the default
  /// stream), for the arguments' rows (any count the image's ShapeClass
  /// serves). Scratch tensors are the program's own, sized for the most
  /// rows launched so far (a launch of more synchronizes the device and
  /// allocates them again), so launches of one GpuProgram must not run
  /// concurrently.
  /// Returns once the launches are enqueued; faults surface when the
  /// stream is synchronized.
  Status launch(const LaunchArguments &arguments, CUstream stream = nullptr);

  const ProgramImage &image() const { return programImage; }
  /// Programs a launch of `rows` rows gives kernel `k`: the image's grid,
  /// or for a persistent kernel at most the programs the GPU keeps
  /// resident. Fails on a grid no launch can have.
  Status getGrid(size_t k, int64_t rows, int64_t &grid) const;

  /// Registers, spills, shared memory and occupancy of each kernel, a line
  /// each.
  Status describe(std::string &report) const;

private:
  GpuProgram(const CudaDriver &driver, ProgramImage image)
      : driver(driver), programImage(std::move(image)) {}
  /// Scratch tensors for `rows` rows, allocated again only for more rows
  /// than before.
  Status fitScratch(int64_t rows);

  const CudaDriver &driver;
  ProgramImage programImage;
  KernelModule module;
  std::vector<Kernel> kernels;
  /// Per kernel: the programs the GPU keeps resident (persistent kernels),
  /// else 0.
  std::vector<int64_t> residentLimits;
  std::vector<std::pair<std::string, DeviceBuffer>> scratch;
  int64_t scratchRows = 0;
};

} // namespace blk::runtime

#endif // BLK_RUNTIME_GPUPROGRAM_H
