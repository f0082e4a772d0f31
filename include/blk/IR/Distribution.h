//===- Distribution.h - which elements of a block each thread holds -*- C++ -*-===//
//
// The arithmetic behind #blk.blocked and #blk.slice, shared by the passes
// that choose layouts and the conversion that emits per-thread code.
//
// For each dimension d of the (parent) layout and a block shape S:
//   e[d]    = min(elems[d], S[d])         elements of one run
//   tile[d] = elems[d] * lanes[d] * warps[d] * ctas[d]
//   reps[d] = max(1, S[d] / tile[d])      tile repetitions
//   c[d]    = reps[d] * e[d]              elements per thread along d
// A thread with coordinate
//   t[d] = (cta[d] * warps[d] + warp[d]) * lanes[d] + lane[d]
// (cta[d] = 0 without a cluster) holds, along
// d, the coordinates base[d] + rep * tile[d] + i (rep < reps[d], i < e[d])
// with base[d] = (t[d] * elems[d]) mod S[d]. Its elements are numbered
// row-major over (local index per dimension), the last dimension fastest, so
// a run of e[last] elements is contiguous in the block and in the thread's
// vector.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IR_DISTRIBUTION_H
#define BLK_IR_DISTRIBUTION_H

#include "blk/IR/BlkDialect.h"

namespace mlir::blk {

/// How a reduction spreads over the threads that hold distinct elements
/// along its dimension: lanes of a warp, warps of a CTA, CTAs of a
/// cluster.
struct ReduceSpread {
  /// The layout (parent) dimension reduced.
  int64_t layoutDim;
  int64_t lanes;
  int64_t warps;
  int64_t ctas;
  /// Results each thread holds (its elements along the other dimensions).
  int64_t resultsPerThread;

  /// Whether partials of several warps or CTAs are combined (through
  /// shared memory and a barrier).
  bool crossesWarps() const { return warps * ctas > 1; }
};

class Distribution {
public:
  /// The distribution of a block type carrying a #blk.blocked or #blk.slice
  /// encoding; failure for any other type.
  static FailureOr<Distribution> get(Type type);

  BlockedLayoutAttr getLayout() const { return layout; }
  /// The dimension removed by a slice encoding, if any.
  std::optional<int64_t> getSlicedDim() const { return slicedDim; }
  /// The block's shape in the layout's rank (a sliced dimension has size 1).
  ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }

  /// Elements each thread holds.
  int64_t getNumElements() const;
  /// Elements each thread holds along dimension `d` (c[d]).
  int64_t getCount(int64_t d) const;
  /// Elements of one run along `d` (e[d]).
  int64_t getRunLength(int64_t d) const;
  int64_t getTile(int64_t d) const;
  /// Whether thread coordinates along `d` wrap around (the block is smaller
  /// than the tile, so several threads hold the same elements).
  bool wraps(int64_t d) const { return shape[d] < getTile(d); }
  /// How many thread coordinates along `d` (over the lanes, warps and CTAs)
  /// hold different elements.
  int64_t getDistinctThreads(int64_t d) const;
  /// The dimension of the layout (parent) that dimension `dim` of the
  /// block stands for.
  int64_t getLayoutDim(int64_t dim) const;
  /// How a reduction along dimension `axis` of the block is spread.
  ReduceSpread getReduceSpread(int64_t axis) const;
  /// Offset of element `k` of a thread from its base coordinate, per
  /// dimension.
  SmallVector<int64_t> getElementOffsets(int64_t k) const;
  /// Index of the element with local indices `local` (one per dimension).
  int64_t getElementIndex(ArrayRef<int64_t> local) const;
  /// Local index per dimension of element `k`.
  SmallVector<int64_t> getLocalIndices(int64_t k) const;

private:
  BlockedLayoutAttr layout;
  std::optional<int64_t> slicedDim;
  SmallVector<int64_t> shape;
};

/// Shared memory a CTA spends keeping a block of `type` (blk.local_alloc):
/// every thread's elements, in the layout's threads of one CTA. Fails for a
/// type without a layout.
FailureOr<int64_t> getKeptBlockBytes(RankedTensorType type);

/// Elements a thread moves as one vector in the access `op` (a blk.load,
/// blk.store or blk.async_copy) of a block distributed as `distribution`:
/// its `blk.vector` width, but never more than the run of consecutive
/// elements a thread holds (a hand-written width could exceed it); 1
/// without the attribute or on a sliced layout.
int64_t getAccessVectorWidth(Operation *op, const Distribution &distribution);

} // namespace mlir::blk

#endif // BLK_IR_DISTRIBUTION_H
