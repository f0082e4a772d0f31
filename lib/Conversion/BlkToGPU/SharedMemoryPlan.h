//===- SharedMemoryPlan.h - shared memory of convert-blk-to-gpu -*- C++ -*-===//
//
// Decided for every kernel before its ops are converted, as Triton's
// AllocateSharedMemory pass does: which reductions get a workgroup buffer
// (across warps) or a shared-memory global (across the CTAs of a cluster),
// where the last cluster reduction arrives at the exit barrier, where each
// block kept by blk.local_alloc lies in dynamic shared memory, where each
// blk.convert_layout passes its block (over regions no longer live there),
// and how many bytes the kernel needs, which the launch records carry.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_CONVERSION_BLKTOGPU_SHAREDMEMORYPLAN_H
#define LIB_CONVERSION_BLKTOGPU_SHAREDMEMORYPLAN_H

#include "blk/IR/BlkDialect.h"
#include "blk/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::blk {

/// Workgroup memory: a buffer per reduction that crosses warps, and a
/// shared-memory global per reduction that crosses the CTAs of a cluster
/// (read by the other CTAs through distributed shared memory).
struct WorkgroupPlan {
  /// The buffers of each kernel (keyed by its func.func).
  llvm::DenseMap<Operation *, SmallVector<MemRefType>> buffers;
  /// Index of each such reduction's buffer among its kernel's buffers.
  llvm::DenseMap<Operation *, unsigned> bufferOf;
  /// Each reduction across CTAs with the type of its global, in the order
  /// the globals are created (and numbered).
  SmallVector<std::pair<Operation *, Type>> clusterPartials;
  /// The global (in the gpu.module) of each reduction across CTAs, once
  /// createClusterBuffers has made them.
  llvm::DenseMap<Operation *, LLVM::GlobalOp> clusterBufferOf;
  /// Each blk.init_barriers with the type of its global (an array of
  /// 64-bit mbarriers), in the order the globals are created; and the
  /// globals, once createSharedGlobals has made them.
  SmallVector<std::pair<Operation *, Type>> barrierArrays;
  llvm::DenseMap<Operation *, LLVM::GlobalOp> barriersOf;
  /// Kernels whose CTAs read each other's shared memory.
  llvm::StringSet<> readsAcrossCtas;
  /// The last reduction across CTAs of each kernel, when it is not in a loop:
  /// it arrives at the kernel's exit barrier as soon as its reads are done,
  /// and the kernel only waits there before it returns, so the wait is hidden
  /// behind the stores.
  llvm::StringMap<Operation *> exitArriveOf;
  /// Static shared memory of each kernel in bytes (keyed by its func.func).
  llvm::DenseMap<Operation *, int64_t> sharedBytes;
  /// Byte offset of each blk.local_alloc's (or blk.async_copy's) buffer, of
  /// each blk.dot's operands and of each blk.convert_layout's scratch
  /// buffer, in its kernel's dynamic shared memory.
  llvm::DenseMap<Operation *, int64_t> stagedOffsetOf;
  /// The second copy of the region of each blk.dot whose loop iterations
  /// alternate between two (getAlternationLoop), where the kernel's shared
  /// memory left room for it.
  llvm::DenseMap<Operation *, int64_t> secondCopyOffsetOf;
  /// Dynamic shared memory of each kernel in bytes (keyed by its func.func).
  llvm::DenseMap<Operation *, int64_t> dynamicSharedBytes;
  /// The gpu.module's dynamic shared memory, once createSharedGlobals has
  /// made it (only where a kernel keeps blocks).
  LLVM::GlobalOp dynamicShared;
  /// The alignment each kernel's regions are planned from (keyed by its
  /// name), where more than 16 bytes: createDynamicSharedStart rounds the
  /// start up to it at run time, the plan leaving room for that; the
  /// largest is the global's declared alignment.
  llvm::StringMap<int64_t> dynamicSharedAlignmentOf;
};

/// The start of the dynamic shared memory of the kernel `user` is in, as
/// its regions are planned: the global's address, rounded up to the
/// kernel's alignment where it needs more than 16 bytes (the declared
/// alignment need not hold after the kernel's static shared memory).
Value createDynamicSharedStart(OpBuilder &builder, Location loc,
                               const WorkgroupPlan &plan, Operation *user);

/// Adds the shared memory of `kernel` to `plan`. Fails, with a diagnostic at
/// the kernel, when its reductions need more static shared memory than the
/// target allows, or all of it more than a CTA of the target may have, or
/// at a blk.local_load that does not read a blk.local_alloc of its layout,
/// or at a blk.convert_layout between blocks not laid out over the kernel's
/// warps in one CTA.
LogicalResult planSharedMemory(func::FuncOp kernel, const TargetInfo &target,
                               WorkgroupPlan &plan);

/// Creates the shared-memory global of every reduction across CTAs at the
/// start of `gpuModule` and records it in `plan.clusterBufferOf`, and the
/// dynamic shared memory where a kernel keeps blocks (plan.dynamicShared).
void createSharedGlobals(gpu::GPUModuleOp gpuModule, WorkgroupPlan &plan);

/// The #blk.launch record of each kernel, with its planned shared memory.
ArrayAttr buildLaunchRecords(MLIRContext *context,
                             ArrayRef<func::FuncOp> kernels,
                             const WorkgroupPlan &plan);

} // namespace mlir::blk

#endif // LIB_CONVERSION_BLKTOGPU_SHAREDMEMORYPLAN_H
