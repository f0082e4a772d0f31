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
  /// The dimension along which a thread's consecutive elements are
  /// consecutive in the block (runs one vector access may move): the last,
  /// but dimension 0 of a 2-D block where the thread holds one column and
  /// runs down it (a transposed tile's layout: element k is then row k of
  /// its column in the numbering above).
  int64_t getRunDim() const;
  /// Whether getRunDim is dimension 0 of a 2-D block.
  bool runsDownColumns() const { return getRank() == 2 && getRunDim() == 0; }
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
/// elements a thread holds along getRunDim (a hand-written width could
/// exceed it); 1 without the attribute or on a sliced layout.
int64_t getAccessVectorWidth(Operation *op, const Distribution &distribution);

/// How blk.convert_layout lays a block out in shared memory on its way from
/// one layout to another: row-major in the block's own shape (a 1-D block
/// is one row), a row of a 2-D block `rowPitch` elements after the one
/// before. A row whose bytes are a multiple of 128 gets 16 bytes of padding:
/// the 8 rows an mma fragment's lanes write start in different banks then,
/// instead of all in the same one. Elements narrower than a byte (i1) take
/// a byte each.
struct ConversionScratch {
  int64_t rows;
  int64_t cols;
  int64_t rowPitch;
  int64_t elementBytes;

  static ConversionScratch get(RankedTensorType type);
  int64_t getBytes() const { return rows * rowPitch * elementBytes; }
  /// Elements from the start to the element at `blockCoords` (one per
  /// dimension of the block).
  int64_t getOffset(ArrayRef<int64_t> blockCoords) const;
};

//===----------------------------------------------------------------------===//
// mma.sync's accumulator as a blocked layout
//===----------------------------------------------------------------------===//
//
// The accumulator fragment of mma.sync m16n8k16 (PTX ISA, "Matrix Fragments
// for mma.m16n8k16 with floating point type") gives lane l = 4 g + t the
// elements (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1) of a 16 x 8
// tile. The blocked layout elems = [1, 2], lanes = [8, 4], warps = [wm, wn]
// holds exactly that: thread (warp (w0, w1), lane l) holds rows
// 8 w0 + g + 8 wm i and columns 8 w1 + 2t + 8 wn j (+ 0, 1). Its rows i = 2p
// and 2p + 1 (8 wm apart, not 8: a fragment with its rows permuted) serve
// as the g and g + 8 of a fragment, the mma reading A's rows with the same
// permutation; its columns j are an 8-column tile. A dot whose accumulator
// has this layout keeps it in registers across a K loop.

/// The fragment of mma.sync with 16-bit inputs and f32 accumulators.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
/// The K of mma.sync's tf32 fragment (m16n8k8): its 32-bit inputs make
/// fragments of the 16-bit ones' bytes with half the K.
constexpr int64_t kMmaTf32K = 8;

/// The K of the mma.sync fragment a product of `precision` multiplies in:
/// kMmaTf32K for tf32 inputs, else kMmaK.
int64_t getMmaK(InputPrecision precision);
inline int64_t getMmaK(DotOp dot) { return getMmaK(dot.getPrecision()); }

/// Whether `dot` can run on mma.sync on `target`: f16 or bf16 inputs, or
/// f32 ones multiplied as tf32, M, N and K (static) multiples of the
/// fragment's.
bool fitsMmaSync(DotOp dot, const TargetInfo &target);

/// The layout in which `numWarps` warps hold every accumulator of
/// `accumulators` (M x N each: the products of one layout class, e.g.
/// attention's S and O) as mma fragments (above), the warps split wm x wn
/// so that each warp loads the fewest fragments of A and B a K step over
/// all the products; none where some M and N do not split over the warps
/// in whole fragments.
std::optional<BlockedLayoutAttr> getMmaAccumulatorLayout(
    MLIRContext *context, ArrayRef<std::pair<int64_t, int64_t>> accumulators,
    int64_t numWarps);

/// Whether an M x N block distributed as `distribution` is held as mma
/// fragments: the layout above, whole fragments, one CTA.
bool holdsMmaFragments(const Distribution &distribution);

