//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//
#include "blk/Runtime/CudaDriver.h"

#include <dlfcn.h>

#include <initializer_list>
#include <utility>
#include <vector>

namespace blk::runtime {

namespace {

constexpr const char *kDriverLibrary = "libcuda.so.1";
constexpr size_t kJitLogBytes = 16 * 1024;

/// Resolves the first of `names` that the library exports (newer entry
/// points first, so the fallbacks serve older drivers).
template <typename FunctionPointer>
bool resolve(void *library, std::initializer_list<const char *> names,
             FunctionPointer &function, std::string &missing) {
  for (const char *name : names) {
    if (void *symbol = dlsym(library, name)) {
      function = reinterpret_cast<FunctionPointer>(symbol);
      return true;
    }
  }
  missing = *names.begin();
  return false;
}

Status resolveEntryPoints(void *library, CudaDriverApi &api) {
  std::string missing;
  bool resolved =
      resolve(library, {"cuInit"}, api.cuInit, missing) &&
      resolve(library, {"cuDriverGetVersion"}, api.cuDriverGetVersion,
              missing) &&
      resolve(library, {"cuGetErrorName"}, api.cuGetErrorName, missing) &&
      resolve(library, {"cuGetErrorString"}, api.cuGetErrorString, missing) &&
      resolve(library, {"cuDeviceGetCount"}, api.cuDeviceGetCount, missing) &&
      resolve(library, {"cuDeviceGet"}, api.cuDeviceGet, missing) &&
      resolve(library, {"cuDeviceGetName"}, api.cuDeviceGetName, missing) &&
      resolve(library, {"cuDeviceGetAttribute"}, api.cuDeviceGetAttribute,
              missing) &&
      resolve(library, {"cuDevicePrimaryCtxRetain"},
              api.cuDevicePrimaryCtxRetain, missing) &&
      resolve(library,
              {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
              api.cuDevicePrimaryCtxRelease, missing) &&
      resolve(library, {"cuCtxSetCurrent"}, api.cuCtxSetCurrent, missing) &&
      resolve(library, {"cuCtxSynchronize"}, api.cuCtxSynchronize, missing) &&
      resolve(library, {"cuMemAlloc_v2"}, api.cuMemAlloc, missing) &&
      resolve(library, {"cuMemFree_v2"}, api.cuMemFree, missing) &&
      resolve(library, {"cuMemcpyHtoD_v2"}, api.cuMemcpyHtoD, missing) &&
      resolve(library, {"cuMemcpyDtoH_v2"}, api.cuMemcpyDtoH, missing) &&
      resolve(library, {"cuMemcpyDtoD_v2"}, api.cuMemcpyDtoD, missing) &&
      resolve(library, {"cuMemsetD8_v2"}, api.cuMemsetD8, missing) &&
      resolve(library, {"cuMemsetD16_v2"}, api.cuMemsetD16, missing) &&
      resolve(library, {"cuMemsetD32_v2"}, api.cuMemsetD32, missing) &&
      resolve(library, {"cuModuleLoadDataEx"}, api.cuModuleLoadDataEx,
              missing) &&
      resolve(library, {"cuModuleGetFunction"}, api.cuModuleGetFunction,
              missing) &&
      resolve(library, {"cuModuleUnload"}, api.cuModuleUnload, missing) &&
      resolve(library, {"cuLaunchKernel"}, api.cuLaunchKernel, missing) &&
      resolve(library, {"cuLaunchCooperativeKernel"},
              api.cuLaunchCooperativeKernel, missing) &&
      resolve(library, {"cuFuncGetAttribute"}, api.cuFuncGetAttribute,
              missing) &&
      resolve(library, {"cuFuncSetAttribute"}, api.cuFuncSetAttribute,
              missing) &&
      resolve(library, {"cuOccupancyMaxActiveBlocksPerMultiprocessor"},
              api.cuOccupancyMaxActiveBlocksPerMultiprocessor, missing) &&
      resolve(library, {"cuEventCreate"}, api.cuEventCreate, missing) &&
      resolve(library, {"cuEventRecord"}, api.cuEventRecord, missing) &&
      resolve(library, {"cuEventSynchronize"}, api.cuEventSynchronize,
              missing) &&
      resolve(library, {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
              api.cuEventElapsedTime, missing) &&
      resolve(library, {"cuEventDestroy_v2"}, api.cuEventDestroy, missing) &&
      resolve(library, {"cuStreamCreate"}, api.cuStreamCreate, missing) &&
      resolve(library, {"cuStreamSynchronize"}, api.cuStreamSynchronize,
              missing) &&
      resolve(library, {"cuStreamDestroy_v2"}, api.cuStreamDestroy, missing);
  if (!resolved)
    return Status::failure(std::string(kDriverLibrary) + " lacks " + missing +
                           " (NVIDIA driver too old?)");
  // Optional: only persistent grids of clusters ask for it.
  std::string optional;
  if (!resolve(library, {"cuOccupancyMaxActiveClusters"},
               api.cuOccupancyMaxActiveClusters, optional))
    api.cuOccupancyMaxActiveClusters = nullptr;
  // Optional: only kernels that copy by TMA ask for it.
  if (!resolve(library, {"cuTensorMapEncodeTiled"},
               api.cuTensorMapEncodeTiled, optional))
    api.cuTensorMapEncodeTiled = nullptr;
  return Status::success();
}

std::string dimensionsToString(const Dim3 &dimensions) {
  return std::to_string(dimensions.x) + "x" + std::to_string(dimensions.y) +
         "x" + std::to_string(dimensions.z);
}

/// The JIT log up to its NUL, without trailing blank lines.
std::string trimmedLog(const std::vector<char> &log) {
  std::string text(log.data());
  size_t end = text.find_last_not_of(" \n\r\t");
  return end == std::string::npos ? "" : text.substr(0, end + 1);
}

} // namespace

//===----------------------------------------------------------------------===//
// DeviceInfo
//===----------------------------------------------------------------------===//

std::string DeviceInfo::smArch() const {
  return "sm_" + std::to_string(computeCapabilityMajor) +
         std::to_string(computeCapabilityMinor);
}

std::string DeviceInfo::driverVersionString() const {
  return std::to_string(driverVersion / 1000) + "." +
         std::to_string(driverVersion % 1000 / 10);
}

std::string DeviceInfo::summary() const {
  return "device " + std::to_string(ordinal) + ": " + name + ", " + smArch() +
         ", " + std::to_string(multiprocessorCount) + " SMs, L2 " +
         std::to_string(l2CacheBytes / 1024) + " KiB, max shared/block " +
         std::to_string(maxSharedBytesPerBlockOptin / 1024) +
         " KiB (opt-in), driver " + driverVersionString();
}

//===----------------------------------------------------------------------===//
// CudaDriver
//===----------------------------------------------------------------------===//

Status CudaDriver::load(std::unique_ptr<CudaDriver> &driver,
                        int deviceOrdinal) {
  driver.reset();
  // libcuda is never dlclose'd: it installs process-exit handlers, and
  // unloading it early is a known source of crashes at exit.
  void *library = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return Status::failure(std::string("no NVIDIA driver: ") + kDriverLibrary +
                           " not found (dlopen: " + dlerror() + ")");
  std::unique_ptr<CudaDriver> loaded(new CudaDriver());
  Status status = resolveEntryPoints(library, loaded->entryPoints);
  if (status)
    status = loaded->initialize(deviceOrdinal);
  if (status)
    driver = std::move(loaded);
  return status;
}

Status CudaDriver::initialize(int deviceOrdinal) {
  const CudaDriverApi &api = entryPoints;
  if (Status status = check(api.cuInit(0), "cuInit"); !status)
    return status;
  int deviceCount = 0;
  if (Status status =
          check(api.cuDeviceGetCount(&deviceCount), "cuDeviceGetCount");
      !status)
    return status;
  if (deviceCount == 0)
    return Status::failure("no CUDA device: cuDeviceGetCount reports 0");
  if (deviceOrdinal < 0 || deviceOrdinal >= deviceCount)
    return Status::failure("no CUDA device " + std::to_string(deviceOrdinal) +
                           ": there are " + std::to_string(deviceCount));
  if (Status status =
          check(api.cuDeviceGet(&deviceHandle, deviceOrdinal), "cuDeviceGet");
      !status)
    return status;
  if (Status status =
          check(api.cuDevicePrimaryCtxRetain(&primaryContext, deviceHandle),
                "cuDevicePrimaryCtxRetain");
      !status)
    return status;
  if (Status status =
          check(api.cuCtxSetCurrent(primaryContext), "cuCtxSetCurrent");
      !status)
    return status;
  deviceInfo.ordinal = deviceOrdinal;
  return queryDeviceInfo();
}

Status CudaDriver::queryDeviceInfo() {
  const CudaDriverApi &api = entryPoints;
  char name[256] = {};
  if (Status status =
          check(api.cuDeviceGetName(name, sizeof(name) - 1, deviceHandle),
                "cuDeviceGetName");
      !status)
    return status;
  deviceInfo.name = name;
  if (Status status = check(api.cuDriverGetVersion(&deviceInfo.driverVersion),
                            "cuDriverGetVersion");
      !status)
    return status;
  struct AttributeQuery {
    CUdevice_attribute attribute;
    int &value;
    const char *what;
  } queries[] = {
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, deviceInfo.multiprocessorCount,
       "multiprocessor count"},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
       deviceInfo.computeCapabilityMajor, "compute capability major"},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
       deviceInfo.computeCapabilityMinor, "compute capability minor"},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, deviceInfo.l2CacheBytes,
       "L2 cache size"},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       deviceInfo.maxSharedBytesPerBlockOptin, "opt-in shared memory"},
  };
  for (AttributeQuery &query : queries) {
    if (Status status = check(api.cuDeviceGetAttribute(
                                  &query.value, query.attribute, deviceHandle),
                              "cuDeviceGetAttribute", query.what);
        !status)
      return status;
  }
  return Status::success();
}

