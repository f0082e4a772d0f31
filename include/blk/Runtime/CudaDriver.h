//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Tools that run kernels must still build and start on machines without an
// NVIDIA driver, so libcuda.so.1 is opened with dlopen instead of linked,
// and the handful of driver API types used are declared here instead of
// including cuda.h. Enum values are the driver API's own.
//
// Usage:
//   std::unique_ptr<CudaDriver> cuda;
//   if (Status s = CudaDriver::load(cuda); !s) { print s.message(); ... }
//   DeviceBuffer input;
//   if (Status s = cuda->allocate(bytes, input); !s) { print s.message(); }
//   KernelModule module;  cuda->loadModule(ptxText, module);
//   Kernel kernel;        module.getKernel("softmax", kernel);
//   void *arguments[] = {&outputPointer, &inputPointer, &rowStride, ...};
//   EventTimer timer;     cuda->createTimer(timer);
//   timer.start(); kernel.launch(config, arguments); timer.stop(milliseconds);
//
// Every operation returns a Status whose message names the failing call and
// the CUDA error, e.g. "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE
// (invalid argument)". Objects made by a CudaDriver refer back to it: the
// driver must outlive them, and all of them must be used on the thread that
// called load(), where the device's primary context is current.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_CUDADRIVER_H
#define BLK_RUNTIME_CUDADRIVER_H

#include "blk/Runtime/Launch.h"
#include "blk/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace blk::runtime {

//===----------------------------------------------------------------------===//
// Driver API types (declared as in cuda.h)
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr unsigned CU_EVENT_DEFAULT = 0;

enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
};

/// cuOccupancyMaxActiveClusters's launch description (CUDA 12's
/// CUlaunchConfig; no attributes: a kernel's cluster size is compiled in).
struct CUlaunchAttribute;
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

enum CUjit_option : int {
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/// The driver entry points this runtime uses, resolved from libcuda.so.1.
/// Prefer the wrappers below; the table is public for calls they lack.
struct CudaDriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **description);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, CUdevice_attribute attribute,
                                   CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr destination, const void *source,
                           size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *destination, CUdeviceptr source, size_t bytes);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr destination, CUdeviceptr source,
                           size_t bytes);
  CUresult (*cuMemsetD8)(CUdeviceptr destination, unsigned char value,
                         size_t count);
  CUresult (*cuMemsetD16)(CUdeviceptr destination, unsigned short value,
                          size_t count);
  CUresult (*cuMemsetD32)(CUdeviceptr destination, unsigned value,
                          size_t count);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned optionCount, CUjit_option *options,
                                 void **optionValues);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, CUstream stream,
                             void **kernelParams, void **extra);
  CUresult (*cuLaunchCooperativeKernel)(CUfunction function, unsigned gridX,
                                        unsigned gridY, unsigned gridZ,
                                        unsigned blockX, unsigned blockY,
                                        unsigned blockZ, unsigned sharedBytes,
                                        CUstream stream, void **kernelParams);
  CUresult (*cuFuncGetAttribute)(int *value, CUfunction_attribute attribute,
                                 CUfunction function);
  CUresult (*cuFuncSetAttribute)(CUfunction function,
                                 CUfunction_attribute attribute, int value);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(
      int *blocks, CUfunction function, int blockThreads,
      size_t dynamicSharedBytes);
  /// Null on a driver without clusters (before CUDA 11.8).
  CUresult (*cuOccupancyMaxActiveClusters)(int *clusters, CUfunction function,
                                           const CUlaunchConfig *config);
  /// Null on a driver without the tensor memory accelerator (before CUDA
  /// 12.0). The enums are ints here: data type, interleave, swizzle, L2
  /// promotion, out-of-bounds fill.
  CUresult (*cuTensorMapEncodeTiled)(
      void *tensorMap, int dataType, uint32_t rank, void *globalAddress,
      const uint64_t *globalDim, const uint64_t *globalStrides,
      const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
      int swizzle, int l2Promotion, int oobFill);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start,
                                 CUevent end);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamDestroy)(CUstream stream);
};

