//===- embed_softmax.cpp - the compiler embedded in a C++ program ---------===//
//
// An out-of-tree program that links the installed compiler (find_package(
// Blk), see CMakeLists.txt beside it) and uses only its MLIR-free API:
// compile a softmax once for a row length (blk/Driver/Compiler.h; a second
// run takes it from the kernel cache), run it on memory this program owns,
// for two row counts from the one compilation, and check each result
// against a float64 reference. On the GPU it launches on device memory and
// a stream this program created (blk/Runtime/GpuProgram.h); on the CPU it
// runs on host vectors (blk/Driver/CpuProgram.h).
//
//   embed-softmax ROWS COLS [CHIP | cpu]
//
// CHIP (default: the GPU's, else sm_90) compiles for a GPU; without one it
// compiles, says so and exits 0. `cpu` compiles for and runs on the host.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Compiler.h"
#include "blk/Driver/CpuProgram.h"
#include "blk/Runtime/CudaDriver.h"
#include "blk/Runtime/GpuProgram.h"
#include "blk/Runtime/Numerics.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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

/// Runs a softmax of `rows` x `cols` through `run` (input, output, rows)
/// and compares it with the float64 reference; prints one line.
static bool
runAndCheck(long long rows, long long cols, const std::string &where,
            const std::function<Status(const std::vector<float> &,
                                       std::vector<float> &, long long)> &run) {
  std::vector<float> x(size_t(rows) * size_t(cols)), y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(0.37 * double(i)) * 8;
  if (Status s = run(x, y, rows); !s) {
    std::fprintf(stderr, "embed-softmax: %s\n", s.message().c_str());
    return false;
  }
  std::vector<double> reference(x.size());
  blk::runtime::referenceSoftmax(x.data(), rows, cols, cols, reference.data());
  blk::runtime::ErrorStats errors =
      blk::runtime::compareToReference(y.data(), blk::runtime::ElementType::F32,
                                       rows, cols, cols, reference.data());
  bool ok = errors.passes(blk::runtime::ElementType::F32);
  std::printf("ran %lld rows on %s: %s %s\n", rows, where.c_str(),
              errors.summary().c_str(), ok ? "OK" : "FAILED");
  return ok;
}

/// Runs on the caller's host vectors.
static Status runOnCPU(blk::CpuProgram &program, long long cols,
                       const std::vector<float> &x, std::vector<float> &y,
                       long long rows) {
  blk::runtime::LaunchArguments arguments(rows, cols);
  arguments.tensor("x", x.data()).tensor("y", y.data());
  return program.run(arguments);
}

/// Launches on device buffers and a stream of the caller's.
static Status runOnGPU(blk::runtime::CudaDriver &cuda,
                       blk::runtime::GpuProgram &program, long long cols,
                       const std::vector<float> &x, std::vector<float> &y,
                       long long rows) {
  size_t bytes = x.size() * sizeof(float);
  blk::runtime::DeviceBuffer input, output;
  blk::runtime::Stream stream;
  if (Status s = cuda.allocate(bytes, input); !s)
    return s;
  if (Status s = cuda.allocate(bytes, output); !s)
    return s;
  if (Status s = input.copyFromHost(x.data(), bytes); !s)
    return s;
  if (Status s = cuda.createStream(stream); !s)
    return s;
  blk::runtime::LaunchArguments arguments(rows, cols);
  arguments.tensor("x", input.devicePointer())
      .tensor("y", output.devicePointer());
  if (Status s = program.launch(arguments, stream.handle()); !s)
    return s;
  if (Status s = stream.synchronize(); !s)
    return s;
  return output.copyToHost(y.data(), bytes);
}

int main(int argc, char **argv) {
  // Sizes are checked before anything is allocated: at most 2^31 - 1 each
  // and 2^30 elements in all (4 GiB of f32 per buffer).
  long long rows = 0, cols = 0;
  if (argc < 3 || argc > 4 || !parseCount(argv[1], INT32_MAX, rows) ||
      !parseCount(argv[2], INT32_MAX, cols) || rows > (1ll << 30) / cols) {
    std::fprintf(stderr, "usage: embed-softmax ROWS COLS [CHIP | cpu]: "
                         "positive integers, ROWS x COLS at most 2^30\n");
    return 2;
  }
  bool onCPU = argc > 3 && std::strcmp(argv[3], "cpu") == 0;
  std::unique_ptr<blk::runtime::CudaDriver> cuda;
  Status gpu = onCPU ? Status::failure("the CPU was asked for")
                     : blk::runtime::CudaDriver::load(cuda);

  // Compile (or find in the cache) a softmax for this row length.
  blk::Compiler compiler;
  blk::CompileOptions options;
  options.target = onCPU ? blk::TargetKind::CPU : blk::TargetKind::GPU;
  // Empty: the compiler's default chip.
  options.chip = argc > 3 && !onCPU ? argv[3]
                 : gpu              ? cuda->device().smArch()
                                    : "";
  if (gpu)
    options.multiprocessors = cuda->device().multiprocessorCount;
  options.cacheDirectory = blk::runtime::KernelCache::getDefaultDirectory();
  blk::runtime::ProgramImage image;
  if (Status s = compiler.compileSoftmax(
          {rows, cols, blk::runtime::ElementType::F32, {}}, options, image);
      !s)
    return fail(s);
  std::printf("compiled %s for rows of %lld f32, 1 to %lld rows, on %s: %zu "
              "kernel(s)\n",
              image.binding.c_str(), cols, (long long)image.shapes.maxRows,
              onCPU ? "cpu" : image.target.c_str(), image.signatures.size());
  if (!onCPU && !gpu) {
    std::printf("no GPU (%s): not launched\n", gpu.message().c_str());
    return 0;
  }

  // Load once; run for about half the rows asked, then for all of them:
  // one compilation serves every row count (the second run grows the
  // scratch tensors of a program that has them).
  std::function<Status(const std::vector<float> &, std::vector<float> &,
                       long long)>
      run;
  std::unique_ptr<blk::CpuProgram> cpuSoftmax;
  std::unique_ptr<blk::runtime::GpuProgram> gpuSoftmax;
  std::string where;
  if (onCPU) {
    if (Status s = blk::CpuProgram::load(image, cpuSoftmax); !s)
      return fail(s);
    where = "the CPU";
    run = [&](const std::vector<float> &x, std::vector<float> &y, long long r) {
      return runOnCPU(*cpuSoftmax, cols, x, y, r);
    };
  } else {
    if (Status s = blk::runtime::GpuProgram::load(*cuda, image, gpuSoftmax); !s)
      return fail(s);
    where = cuda->device().name + ", on the caller's stream";
    run = [&](const std::vector<float> &x, std::vector<float> &y, long long r) {
      return runOnGPU(*cuda, *gpuSoftmax, cols, x, y, r);
    };
  }
  bool ok = runAndCheck(rows / 2 + 1, cols, where, run) &&
            runAndCheck(rows, cols, where, run);
  std::printf("%s\n", ok ? "all OK" : "FAILED");
  return ok ? 0 : 1;
}
