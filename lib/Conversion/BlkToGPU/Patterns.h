//===- Patterns.h - pieces of convert-blk-to-gpu ----------------*- C++ -*-===//
//
// Internal to the conversion: the type converter, helpers that compute what
// a thread holds, and the pattern groups (one file each).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_CONVERSION_BLKTOGPU_PATTERNS_H
#define LIB_CONVERSION_BLKTOGPU_PATTERNS_H

#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::blk {

/// Blocks become the vector of elements one thread holds; pointers become
/// global-memory LLVM pointers.
class BlkToGPUTypeConverter : public TypeConverter {
public:
  explicit BlkToGPUTypeConverter(MLIRContext *context);
};

/// Workgroup memory: a buffer per reduction that crosses warps, and a
/// shared-memory global per reduction that crosses the CTAs of a cluster
/// (read by the other CTAs through distributed shared memory).
struct WorkgroupPlan {
  /// The buffers of each kernel (keyed by its func.func).
  llvm::DenseMap<Operation *, SmallVector<MemRefType>> buffers;
  /// Index of each such reduction's buffer among its kernel's buffers.
  llvm::DenseMap<Operation *, unsigned> bufferOf;
  /// The global (in the gpu.module) of each reduction across CTAs.
  llvm::DenseMap<Operation *, LLVM::GlobalOp> clusterBufferOf;
  /// Kernels whose CTAs read each other's shared memory.
  llvm::StringSet<> readsAcrossCtas;
  /// The last reduction across CTAs of each kernel, when it is not in a loop:
  /// it arrives at the kernel's exit barrier as soon as its reads are done,
  /// and the kernel only waits there before it returns, so the wait is hidden
  /// behind the stores.
  llvm::StringMap<Operation *> exitArriveOf;
};

/// The workgroup buffer a reduction needs when it combines several warps.
std::optional<MemRefType> getReduceBuffer(ReduceOp reduce);

/// Elements of the shared-memory buffer a reduction needs when it combines
/// the CTAs of a cluster (0 when it does not).
int64_t getClusterReduceSlots(ReduceOp reduce);

Value createI32Constant(OpBuilder &builder, Location loc, int64_t value);

/// Lane (0..31) and warp index of the current thread, as i32.
struct ThreadIds {
  Value lane;
  Value warp;
};
ThreadIds createThreadIds(OpBuilder &builder, Location loc);

/// This CTA's rank in its cluster, as i32.
Value createClusterRank(OpBuilder &builder, Location loc);

/// Every thread of the cluster waits until all have arrived; what each
/// wrote to shared memory before is visible to all after.
void createClusterBarrier(OpBuilder &builder, Location loc);

/// The thread's base coordinate along each dimension of the layout.
SmallVector<Value> createThreadBase(OpBuilder &builder, Location loc,
                                    const Distribution &distribution,
                                    ThreadIds ids);

/// The dimension of the layout (parent) that dimension `dim` of a block
/// with this distribution stands for.
int64_t getLayoutDim(const Distribution &distribution, int64_t dim);

SmallVector<Value> extractElements(OpBuilder &builder, Location loc,
                                   Value vector);

void populateBlockOpPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);
/// The loads and stores under `root` whose mask is provably the same for all
/// elements of each vector run (`x < n` with n a multiple of the run): those
/// move whole runs or nothing and need no element-by-element path.
llvm::DenseSet<Operation *> findUniformMaskRuns(Operation *root);

void populateMemoryOpPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns,
                              const llvm::DenseSet<Operation *> &uniformMaskRuns);
void populateReduceOpPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns,
                              const WorkgroupPlan &plan);

} // namespace mlir::blk

#endif // LIB_CONVERSION_BLKTOGPU_PATTERNS_H
