//===- Patterns.h - pieces of convert-blk-to-gpu ----------------*- C++ -*-===//
//
// Internal to the conversion: the type converter, helpers that compute what
// a thread holds, and the pattern groups (one file each).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_CONVERSION_BLKTOGPU_PATTERNS_H
#define LIB_CONVERSION_BLKTOGPU_PATTERNS_H

#include "SharedMemoryPlan.h"
#include "blk/IR/Distribution.h"
#include "blk/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::blk {

/// Blocks become the vector of elements one thread holds; pointers become
/// global-memory LLVM pointers; a block in shared memory becomes the
/// shared-memory address of the thread's first chunk of it.
class BlkToGPUTypeConverter : public TypeConverter {
public:
  explicit BlkToGPUTypeConverter(MLIRContext *context);
};

/// The type of a reduction's partials as threads exchange them: the
/// element type, f32 or i32 for narrower floats and integers (shuffles move
/// 32 bits; max and min are exact there, a float sum keeps f32's precision,
/// an integer sum wraps the same), or an i64 for blk.max_exp_sum's (max,
/// sum) pairs.
Type getPartialType(ReductionOpInterface reduce);

/// The workgroup buffer a reduction needs when it combines several warps.
std::optional<MemRefType> getReduceBuffer(ReductionOpInterface reduce);

/// Partials in the shared-memory buffer a reduction needs when it combines
/// the CTAs of a cluster (0 when it does not).
int64_t getClusterReduceSlots(ReductionOpInterface reduce);

Value createI32Constant(OpBuilder &builder, Location loc, int64_t value);
/// `x` * `scale` + `offset` (none: 0), in i32.
Value createMulAdd(OpBuilder &b, Location loc, Value x, int64_t scale,
                   Value offset);
/// An f32 constant (`value` rounded to f32).
Value createF32Constant(OpBuilder &builder, Location loc, double value);

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

/// True in the threads that hold their elements first, where a block
/// smaller than its layout's tile is held by several threads (a wrapping
/// dimension); null where no dimension wraps.
Value createFirstHolderPredicate(OpBuilder &builder, Location loc,
                                 const Distribution &distribution);

SmallVector<Value> extractElements(OpBuilder &builder, Location loc,
                                   Value vector);

void populateBlockOpPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);
/// f32 exp, exp2, log, log2 and rsqrt without libdevice (MathOps.cpp), and the
/// target that keeps them from staying math ops.
void populateMathOpPatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns);
void markMathOpsIllegal(ConversionTarget &target);
/// f32 e^x as math.exp lowers: ex2.approx.ftz of x log2(e).
Value createExp(OpBuilder &b, Location loc, Value x);
/// How one blk.load or blk.store moves a thread's elements, decided once
/// from the blk program (its layout, `blk.vector` and the access analysis of
/// its mask) before any op is converted.
struct AccessPlan {
  /// Consecutive elements moved as one vector (1: element by element).
  int64_t width = 1;
  /// Bytes each vector is aligned to (the vector's size).
  int64_t alignment = 0;
  /// The mask is provably the same for all elements of each vector run
  /// (`x < n` with n a multiple of the run): runs move whole or not at all,
  /// with no element-by-element path.
  bool uniformMaskRuns = false;
  /// The runs are consecutive memory, but start on a boundary of
  /// `alignment` bytes only at run time (`blk.realign`): each lane moves the
  /// aligned chunk around its run's first element and exchanges the rest
  /// with its neighbour lanes. The mask, if any, is `offsets < bound`.
  bool realign = false;
  /// The access runs only where its aligned twin cannot (`blk.fallback`):
  /// its addresses are computed where it uses them, so that nothing of it
  /// stays live in registers through the twin's kernel.
  bool fallback = false;
};
using AccessPlans = llvm::DenseMap<Operation *, AccessPlan>;

/// The plan of every load, store and asynchronous copy under `root` that
/// has a layout.
AccessPlans planAccesses(Operation *root);

/// Every blk.async_copy under `root` (in a kernel: checkOutsideKernels
/// came first) is outside loops, moves whole 16-byte runs (its plan) on a
/// chip with cp.async, and is waited for before its buffer is read; every
/// blk.async_copy_into moves whole 16-byte runs on such a chip; otherwise a
/// diagnostic at the first op that is not so.
LogicalResult checkKeptBlocks(Operation *root, const AccessPlans &plans,
                               const TargetInfo &target);

/// blk.load and blk.store, blk.async_copy and blk.async_wait (copies into
/// the buffers `workgroup` placed), blk.async_copy_into and its groups.
void populateMemoryOpPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns,
                              const AccessPlans &plans,
                              const WorkgroupPlan &workgroup);
/// How a thread's elements of a block kept in shared memory (blk.local_alloc,
/// blk.async_copy) lie in its buffer: thread-major chunks of up to 16 bytes,
/// chunk c of thread t at (c * threads + t) * chunk bytes from the buffer's
/// start (SharedMemoryOps.cpp says why).
struct KeptChunks {
  int64_t elements;
  /// Elements per chunk: the largest power of two dividing `elements` that
  /// fits 16 bytes.
  int64_t width;
  int64_t elementBytes;
  int64_t threads;