//===----------------------------------------------------------------------===//
// wgmma's accumulator as a blocked layout
//===----------------------------------------------------------------------===//
//
// wgmma.mma_async m64nNk16 (sm_90a) multiplies a 64-row tile of A by B on a
// warpgroup of 4 warps; warp v of the group holds rows 16 v + g and
// 16 v + g + 8 of the tile, lane 4 g + t columns 8 j + 2 t (+ 1): per 8
// columns, an mma.sync fragment. The mma layout with every warp along M
// (warps [W, 1], W a multiple of 4) holds the same elements up to a
// permutation of the rows: thread (warp w, lane 4 g + t) holds rows
// 8 w + g + 8 W i, and its rows i = 2 p + h (h = 0, 1) are rows 8 h + g of
// warp w mod 4 in the 64-row tile p W / 4 + w / 4 (getWgmmaRowRotation):
// in the bits of a row, g (3 bits), w (log2 W bits), h, p become g, h, w,
// p. The dot stores A's rows permuted so (A passes through shared memory
// anyway), and the accumulator stays in registers as for mma.sync.

/// Rows of A one wgmma multiplies, its K step, and the warps of a group.
constexpr int64_t kWgmmaM = 64, kWgmmaK = 16, kWarpsPerWarpgroup = 4;
/// The most columns of B one wgmma takes.
constexpr int64_t kWgmmaMaxN = 256;
/// A and B are stored in shared memory in panels of 128-byte rows (64
/// 16-bit elements along K for A, along N for B), swizzled by 128 bytes.
constexpr int64_t kWgmmaPanelElements = 64;

/// Whether `dot` can run on wgmma on `target` in a kernel of `numWarps`
/// warps, all along M: it fits mma.sync with 16-bit inputs (tf32 stays on
/// mma.sync), the chip has wgmma, the warps make whole warpgroups that
/// split M in 64-row tiles, N is whole panels up to 256 columns and K
/// whole panels.
bool fitsWgmma(DotOp dot, const TargetInfo &target, int64_t numWarps);

/// The layout of an accumulator held for wgmma by `numWarps` warps (the
/// mma layout with every warp along M).
BlockedLayoutAttr getWgmmaAccumulatorLayout(MLIRContext *context,
                                            int64_t numWarps);

/// Whether the threads hold `a` as wgmma takes A from registers: a 2-D
/// 16-bit block of K a multiple of kWgmmaK laid out as the accumulator
/// (getWgmmaAccumulatorLayout), whose registers are A's fragments.
bool holdsWgmmaFragmentsOfA(RankedTensorType a, int64_t numWarps);

/// Bits `first` .. `first + count - 1` of a value, rotated left by one.
struct BitRotation {
  int64_t first, count;
  /// The bits rotated.
  int64_t getField() const { return ((int64_t(1) << count) - 1) << first; }
  /// The field's highest bit, which comes round to its lowest.
  int64_t getTopBit() const { return int64_t(1) << (first + count - 1); }
  int64_t apply(int64_t value) const;
};

/// How a row of an accumulator laid out for wgmma over `numWarps` warps
/// becomes its row in wgmma's 64-row tiles: bits 3 .. 3 + log2(numWarps)
/// (the warp, then h) rotated left by one.
BitRotation getWgmmaRowRotation(int64_t numWarps);

/// Bytes of a row of a #blk.swizzled panel (the swizzle's width), and the
/// bytes after which the swizzle's pattern repeats: a block starts at a
/// multiple of them (PTX ISA, "Matrix Descriptor Format") and takes a
/// multiple of them.
constexpr int64_t kPanelRowBytes = 128, kSwizzleRepeatBytes = 1024;

/// How wgmma over `numWarps` warps reads operand `operand` (0: A, 1: B) of
/// a product from shared memory: A's rows rotated to the accumulator's
/// (getWgmmaRowRotation), B's as they are, or with `kMajorB` transposed
/// (each column of B a panel row: K^T from the rows of K).
SwizzledSharedAttr getWgmmaOperandEncoding(MLIRContext *context,
                                           int64_t numWarps, int64_t operand,
                                           bool kMajorB = false);

/// The row permutation of a #blk.swizzled encoding, if it has one.
std::optional<BitRotation> getRowRotation(SwizzledSharedAttr encoding);
/// The row permutation a tensor map's boxes land with, if it has one.
std::optional<BitRotation> getRowRotation(TensorMapType map);

/// Bytes of one 2-D `rows` x `cols` block of `elementBits`-bit elements
/// arranged #blk.swizzled: whole repeats of the swizzle.
int64_t getSwizzledBlockBytes(int64_t rows, int64_t cols, int64_t elementBits);
/// Bytes of a #blk.swizzled buffer: its block, or every slot of a ring.
int64_t getSwizzledBufferBytes(SharedType buffer);
/// Bytes from one slot of a ring of #blk.swizzled buffers to the next.
int64_t getSwizzledSlotBytes(SharedType ring);

} // namespace mlir::blk

#endif // BLK_IR_DISTRIBUTION_H
