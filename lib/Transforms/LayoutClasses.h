//===- LayoutClasses.h - which blocks of a kernel share a layout -*- C++ -*-===//
//
// blk-distribute gives each class of blocks its own layout. A class is
// every block an op reads or writes (operands and results, a loop's carried
// values, the 1-D blocks expanded to or reduced from a 2-D one), except the
// A and B of a blk.dot (its lowering stores them to shared memory from any
// layout, so a tile of A can be loaded in a coalesced layout while the
// accumulator is held as mma fragments) and the source and result of a
// blk.convert_layout.
//
// Index arithmetic that several classes share (the row offsets of A's tile
// and of C's) would tie them together; unshareRecomputableBlocks first
// gives each use its own copy of it.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_TRANSFORMS_LAYOUTCLASSES_H
#define BLK_LIB_TRANSFORMS_LAYOUTCLASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::blk {

/// An op unshareRecomputableBlocks copied, and the op it copied.
struct RecomputedCopy {
  Operation *copy;
  Operation *original;
};

/// Gives every use of a block computed from scalars alone (constants,
/// splats, aranges, their reshapes and pure elementwise arithmetic on them)
/// its own copy of the ops that compute it, as long as they are few: such
/// blocks cost a few instructions to compute again in another layout.
/// Returns the copies, each after the copies of its operands.
SmallVector<RecomputedCopy> unshareRecomputableBlocks(func::FuncOp func);

/// Replaces each copy that has its original's types, operands and
/// attributes once layouts are chosen (it ended up in the same layout) by
/// the original.
void mergeIdenticalCopies(ArrayRef<RecomputedCopy> copies);

class LayoutClasses {
public:
  /// Groups the blocks of `func`, whose highest block rank is `rank` and
  /// whose recomputed `copies` are those unshareRecomputableBlocks made;
  /// fails (reported) where a 1-D block would have to be a slice of two
  /// dimensions of its class's layout.
  LogicalResult build(func::FuncOp func, int64_t rank,
                      ArrayRef<RecomputedCopy> copies);

  /// A representative of `block`'s class.
  Value getClass(Value block) const { return classes.getLeaderValue(block); }
  /// The dimension of its class's layout that the 1-D `block` is a slice
  /// of; none for a block of the class's rank or one no expand_dims or
  /// reduction ties to a dimension.
  std::optional<int64_t> getSlicedDim(Value block) const;

private:
  void join(Value a, Value b);
  void joinAll(ValueRange values);
  /// Joins each copy whose class has no block of the kernel's highest rank
  /// (a 1-D chain of a 2-D kernel, such as an arange both loaded along and
  /// expanded) to its original's class, as if it had not been copied.
  void keepCopiesWithTheirOriginals(int64_t rank,
                                    ArrayRef<RecomputedCopy> copies);

  /// Blocks that share a layout.
  llvm::EquivalenceClasses<Value> classes;
  /// Blocks of one rank that share a layout and, for 1-D ones, a slice.
  llvm::EquivalenceClasses<Value> sameRank;
  llvm::DenseMap<Value, int64_t> slicedDims;
};

} // namespace mlir::blk

#endif // BLK_LIB_TRANSFORMS_LAYOUTCLASSES_H