CudaDriver::~CudaDriver() {
  if (primaryContext)
    entryPoints.cuDevicePrimaryCtxRelease(deviceHandle);
}

Status CudaDriver::check(CUresult result, const char *call,
                         const std::string &context) const {
  if (result == CUDA_SUCCESS)
    return Status::success();
  const char *name = nullptr;
  const char *description = nullptr;
  // Both leave their output null for codes the driver does not know.
  entryPoints.cuGetErrorName(result, &name);
  entryPoints.cuGetErrorString(result, &description);
  std::string message =
      std::string(call) +
      " failed: " + (name ? name : "CUDA error " + std::to_string(result)) +
      " (" + (description ? description : "unknown error") + ")";
  if (!context.empty())
    message += " [" + context + "]";
  return Status::failure(message);
}

Status CudaDriver::encodeTensorMap(const TensorMapRequest &request,
                                   TensorMapBytes &map) const {
  // CUtensorMapDataType, CUtensorMapSwizzle, CUtensorMapL2promotion and
  // CUtensorMapFloatOOBfill (cuda.h of CUDA 12).
  constexpr int kFloat16 = 6, kBFloat16 = 9, kSwizzle128B = 3,
                kPromoteL2By256B = 3, kFillZeros = 0, kNoInterleave = 0;
  if (!entryPoints.cuTensorMapEncodeTiled)
    return Status::failure("the NVIDIA driver lacks cuTensorMapEncodeTiled "
                           "(before CUDA 12.0): no TMA");
  int dataType = request.elementType == "bf16"  ? kBFloat16
                 : request.elementType == "f16" ? kFloat16
                                                : -1;
  if (dataType < 0)
    return Status::failure("tensor maps hold 16-bit floats, not " +
                           request.elementType);
  // The driver's limits, said here rather than as CUDA_ERROR_INVALID_VALUE.
  if (request.address % 16 != 0 || request.rowStrideBytes % 16 != 0)
    return Status::failure(
        "TMA needs a 16-byte aligned address and row stride, but got "
        "address " + std::to_string(request.address) + " and a row stride "
        "of " + std::to_string(request.rowStrideBytes) + " bytes");
  if (request.rows < 1 || request.cols < 1 || request.rows > UINT32_MAX ||
      request.cols > UINT32_MAX || request.rowStrideBytes >= (int64_t(1) << 40))
    return Status::failure("TMA cannot describe a matrix of " +
                           std::to_string(request.rows) + " x " +
                           std::to_string(request.cols) +
                           " elements with rows " +
                           std::to_string(request.rowStrideBytes) +
                           " bytes apart");
  TensorMapLayout layout = getTensorMapLayout(request);
  uint32_t elementStrides[4] = {1, 1, 1, 1};
  return check(entryPoints.cuTensorMapEncodeTiled(
                   map.bytes, dataType, layout.rank,
                   reinterpret_cast<void *>(request.address), layout.dims,
                   layout.strides, layout.box, elementStrides, kNoInterleave,
                   kSwizzle128B, kPromoteL2By256B, kFillZeros),
               "cuTensorMapEncodeTiled",
               std::to_string(request.rows) + " x " +
                   std::to_string(request.cols) + " " + request.elementType +
                   ", box " + std::to_string(request.boxRows) + " x " +
                   std::to_string(request.boxCols));
}

