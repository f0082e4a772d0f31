//===- embed_softmax.cpp - the compiler embedded in a C++ program ---------===//
//
// An out-of-tree program that links the installed compiler (find_package(
// Blk), see CMakeLists.txt beside it) and uses only its MLIR-free API:
// compile a softmax for one shape (blk/Driver/Compiler.h; a second run takes
// it from the kernel cache), launch it on device memory this program owns,
// on a stream this program created (blk/Runtime/GpuProgram.h), and check
// the result against a float64 reference.
//
//   embed-softmax ROWS COLS [CHIP]
//
// Without a GPU it compiles (for CHIP, default sm_90), says so and exits 0.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Compiler.h"
#include "blk/Runtime/CudaDriver.h"
#include "blk/Runtime/GpuProgram.h"
#include "blk/Runtime/Numerics.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using blk::runtime::Status;

static int fail(const Status &status) {
  std::fprintf(stderr, "embed-softmax: %s\n", status.message().c_str());
  return 1;
}

/// A positive decimal count, all of `text`, at most `limit`.
static bool parseCount(const char *text, long long limit, long long &value) {
  char *end = nullptr;
  errno = 0;
  value = std::strtoll(text, &end, 10);
  return *text >= '0' && *text <= '9' && *end == '\0' && errno == 0 &&
         value >= 1 && value <= limit;
}

int main(int argc, char **argv) {
  // Sizes are checked before anything is allocated: at most 2^31 - 1 each
  // and 2^30 elements in all (4 GiB of f32 per buffer).
  long long rows = 0, cols = 0;
  if (argc < 3 || argc > 4 || !parseCount(argv[1], INT32_MAX, rows) ||
      !parseCount(argv[2], INT32_MAX, cols) || rows > (1ll << 30) / cols) {
    std::fprintf(stderr, "usage: embed-softmax ROWS COLS [CHIP]: positive "
                         "integers, ROWS x COLS at most 2^30\n");
    return 2;
  }
  std::unique_ptr<blk::runtime::CudaDriver> cuda;
  Status gpu = blk::runtime::CudaDriver::load(cuda);

  // Compile (or find in the cache) a softmax for this shape and chip.
  blk::Compiler compiler;
  blk::CompileOptions options;
  // Empty: the compiler's default chip.
  options.chip = argc > 3 ? argv[3] : gpu ? cuda->device().smArch() : "";
  if (gpu)
    options.multiprocessors = cuda->device().multiprocessorCount;
  options.cacheDirectory = blk::runtime::KernelCache::getDefaultDirectory();
  blk::runtime::ProgramImage image;
  if (Status s = compiler.compileSoftmax(
          {rows, cols, blk::runtime::ElementType::F32, {}}, options, image);
      !s)
    return fail(s);
  std::printf("compiled %s for %lld x %lld f32 on %s: %zu kernel(s), grid %lld\n",
              image.binding.c_str(), rows, cols, image.target.c_str(),
              image.signatures.size(), (long long)image.grid);
  if (!gpu) {
    std::printf("no GPU (%s): not launched\n", gpu.message().c_str());
    return 0;
  }

  // The caller's memory and stream.
  size_t bytes = size_t(rows) * size_t(cols) * sizeof(float);
  std::vector<float> x(size_t(rows) * size_t(cols)), y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(0.37 * double(i)) * 8;
  blk::runtime::DeviceBuffer input, output;
  blk::runtime::Stream stream;
  if (Status s = cuda->allocate(bytes, input); !s)
    return fail(s);
  if (Status s = cuda->allocate(bytes, output); !s)
    return fail(s);
  if (Status s = input.copyFromHost(x.data(), bytes); !s)
    return fail(s);
  if (Status s = cuda->createStream(stream); !s)
    return fail(s);

  // Load once, launch on the caller's buffers and stream.
  std::unique_ptr<blk::runtime::GpuProgram> softmax;
  if (Status s = blk::runtime::GpuProgram::load(*cuda, image, softmax); !s)
    return fail(s);
  blk::runtime::LaunchArguments arguments(rows, cols);
  arguments.tensor("x", input.devicePointer())
      .tensor("y", output.devicePointer());
  if (Status s = softmax->launch(arguments, stream.handle()); !s)
    return fail(s);
  if (Status s = stream.synchronize(); !s)
    return fail(s);
  if (Status s = output.copyToHost(y.data(), bytes); !s)
    return fail(s);

  std::vector<double> reference(x.size());
  blk::runtime::referenceSoftmax(x.data(), rows, cols, cols, reference.data());
  blk::runtime::ErrorStats errors = blk::runtime::compareToReference(
      y.data(), blk::runtime::ElementType::F32, rows, cols, cols,
      reference.data());
  bool ok = errors.passes(blk::runtime::ElementType::F32);
  std::printf("launched on %s, on the caller's stream: %s %s\n",
              cuda->device().name.c_str(), errors.summary().c_str(),
              ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
