//===- GpuProgram.cpp - launch a compiled program on the caller's memory --===//
#include "blk/Runtime/GpuProgram.h"

#include <algorithm>
#include <cstdint>
#include <optional>

using namespace blk::runtime;

Status GpuProgram::load(const CudaDriver &driver, ProgramImage image,
                        std::unique_ptr<GpuProgram> &program) {
  if (!image.isGPU())
    return Status::failure("a program compiled for '" + image.target +
                           "' cannot be loaded on a GPU");
  std::unique_ptr<GpuProgram> loaded(new GpuProgram(driver, std::move(image)));
  const ProgramImage &compiled = loaded->programImage;
  if (Status status = driver.loadModule(compiled.ptx, loaded->module); !status)
    return status;
  for (size_t k = 0; k < compiled.signatures.size(); ++k) {
    const KernelLaunch &launch = compiled.launches[k];
    Kernel kernel;
    if (Status status =
            loaded->module.getKernel(compiled.signatures[k].name, kernel);
        !status)
      return status;
    if (launch.nonPortableCluster)
      if (Status status = kernel.allowNonPortableClusterSize(); !status)
        return status;
    if (launch.sharedMemoryOptIn)
      if (Status status = kernel.setMaxDynamicSharedBytes(
              static_cast<int>(launch.dynamicSharedBytes));
          !status)
        return status;
    // A persistent kernel's programs: as many as the GPU keeps resident
    // (launch() takes fewer for fewer rows); 0 for a grid of the rows.
    int64_t resident = 0;
    if (launch.grid == GridKind::persistent && launch.ctas > 1) {
      // Clusters are placed whole within a GPC: the driver knows how many
      // fit at once, SMs x CTAs per SM / cluster size overcounts.
      int clusters = 0;
      if (Status status = kernel.maxActiveClusters(
              static_cast<int>(launch.ctas), static_cast<int>(launch.threads),
              static_cast<size_t>(launch.dynamicSharedBytes), clusters);
          !status)
        return status;
      resident = std::max(1, clusters);
    } else if (launch.grid == GridKind::persistent) {
      int blocksPerSM = 0;
      if (Status status = kernel.maxActiveBlocksPerMultiprocessor(
              static_cast<int>(launch.threads),
              static_cast<size_t>(launch.dynamicSharedBytes), blocksPerSM);
          !status)
        return status;
      resident = int64_t(driver.device().multiprocessorCount) *
                 std::max(1, blocksPerSM);
      // Programs that wait for each other must all be running.
      if (resident < launch.residentPrograms)
        return Status::failure(
            "kernel @" + compiled.signatures[k].name + " needs " +
            std::to_string(launch.residentPrograms) +
            " programs resident at once (they wait for each other), but " +
            driver.device().name + " keeps " + std::to_string(resident) +
            " programs of " + std::to_string(launch.threads) +
            " threads at once");
    }
    loaded->kernels.push_back(kernel);
    loaded->residentLimits.push_back(resident);
  }
  program = std::move(loaded);
  return Status::success();
}

/// CTAs of a grid along y (CUDA's limit).
constexpr int64_t kMaxGridY = 65535;

Status GpuProgram::getGrid(size_t k, int64_t rows, int64_t &grid) const {
  const std::string &name = programImage.signatures[k].name;
  const KernelLaunch &launch = programImage.launches[k];
  grid = programImage.getGrid(rows);
  if (launch.grid == GridKind::persistent) {
    // A persistent kernel walks its programs' work with 32-bit numbers
    // (rows, or rows x parts in softmax_split_resident).
    if (grid > INT32_MAX)
      return Status::failure("kernel @" + name + " walks " +
                             std::to_string(grid) +
                             " programs' work, more than 32-bit numbers "
                             "reach (2^31 - 1)");
    grid = std::min(grid, residentLimits[k]);
  }
  // ... and there must be as many as meet.
  if (grid < launch.residentPrograms)
    return Status::failure("kernel @" + name + " waits for " +
                           std::to_string(launch.residentPrograms) +
                           " programs at once, but " + std::to_string(rows) +
                           " rows give it " + std::to_string(grid));
  // cuLaunchKernel's grid is at most 2^31 - 1 CTAs in x.
  if (grid < 1 || grid > INT32_MAX / launch.ctas)
    return Status::failure("kernel @" + name + " needs " +
                           std::to_string(grid) + " programs of " +
                           std::to_string(launch.ctas) +
                           " CTAs, more than a launch can have (2^31 - 1 "
                           "CTAs)");
  return Status::success();
}