Status CudaDriver::allocate(size_t bytes, DeviceBuffer &buffer) const {
  if (Status status = buffer.release(); !status)
    return status;
  CUdeviceptr pointer = 0;
  if (Status status = check(entryPoints.cuMemAlloc(&pointer, bytes),
                            "cuMemAlloc", std::to_string(bytes) + " bytes");
      !status)
    return status;
  buffer.driver = this;
  buffer.pointer = pointer;
  buffer.sizeInBytes = bytes;
  return Status::success();
}

Status CudaDriver::loadModule(const std::string &ptx,
                              KernelModule &module) const {
  if (Status status = module.unload(); !status)
    return status;
  std::vector<char> errorLog(kJitLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  // The size option is passed by value, squeezed into the pointer slot. One
  // byte is held back so the log stays NUL-terminated however long it is.
  void *optionValues[] = {errorLog.data(),
                          reinterpret_cast<void *>(errorLog.size() - 1)};
  CUmodule handle = nullptr;
  CUresult result = entryPoints.cuModuleLoadDataEx(&handle, ptx.c_str(), 2,
                                                   options, optionValues);
  if (Status status = check(result, "cuModuleLoadDataEx"); !status) {
    // ptxas reports one problem per line; keep them on their own lines.
    std::string log = trimmedLog(errorLog);
    if (log.empty())
      return status;
    return Status::failure(status.message() + "\nJIT log:\n" + log);
  }
  module.driver = this;
  module.module = handle;
  return Status::success();
}

Status CudaDriver::createTimer(EventTimer &timer) const {
  timer.destroy();
  timer.driver = this;
  if (Status status =
          check(entryPoints.cuEventCreate(&timer.startEvent, CU_EVENT_DEFAULT),
                "cuEventCreate");
      !status)
    return status;
  return check(entryPoints.cuEventCreate(&timer.endEvent, CU_EVENT_DEFAULT),
               "cuEventCreate");
}

Status CudaDriver::createStream(Stream &stream) const {
  stream.destroy();
  stream.driver = this;
  // CU_STREAM_DEFAULT: work on it waits for the copies and fills the
  // DeviceBuffer helpers make on the legacy default stream.
  return check(entryPoints.cuStreamCreate(&stream.stream, 0),
               "cuStreamCreate");
}

Status CudaDriver::synchronize() const {
  return check(entryPoints.cuCtxSynchronize(), "cuCtxSynchronize");
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : driver(other.driver), pointer(other.pointer),
      sizeInBytes(other.sizeInBytes) {
  other.driver = nullptr;
  other.pointer = 0;
  other.sizeInBytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    (void)release();
    std::swap(driver, other.driver);
    std::swap(pointer, other.pointer);
    std::swap(sizeInBytes, other.sizeInBytes);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { (void)release(); }

Status DeviceBuffer::release() {
  if (!pointer)
    return Status::success();
  CUresult result = driver->api().cuMemFree(pointer);
  pointer = 0;
  sizeInBytes = 0;
  return driver->check(result, "cuMemFree");
}

Status DeviceBuffer::checkFits(size_t bytes, const char *call) const {
  if (!pointer)
    return Status::failure(std::string(call) +
                           " on a buffer that is not allocated");
  if (bytes > sizeInBytes)
    return Status::failure(std::string(call) + " of " + std::to_string(bytes) +
                           " bytes into a buffer of " +
                           std::to_string(sizeInBytes));
  return Status::success();
}

Status DeviceBuffer::copyFromHost(const void *source, size_t bytes) {
  if (Status status = checkFits(bytes, "cuMemcpyHtoD"); !status)
    return status;
  return driver->check(driver->api().cuMemcpyHtoD(pointer, source, bytes),
                       "cuMemcpyHtoD");
}

Status DeviceBuffer::copyToHost(void *destination, size_t bytes) const {
  if (Status status = checkFits(bytes, "cuMemcpyDtoH"); !status)
    return status;
  return driver->check(driver->api().cuMemcpyDtoH(destination, pointer, bytes),
                       "cuMemcpyDtoH");
}

Status DeviceBuffer::copyFromDevice(const DeviceBuffer &source, size_t bytes) {
  if (Status status = checkFits(bytes, "cuMemcpyDtoD"); !status)
    return status;
  if (Status status = source.checkFits(bytes, "cuMemcpyDtoD"); !status)
    return status;
  return driver->check(
      driver->api().cuMemcpyDtoD(pointer, source.pointer, bytes),
      "cuMemcpyDtoD");
}

Status DeviceBuffer::fillBytes(uint8_t value) {
  if (Status status = checkFits(0, "cuMemsetD8"); !status)
    return status;
  return driver->check(driver->api().cuMemsetD8(pointer, value, sizeInBytes),
                       "cuMemsetD8");
}

Status DeviceBuffer::fill16(uint16_t pattern) {
  if (Status status = checkFits(0, "cuMemsetD16"); !status)
    return status;
  if (sizeInBytes % 2 != 0)
    return Status::failure("cuMemsetD16 on a buffer of odd size " +
                           std::to_string(sizeInBytes));
  return driver->check(
      driver->api().cuMemsetD16(pointer, pattern, sizeInBytes / 2),
      "cuMemsetD16");
}

Status DeviceBuffer::fill32(uint32_t pattern) {
  if (Status status = checkFits(0, "cuMemsetD32"); !status)
    return status;
  if (sizeInBytes % 4 != 0)
    return Status::failure("cuMemsetD32 on a buffer of " +
                           std::to_string(sizeInBytes) +
                           " bytes, not a multiple of 4");
  return driver->check(
      driver->api().cuMemsetD32(pointer, pattern, sizeInBytes / 4),
      "cuMemsetD32");
}

//===----------------------------------------------------------------------===//
// KernelModule and Kernel
//===----------------------------------------------------------------------===//

KernelModule::KernelModule(KernelModule &&other) noexcept
    : driver(other.driver), module(other.module) {
  other.driver = nullptr;
  other.module = nullptr;
}

KernelModule &KernelModule::operator=(KernelModule &&other) noexcept {
  if (this != &other) {
    (void)unload();
    std::swap(driver, other.driver);
    std::swap(module, other.module);
  }
  return *this;
}

KernelModule::~KernelModule() { (void)unload(); }

Status KernelModule::unload() {
  if (!module)
    return Status::success();
  CUresult result = driver->api().cuModuleUnload(module);
  module = nullptr;
  return driver->check(result, "cuModuleUnload");
}

Status KernelModule::getKernel(const std::string &name, Kernel &kernel) const {
  if (!module)
    return Status::failure(
        "cuModuleGetFunction on a module that is not loaded");
  CUfunction function = nullptr;
  if (Status status = driver->check(
          driver->api().cuModuleGetFunction(&function, module, name.c_str()),
          "cuModuleGetFunction", "kernel '" + name + "'");
      !status)
    return status;
  kernel.driver = driver;
  kernel.function = function;
  kernel.kernelName = name;
  return Status::success();
}

Status Kernel::attributes(KernelAttributes &attributes) const {
  struct AttributeQuery {
    CUfunction_attribute attribute;
    int &value;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, attributes.registersPerThread},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, attributes.localBytesPerThread},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, attributes.staticSharedBytes},
      {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
       attributes.maxDynamicSharedBytes},
  };
  for (AttributeQuery &query : queries) {
    if (Status status =
            driver->check(driver->api().cuFuncGetAttribute(
                              &query.value, query.attribute, function),
                          "cuFuncGetAttribute", "kernel '" + kernelName + "'");
        !status)
      return status;
  }
  return Status::success();
}