  /// For a block of `type` (it has a layout).
  static KeptChunks get(RankedTensorType type);
  int64_t getChunkBytes() const { return width * elementBytes; }
  int64_t getNumChunks() const { return elements / width; }
  /// The thread's address of its chunk 0 in the buffer of `keeper` (a
  /// blk.local_alloc or blk.async_copy the plan placed).
  Value createBase(OpBuilder &builder, Location loc, const WorkgroupPlan &plan,
                   Operation *keeper) const;
  /// Address of chunk `chunk` of the thread whose chunk 0 is at `base`.
  Value createChunkAddress(OpBuilder &builder, Location loc, Value base,
                           int64_t chunk) const;
};

/// The address, in the block of `blockShape` at `start` arranged as
/// `encoding` says, of the run starting at the thread's element `k` of
/// `distribution` (`base`: the thread's base coordinates,
/// createThreadBase). The run goes along a panel row: along the block's
/// rows, or down its columns where the encoding is transposed.
Value createSwizzledRunAddress(OpBuilder &b, Location loc,
                               const Distribution &distribution,
                               ArrayRef<Value> base, int64_t k, Value start,
                               ArrayRef<int64_t> blockShape,
                               SwizzledSharedAttr encoding);

/// Stores the thread's elements (`vector`) of a 16-bit block of `shape`,
/// laid out as `distribution`, at `region` where wgmma reads them, arranged
/// as `encoding` says (createSwizzledRunAddress); runs along a panel row go
/// as vector stores.
void storeSwizzled(OpBuilder &b, Location loc,
                   const Distribution &distribution, Value vector,
                   Value region, ThreadIds ids, ArrayRef<int64_t> shape,
                   SwizzledSharedAttr encoding);

/// blk.local_alloc (a kept block's chunks, or a #blk.swizzled buffer's
/// start), blk.local_load and blk.local_index.
void populateSharedMemoryOpPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const WorkgroupPlan &plan);
/// `row` (i32) with the bits of `rotation` rotated left by one
/// (BitRotation::apply, at run time).
Value createRotatedRow(OpBuilder &b, Location loc, Value row,
                       BitRotation rotation);

/// blk.init_barriers (the plan's mbarriers), blk.barrier_expect,
/// blk.tensor_copy_into (TMA) and blk.wait_barrier.
void populateTensorCopyOpPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const WorkgroupPlan &plan);
/// Every blk.program_barrier of `kernel` counts a number of programs known
/// now: the launcher needs it to keep them all resident.
LogicalResult checkProgramBarriers(func::FuncOp kernel);

/// The most programs a blk.program_barrier of `kernel` waits for (0: it
/// has none).
int64_t getResidentPrograms(func::FuncOp kernel);

/// blk.program_barrier: programs meet at a counter in global memory.
void populateProgramBarrierOpPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// How convert-blk-to-gpu makes a blk.dot (DotOp.cpp): with mma.sync on
/// tensor cores, the accumulator kept in registers or passed through shared
/// memory, or with f32 multiplies and adds.
enum class DotPath { wgmma, mmaInRegisters, mmaThroughShared, scalar };
/// wgmma where the dot fits it (fitsWgmma) and its accumulator has the
/// layout for it; mma where the dot fits mma.sync on the target
/// (fitsMmaSync), in registers where its accumulator's layout holds mma
/// fragments (holdsMmaFragments); else scalar.
DotPath getDotPath(DotOp op, const TargetInfo &target);
/// Bytes of its kernel's dynamic shared memory a blk.dot passes its
/// operands through (and, on the mma path, its accumulator): one copy.
int64_t getDotSharedBytes(DotOp op, const TargetInfo &target);
/// The alignment, in bytes, of a blk.dot's region: wgmma's swizzled
/// panels repeat every 1024 bytes, from a multiple of 1024.
int64_t getDotSharedAlignment(DotOp op, const TargetInfo &target);
/// The scf.for whose iterations may alternate between two copies of the
/// dot's region, so that no barrier comes before its stores: the loop the
/// dot is directly in, counting in i32, in no other loop. Iteration i + 2
/// writes the copy iteration i read only after every warp passed the
/// barrier after iteration i + 1's stores; each entry into the loop starts
/// on the first copy, so a loop entered again (an outer loop) could write
/// it while a slow warp still reads it from the last entry, and under an
/// scf.if an iteration may skip the barrier. Null where it may not.
scf::ForOp getAlternationLoop(DotOp op);
/// The scf.for the dot is directly in where its A is defined outside it
/// (attention's Q): A is stored into the dot's region once, before the
/// loop, and each iteration stores B alone. Null elsewhere, and on the
/// path whose accumulator passes through the region (mmaThroughShared).
scf::ForOp getInvariantALoop(DotOp op, DotPath path);
void populateDotOpPatterns(const TypeConverter &converter,
                           RewritePatternSet &patterns,
                           const WorkgroupPlan &plan,
                           const TargetInfo &target);
void populateReduceOpPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns,
                              const WorkgroupPlan &plan);

} // namespace mlir::blk

#endif // LIB_CONVERSION_BLKTOGPU_PATTERNS_H