Status GpuProgram::fitScratch(int64_t rows) {
  if (rows <= scratchRows)
    return Status::success();
  // Launches before this one may still use the smaller buffers.
  if (!scratch.empty())
    if (Status status = driver.synchronize(); !status)
      return status;
  scratch.clear();
  ProgramShape shape = programImage.shapes.withRows(rows);
  for (const KernelArgument &argument :
       getTensorArguments(programImage.signatures)) {
    if (argument.role != ArgRole::scratch)
      continue;
    size_t bytes = 0;
    if (Status status = getTensorBytes(argument, shape, bytes); !status)
      return status;
    DeviceBuffer buffer;
    if (Status status = driver.allocate(bytes, buffer); !status)
      return status;
    // Counters (blk.program_barrier) start at zero.
    if (Status status = buffer.fillBytes(0); !status)
      return status;
    scratch.emplace_back(argument.name, std::move(buffer));
  }
  // The zeroing runs on the legacy stream, which a caller's non-blocking
  // stream does not wait for: it is done before the launch.
  if (!scratch.empty())
    if (Status status = driver.synchronize(); !status)
      return status;
  scratchRows = rows;
  return Status::success();
}

Status GpuProgram::launch(const LaunchArguments &arguments, CUstream stream) {
  if (Status status = checkShape(programImage, arguments); !status)
    return status;
  if (Status status = checkTensorsApart(programImage, arguments); !status)
    return status;
  std::vector<int64_t> grids(kernels.size());
  for (size_t k = 0; k < kernels.size(); ++k)
    if (Status status = getGrid(k, arguments.rows(), grids[k]); !status)
      return status;
  // cuLaunchKernel's grid is at most 65535 CTAs in y.
  if (arguments.getShape().getInstances() > kMaxGridY)
    return Status::failure(
        "a batch of " + std::to_string(arguments.batch()) + " x " +
        std::to_string(arguments.heads()) +
        " problems needs more programs along y than a launch has (65535)");
  if (Status status = fitScratch(arguments.rows()); !status)
    return status;
  // The caller's arguments, and the program's scratch tensors if it has any.
  const LaunchArguments *bound = &arguments;
  std::optional<LaunchArguments> withScratch;
  if (!scratch.empty()) {
    withScratch = arguments;
    for (const auto &[name, buffer] : scratch)
      withScratch->tensor(name, buffer.devicePointer());
    bound = &*withScratch;
  }
  PackedArguments packed;
  for (size_t k = 0; k < kernels.size(); ++k) {
    const KernelLaunch &record = programImage.launches[k];
    if (Status status = packArguments(
            programImage.signatures[k], *bound, packed, record.tensorMaps,
            [this](const TensorMapRequest &request, TensorMapBytes &map) {
              return driver.encodeTensorMap(request, map);
            });
        !status)
      return status;
    LaunchConfig config;
    // A program is a cluster of `ctas` CTAs, numbered consecutively;
    // getGrid checked that the grid fits.
    config.grid.x = static_cast<unsigned>(grids[k] * record.ctas);
    // A batch's instances along y (blk.program_id y); checkInstances made
    // sure the count fits.
    config.grid.y = static_cast<unsigned>(arguments.getShape().getInstances());
    config.block.x = static_cast<unsigned>(record.threads);
    config.dynamicSharedBytes =
        static_cast<unsigned>(record.dynamicSharedBytes);
    // Programs that meet (blk.program_barrier) are resident at once because
    // the driver says so, not only because load() sized the grid to the
    // GPU's occupancy: a GPU shared with other work may not place them all.
    config.cooperative = record.residentPrograms > 0;
    if (Status status = kernels[k].launch(config, packed.slots.data(), stream);
        !status)
      return status;
  }
  return Status::success();
}

Status GpuProgram::describe(std::string &report) const {
  for (size_t k = 0; k < kernels.size(); ++k) {
    const KernelLaunch &record = programImage.launches[k];
    KernelAttributes attributes;
    if (Status status = kernels[k].attributes(attributes); !status)
      return status;
    int blocksPerSM = 0;
    if (Status status = kernels[k].maxActiveBlocksPerMultiprocessor(
            static_cast<int>(record.threads),
            static_cast<size_t>(record.dynamicSharedBytes), blocksPerSM);
        !status)
      return status;
    report +=
        "  kernel @" + programImage.signatures[k].name + ": " +
        std::to_string(record.threads) + " threads, " +
        std::to_string(attributes.registersPerThread) + " registers, " +
        std::to_string(attributes.localBytesPerThread) +
        " local (spill) bytes, " +
        std::to_string(attributes.staticSharedBytes) + " B static " +
        (record.dynamicSharedBytes > 0
             ? "+ " + std::to_string(record.dynamicSharedBytes) + " B dynamic "
             : std::string()) +
        "shared, occupancy " + std::to_string(blocksPerSM) + " CTAs/SM" +
        (record.ctas > 1 ? ", " + std::to_string(record.ctas) + " CTAs/program"
                         : std::string()) +
        "\n";
  }
  return Status::success();
}