Status Kernel::setMaxDynamicSharedBytes(int bytes) const {
  return driver->check(
      driver->api().cuFuncSetAttribute(
          function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
      "cuFuncSetAttribute",
      "kernel '" + kernelName + "', max dynamic shared " +
          std::to_string(bytes) + " B");
}

Status Kernel::allowNonPortableClusterSize() const {
  return driver->check(
      driver->api().cuFuncSetAttribute(
          function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
      "cuFuncSetAttribute",
      "kernel '" + kernelName + "', non-portable cluster size");
}

Status Kernel::maxActiveBlocksPerMultiprocessor(int blockThreads,
                                                size_t dynamicSharedBytes,
                                                int &blocks) const {
  return driver->check(
      driver->api().cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &blocks, function, blockThreads, dynamicSharedBytes),
      "cuOccupancyMaxActiveBlocksPerMultiprocessor",
      "kernel '" + kernelName + "'");
}

Status Kernel::maxActiveClusters(int clusterCtas, int blockThreads,
                                 size_t dynamicSharedBytes,
                                 int &clusters) const {
  if (!driver->api().cuOccupancyMaxActiveClusters)
    return Status::failure("the NVIDIA driver has no "
                           "cuOccupancyMaxActiveClusters (before CUDA 11.8): "
                           "kernel '" +
                           kernelName + "' runs on clusters");
  CUlaunchConfig config = {};
  config.gridDimX = static_cast<unsigned>(clusterCtas);
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = static_cast<unsigned>(blockThreads);
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = static_cast<unsigned>(dynamicSharedBytes);
  return driver->check(
      driver->api().cuOccupancyMaxActiveClusters(&clusters, function, &config),
      "cuOccupancyMaxActiveClusters", "kernel '" + kernelName + "'");
}

Status Kernel::launch(const LaunchConfig &config, void **arguments,
                      CUstream stream) const {
  if (!function)
    return Status::failure("cuLaunchKernel of a kernel that was never looked "
                           "up (KernelModule::getKernel)");
  const Dim3 &grid = config.grid, &block = config.block;
  const CudaDriverApi &api = driver->api();
  CUresult result =
      config.cooperative
          ? api.cuLaunchCooperativeKernel(
                function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                config.dynamicSharedBytes, stream, arguments)
          : api.cuLaunchKernel(function, grid.x, grid.y, grid.z, block.x,
                               block.y, block.z, config.dynamicSharedBytes,
                               stream, arguments, /*extra=*/nullptr);
  // Launches are timed in loops: build the context string only on failure.
  if (result == CUDA_SUCCESS)
    return Status::success();
  return driver->check(
      result,
      config.cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel",
      "kernel '" + kernelName + "', grid " + dimensionsToString(grid) +
          ", block " + dimensionsToString(block) + ", dynamic shared " +
          std::to_string(config.dynamicSharedBytes) + " B");
}

//===----------------------------------------------------------------------===//
// EventTimer
//===----------------------------------------------------------------------===//

EventTimer::EventTimer(EventTimer &&other) noexcept
    : driver(other.driver), startEvent(other.startEvent),
      endEvent(other.endEvent) {
  other.driver = nullptr;
  other.startEvent = nullptr;
  other.endEvent = nullptr;
}

EventTimer &EventTimer::operator=(EventTimer &&other) noexcept {
  if (this != &other) {
    destroy();
    std::swap(driver, other.driver);
    std::swap(startEvent, other.startEvent);
    std::swap(endEvent, other.endEvent);
  }
  return *this;
}

EventTimer::~EventTimer() { destroy(); }

void EventTimer::destroy() {
  // Errors are ignored: this runs from destructors, and a destroyed event
  // needs no further handling.
  for (CUevent *event : {&startEvent, &endEvent}) {
    if (*event)
      driver->api().cuEventDestroy(*event);
    *event = nullptr;
  }
}

Status EventTimer::start() {
  if (!startEvent)
    return Status::failure(
        "cuEventRecord on a timer without events (CudaDriver::createTimer)");
  return driver->check(driver->api().cuEventRecord(startEvent, nullptr),
                       "cuEventRecord");
}

Status EventTimer::stop(float &milliseconds) {
  if (!endEvent)
    return Status::failure(
        "cuEventRecord on a timer without events (CudaDriver::createTimer)");
  const CudaDriverApi &api = driver->api();
  if (Status status =
          driver->check(api.cuEventRecord(endEvent, nullptr), "cuEventRecord");
      !status)
    return status;
  if (Status status =
          driver->check(api.cuEventSynchronize(endEvent), "cuEventSynchronize");
      !status)
    return status;
  return driver->check(
      api.cuEventElapsedTime(&milliseconds, startEvent, endEvent),
      "cuEventElapsedTime");
}

Stream::Stream(Stream &&other) noexcept
    : driver(other.driver), stream(other.stream) {
  other.driver = nullptr;
  other.stream = nullptr;
}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    destroy();
    std::swap(driver, other.driver);
    std::swap(stream, other.stream);
  }
  return *this;
}

Stream::~Stream() { destroy(); }

void Stream::destroy() {
  if (stream)
    (void)driver->api().cuStreamDestroy(stream);
  stream = nullptr;
}

Status Stream::synchronize() const {
  if (!stream)
    return Status::failure("cuStreamSynchronize of a stream never created");
  return driver->check(driver->api().cuStreamSynchronize(stream),
                       "cuStreamSynchronize");
}

} // namespace blk::runtime