//===----------------------------------------------------------------------===//
// Device description and launch parameters
//===----------------------------------------------------------------------===//

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int multiprocessorCount = 0;
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  int l2CacheBytes = 0;
  /// The most shared memory one block may use after opting in with
  /// Kernel::setMaxDynamicSharedBytes (the default limit is 48 KiB).
  int maxSharedBytesPerBlockOptin = 0;
  /// As cuDriverGetVersion reports it: 1000 * major + 10 * minor.
  int driverVersion = 0;

  /// The LLVM/PTX chip name, e.g. "sm_90".
  std::string smArch() const;
  /// e.g. "12.4".
  std::string driverVersionString() const;
  /// One line with every field.
  std::string summary() const;
};

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  unsigned dynamicSharedBytes = 0;
  /// All CTAs resident at once, or the launch fails
  /// (cuLaunchCooperativeKernel): for programs that wait for each other.
  bool cooperative = false;
};

struct KernelAttributes {
  int registersPerThread = 0;
  int localBytesPerThread = 0; // spills and local arrays
  int staticSharedBytes = 0;
  int maxDynamicSharedBytes = 0;
};

class CudaDriver;

//===----------------------------------------------------------------------===//
// Owning helpers (move-only; they release their resource when destroyed)
//===----------------------------------------------------------------------===//

/// Device memory. Destruction frees it, ignoring errors; call release() to
/// have a failure reported.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  ~DeviceBuffer();

  CUdeviceptr devicePointer() const { return pointer; }
  size_t size() const { return sizeInBytes; }

  /// Copies `bytes` (at most size()) to or from the start of the buffer.
  Status copyFromHost(const void *source, size_t bytes);
  Status copyToHost(void *destination, size_t bytes) const;
  Status copyFromDevice(const DeviceBuffer &source, size_t bytes);
  /// Fill the whole buffer with a repeated byte, 16-bit or 32-bit pattern
  /// (e.g. the poison patterns of Numerics.h). The buffer size must be a
  /// multiple of the pattern size.
  Status fillBytes(uint8_t value);
  Status fill16(uint16_t pattern);
  Status fill32(uint32_t pattern);
  Status release();

private:
  friend class CudaDriver;
  Status checkFits(size_t bytes, const char *call) const;

  const CudaDriver *driver = nullptr;
  CUdeviceptr pointer = 0;
  size_t sizeInBytes = 0;
};

/// A kernel of a loaded module. It does not own anything: the KernelModule
/// it came from must stay loaded.
class Kernel {
public:
  const std::string &name() const { return kernelName; }
  CUfunction handle() const { return function; }

  Status attributes(KernelAttributes &attributes) const;
  /// Opts in to more than 48 KiB of dynamic shared memory.
  Status setMaxDynamicSharedBytes(int bytes) const;
  /// Lets the kernel run on clusters of more than 8 CTAs (up to 16 on sm_90).
  Status allowNonPortableClusterSize() const;
  Status maxActiveBlocksPerMultiprocessor(int blockThreads,
                                          size_t dynamicSharedBytes,
                                          int &blocks) const;
  /// Clusters of `clusterCtas` CTAs (the kernel's compiled-in cluster
  /// size) the device runs at once.
  Status maxActiveClusters(int clusterCtas, int blockThreads,
                           size_t dynamicSharedBytes, int &clusters) const;
  /// Enqueues a launch on `stream` (null: the default stream). `arguments`
  /// holds one pointer per kernel parameter, pointing at its value
  /// (cuLaunchKernel's kernelParams). Faults inside the kernel surface at
  /// the next synchronizing call (CudaDriver::synchronize,
  /// Stream::synchronize, EventTimer::stop, a copy).
  Status launch(const LaunchConfig &config, void **arguments,
                CUstream stream = nullptr) const;

private:
  friend class KernelModule;
  const CudaDriver *driver = nullptr;
  CUfunction function = nullptr;
  std::string kernelName;
};

