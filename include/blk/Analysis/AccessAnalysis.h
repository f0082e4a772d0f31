//===- AccessAnalysis.h - contiguity and alignment of accesses -*- C++ -*-===//
//
// What is provable about integer values and blocks, as Triton's AxisInfo:
// for a block, along its last dimension,
//   contiguity   - it splits into runs of this many consecutive integers,
//   constancy    - it splits into runs of this many equal integers,
//   divisibility - the first element of every such run is divisible by this;
// for a scalar, its divisibility. Pointers get a divisibility in bytes from
// `blk.divisibility` on kernel arguments and from `blk.addptr`.
//
// A load or store whose offsets are contiguous and divisible by w, through
// a base aligned to w elements, can move w elements as one vector. One whose
// offsets are contiguous along the whole row of its block but whose start is
// not provably aligned (a row length of 50257) can still, by realigning at
// run time (`blk.realign`).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_ANALYSIS_ACCESSANALYSIS_H
#define BLK_ANALYSIS_ACCESSANALYSIS_H

#include "blk/IR/BlkDialect.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::blk {

struct IntegerFacts {
  int64_t divisibility = 1;
  int64_t contiguity = 1;
  int64_t constancy = 1;
};

class AccessAnalysis {
public:
  /// The largest power of two tracked; 0 is divisible by it.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  IntegerFacts getFacts(Value value);
  /// Divisibility of a pointer in bytes.
  int64_t getPointerDivisibility(Value pointer);
  /// Elements (at most `maxElements`, a power of two) that one thread can
  /// move as one aligned vector through `base[offsets]`.
  int64_t getVectorWidth(Value base, Value offsets, int64_t maxElements);
  /// Whether `access` may move vectors whose alignment is known only at
  /// run time: its offsets are consecutive along the whole last dimension
  /// of its block (neighbouring threads hold neighbouring runs), and its
  /// mask, if any, is `lhs < bound` (signed) with lhs consecutive the same
  /// way and the bound the same along the row, so the elements it enables
  /// in a run of memory are a prefix of it.
  bool isRealignable(MemoryAccessOpInterface access);
  /// For a 2-D block of integers, the runs of consecutive integers down
  /// its columns (along dimension 0): a transposed tile's offsets (K^T read
  /// from K's rows) are consecutive there, not along its rows. Follows
  /// splats, broadcasts, expand_dims of 1-D blocks, sums and differences
  /// (Triton's AxisInfo along another axis); 1 where it cannot tell.
  int64_t getColumnContiguity(Value block);
  /// getVectorWidth for a thread whose elements run down a column of the
  /// 2-D block `offsets` (Distribution::getRunDim is 0).
  int64_t getColumnVectorWidth(Value base, Value offsets, int64_t maxElements);
  /// Whether the mask `mask` is the same over each run of `width` elements
  /// along its block's last dimension, or `downColumns` (runs from its
  /// first element), so a vector of `width` elements is moved whole or not
  /// at all.
  bool isUniformOverRuns(Value mask, int64_t width, bool downColumns = false);

private:
  IntegerFacts compute(Value value);
  /// getVectorWidth for offsets whose runs have `offsetFacts`.
  int64_t getVectorWidth(Value base, IntegerFacts offsetFacts,
                         int64_t maxElements);
  /// The facts of a 2-D block down its columns (along dimension 0).
  IntegerFacts getColumnFacts(Value block);
  llvm::DenseMap<Value, IntegerFacts> facts;
  llvm::DenseMap<Value, int64_t> pointerFacts;
};

} // namespace mlir::blk

#endif // BLK_ANALYSIS_ACCESSANALYSIS_H
