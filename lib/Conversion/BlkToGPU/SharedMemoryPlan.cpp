//===- SharedMemoryPlan.cpp - shared memory of convert-blk-to-gpu ---------===//
#include "SharedMemoryPlan.h"
#include "Patterns.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::blk;

static int64_t totalBytes(ArrayRef<MemRefType> buffers) {
  int64_t bytes = 0;
  for (MemRefType buffer : buffers)
    bytes += buffer.getNumElements() * buffer.getElementTypeBitWidth() / 8;
  return bytes;
}

LogicalResult mlir::blk::planSharedMemory(func::FuncOp kernel,
                                          int64_t maxSharedBytes,
                                          WorkgroupPlan &plan) {
  SmallVector<MemRefType> &buffers = plan.buffers[kernel];
  int64_t clusterBytes = 0;
  Operation *lastClusterReduce = nullptr;
  kernel.walk([&](ReduceOp reduce) {
    if (std::optional<MemRefType> buffer = getReduceBuffer(reduce)) {
      plan.bufferOf[reduce] = buffers.size();
      buffers.push_back(*buffer);
    }
    if (int64_t slots = getClusterReduceSlots(reduce)) {
      Type element = reduce.getSrc().getType().getElementType();
      clusterBytes += slots * element.getIntOrFloatBitWidth() / 8;
      plan.clusterPartials.push_back(
          {reduce, LLVM::LLVMArrayType::get(element, slots)});
      plan.readsAcrossCtas.insert(kernel.getSymName());
      lastClusterReduce = reduce;
    }
  });
  // The walk visits reductions in program order.
  if (lastClusterReduce && lastClusterReduce->getParentOp() == kernel)
    plan.exitArriveOf[kernel.getSymName()] = lastClusterReduce;
  int64_t sharedBytes = totalBytes(buffers) + clusterBytes;
  if (sharedBytes > maxSharedBytes)
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " needs " << sharedBytes
           << " bytes of shared memory for its reductions, over the "
           << maxSharedBytes << "-byte static limit; use fewer warps or rows";
  plan.sharedBytes[kernel] = sharedBytes;
  return success();
}

void mlir::blk::createClusterBuffers(gpu::GPUModuleOp gpuModule,
                                     WorkgroupPlan &plan) {
  auto builder = OpBuilder::atBlockBegin(gpuModule.getBody());
  for (auto [index, partial] : llvm::enumerate(plan.clusterPartials)) {
    auto [reduce, type] = partial;
    plan.clusterBufferOf[reduce] = LLVM::GlobalOp::create(
        builder, reduce->getLoc(), type, /*isConstant=*/false,
        LLVM::Linkage::Internal,
        "blk_cluster_partials_" + std::to_string(index), Attribute(),
        /*alignment=*/16,
        static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  }
}

ArrayAttr mlir::blk::buildLaunchRecords(MLIRContext *context,
                                        ArrayRef<func::FuncOp> kernels,
                                        const WorkgroupPlan &plan) {
  SmallVector<Attribute> launches;
  for (func::FuncOp kernel : kernels) {
    KernelAttr attr = getKernelAttr(kernel);
    launches.push_back(LaunchAttr::get(
        context, kernel.getSymName(), kWarpSize * attr.getNumWarps(),
        attr.getNumCtas(), plan.sharedBytes.lookup(kernel),
        /*dynamicSharedBytes=*/0, attr.getGrid(),
        kernel.getArgumentTypes()));
  }
  return ArrayAttr::get(context, launches);
}