/// A module JIT-compiled from PTX. Destruction unloads it.
class KernelModule {
public:
  KernelModule() = default;
  KernelModule(KernelModule &&other) noexcept;
  KernelModule &operator=(KernelModule &&other) noexcept;
  ~KernelModule();

  Status getKernel(const std::string &name, Kernel &kernel) const;
  Status unload();

private:
  friend class CudaDriver;
  const CudaDriver *driver = nullptr;
  CUmodule module = nullptr;
};

/// A stream of the driver's context (what a caller that has no CUDA
/// runtime of its own launches on). Destruction destroys it.
class Stream {
public:
  Stream() = default;
  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  ~Stream();

  CUstream handle() const { return stream; }
  /// Waits for the stream's work; reports faults of its launches.
  Status synchronize() const;

private:
  friend class CudaDriver;
  void destroy();

  const CudaDriver *driver = nullptr;
  CUstream stream = nullptr;
};

/// Times GPU work on the default stream with a pair of events.
class EventTimer {
public:
  EventTimer() = default;
  EventTimer(EventTimer &&other) noexcept;
  EventTimer &operator=(EventTimer &&other) noexcept;
  ~EventTimer();

  /// Records the start event.
  Status start();
  /// Records the end event, waits for it, and returns the GPU time between
  /// the two events.
  Status stop(float &milliseconds);

private:
  friend class CudaDriver;
  void destroy();

  const CudaDriver *driver = nullptr;
  CUevent startEvent = nullptr;
  CUevent endEvent = nullptr;
};

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

class CudaDriver {
public:
  /// Opens libcuda.so.1, initializes the driver and makes the primary
  /// context of device `deviceOrdinal` current on this thread, into
  /// `driver`. A failure says in one line which step failed, e.g. "no
  /// NVIDIA driver: libcuda.so.1 not found (dlopen: ...)", and leaves
  /// `driver` null.
  static Status load(std::unique_ptr<CudaDriver> &driver,
                     int deviceOrdinal = 0);
  ~CudaDriver();
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  const DeviceInfo &device() const { return deviceInfo; }
  const CudaDriverApi &api() const { return entryPoints; }

  /// Success for CUDA_SUCCESS, else "<call> failed: NAME (description)",
  /// followed by " [context]" when `context` is not empty.
  Status check(CUresult result, const char *call,
               const std::string &context = "") const;

  Status allocate(size_t bytes, DeviceBuffer &buffer) const;
  /// JIT-compiles PTX text; a compilation failure's message continues with
  /// "\nJIT log:\n" and the JIT's error log.
  Status loadModule(const std::string &ptx, KernelModule &module) const;
  Status createTimer(EventTimer &timer) const;
  /// A stream that, like one cudaStreamCreate makes, waits for work of
  /// the legacy default stream (the DeviceBuffer copies and fills).
  Status createStream(Stream &stream) const;
  /// Waits for all submitted work; reports faults of earlier launches.
  Status synchronize() const;
  /// Encodes the TMA descriptor `request` describes into `map`; fails,
  /// saying what, on a driver without TMA or a matrix TMA cannot describe
  /// (an address or row stride not a multiple of 16 bytes).
  Status encodeTensorMap(const TensorMapRequest &request,
                         TensorMapBytes &map) const;

private:
  CudaDriver() = default;
  Status initialize(int deviceOrdinal);
  Status queryDeviceInfo();

  CudaDriverApi entryPoints{};
  CUdevice deviceHandle = 0;
  CUcontext primaryContext = nullptr;
  DeviceInfo deviceInfo;
};

} // namespace blk::runtime

#endif // BLK_RUNTIME_CUDADRIVER_H
