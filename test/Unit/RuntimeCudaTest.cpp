//===- RuntimeCudaTest.cpp - the CUDA driver, loaded at run time ----------===//
//
// blk/Runtime/CudaDriver.h on a small hand-written PTX kernel: memory,
// poison fills, JIT loading, attributes, a timed launch, and the messages
// of the calls that fail. Where there is no usable driver these tests are
// skipped with the driver's one-line reason (the runtime must still build
// and start there); only that reason is checked.
//
//===----------------------------------------------------------------------===//
#include "blk/Runtime/CudaDriver.h"
#include "blk/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace blk::runtime;

namespace {

// out[i] = in[i] + 1 for i < n.
constexpr const char *kAddOnePtx = R"(
.version 6.0
.target sm_50
.address_size 64

.visible .entry add_one(.param .u64 out_param, .param .u64 in_param,
                        .param .u32 n_param)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<8>;

  ld.param.u64 %rd1, [out_param];
  ld.param.u64 %rd2, [in_param];
  ld.param.u32 %r1, [n_param];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.s32 %rd5, %r5, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  add.f32 %f2, %f1, 0f3F800000;
  add.s64 %rd7, %rd3, %rd5;
  st.global.f32 [%rd7], %f2;
DONE:
  ret;
}
)";

TEST(RuntimeCudaDriverTest, LoadFailureIsReportedInOneLine) {
  std::unique_ptr<CudaDriver> cuda;
  Status loaded = CudaDriver::load(cuda);
  if (loaded)
    GTEST_SKIP() << "the driver loaded: " << cuda->device().summary();
  EXPECT_FALSE(loaded.message().empty());
  EXPECT_EQ(loaded.message().find('\n'), std::string::npos) << loaded.message();
}

/// One driver for the suite (loading it initializes the device), used on
/// the thread that loaded it as the driver requires: gtest runs the tests
/// on the main thread.
class RuntimeCudaTest : public testing::Test {
protected:
  static void SetUpTestSuite() {
    Status loaded = CudaDriver::load(cuda);
    if (!loaded)
      loadFailure = loaded.message();
  }

  static void TearDownTestSuite() { cuda.reset(); }

  void SetUp() override {
    if (!cuda)
      GTEST_SKIP() << "cuda: driver not available: " << loadFailure;
  }

  static Status loadAddOne(KernelModule &module, Kernel &kernel) {
    Status status = cuda->loadModule(kAddOnePtx, module);
    if (status)
      status = module.getKernel("add_one", kernel);
    return status;
  }

  static inline std::unique_ptr<CudaDriver> cuda;
  static inline std::string loadFailure;
};

TEST_F(RuntimeCudaTest, DeviceInfoHasMultiprocessorsAndAComputeCapability) {
  const DeviceInfo &device = cuda->device();
  RecordProperty("device", device.summary());
  EXPECT_GT(device.multiprocessorCount, 0) << device.summary();
  EXPECT_GT(device.computeCapabilityMajor, 0) << device.smArch();
}

TEST_F(RuntimeCudaTest, KernelAttributesAndOccupancy) {
  KernelModule module;
  Kernel kernel;
  Status loaded = loadAddOne(module, kernel);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  KernelAttributes attributes;
  Status status = kernel.attributes(attributes);
  ASSERT_TRUE(status.ok()) << status.message();
  int blocksPerSM = 0;
  status = kernel.maxActiveBlocksPerMultiprocessor(128, 0, blocksPerSM);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_GT(attributes.registersPerThread, 0);
  EXPECT_GT(blocksPerSM, 0);
}

// add_one on 1000 of 1024 poisoned elements: the values, the untouched
// poison tail, and the timing.
TEST_F(RuntimeCudaTest, TimedLaunchWritesItsElementsAndLeavesThePoisonTail) {
  constexpr unsigned kElements = 1024, kWritten = 1000, kBlock = 128;
  std::vector<float> input(kElements);
  for (unsigned i = 0; i < kElements; ++i)
    input[i] = static_cast<float>(i) * 0.5f;

  DeviceBuffer inputBuffer, outputBuffer;
  KernelModule module;
  Kernel kernel;
  EventTimer timer;
  Status status = cuda->allocate(kElements * 4, inputBuffer);
  if (status)
    status = cuda->allocate(kElements * 4, outputBuffer);
  if (status)
    status = inputBuffer.copyFromHost(input.data(), kElements * 4);
  if (status)
    status = outputBuffer.fill32(kPoisonBitsF32);
  if (status)
    status = loadAddOne(module, kernel);
  if (status)
    status = cuda->createTimer(timer);
  ASSERT_TRUE(status.ok()) << "allocate, copy, poison, JIT-load PTX: "
                           << status.message();

  CUdeviceptr outputPointer = outputBuffer.devicePointer();
  CUdeviceptr inputPointer = inputBuffer.devicePointer();
  unsigned count = kWritten;
  void *arguments[] = {&outputPointer, &inputPointer, &count};
  LaunchConfig config;
  config.grid.x = (kWritten + kBlock - 1) / kBlock;
  config.block.x = kBlock;
  float milliseconds = -1;
  std::vector<float> output(kElements);
  status = timer.start();
  if (status)
    status = kernel.launch(config, arguments);
  if (status)
    status = timer.stop(milliseconds);
  if (status)
    status = outputBuffer.copyToHost(output.data(), kElements * 4);
  ASSERT_TRUE(status.ok()) << "timed launch: " << status.message();
  EXPECT_GE(milliseconds, 0);

  std::vector<double> expected(kElements);
  for (unsigned i = 0; i < kElements; ++i)
    expected[i] = input[i] + 1.0;
  ErrorStats stats = compareToReference(output.data(), ElementType::F32, 1,
                                        kElements, kElements, expected.data());
  EXPECT_EQ(stats.maxAbsError, 0) << stats.summary();
  EXPECT_EQ(stats.unwrittenCount, kElements - kWritten) << stats.summary();
  EXPECT_EQ(stats.nanMismatchCount, 0u) << stats.summary();
}

// A caller debugging its PTX needs the JIT's own words.
TEST_F(RuntimeCudaTest, BadPtxReportsTheJitLog) {
  KernelModule module;
  Status badPtx = cuda->loadModule(".version 6.0\n.target sm_50\n"
                                   ".address_size 64\nthis is not ptx\n",
                                   module);
  EXPECT_FALSE(badPtx.ok());
  EXPECT_EQ(badPtx.message().find("cuModuleLoadDataEx failed"), 0u)
      << badPtx.message();
  EXPECT_NE(badPtx.message().find("JIT log"), std::string::npos)
      << badPtx.message();
}

TEST_F(RuntimeCudaTest, UnknownKernelNameIsNotFound) {
  KernelModule module;
  Status loaded = cuda->loadModule(kAddOnePtx, module);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  Kernel kernel;
  Status missing = module.getKernel("no_such_kernel", kernel);
  EXPECT_EQ(missing.message().find(
                "cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND"),
            0u)
      << missing.message();
}

TEST_F(RuntimeCudaTest, LaunchOfA4096ThreadBlockIsRefused) {
  KernelModule module;
  Kernel kernel;
  Status loaded = loadAddOne(module, kernel);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  LaunchConfig tooManyThreads;
  tooManyThreads.block.x = 4096;
  CUdeviceptr null = 0;
  unsigned count = 0;
  void *arguments[] = {&null, &null, &count};
  Status launch = kernel.launch(tooManyThreads, arguments);
  EXPECT_EQ(
      launch.message().find("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE"),
      0u)
      << launch.message();
}

} // namespace
