//===- DistributionTest.cpp - layout math of #blk.blocked / #blk.slice ----===//
//
// The arithmetic of include/blk/IR/Distribution.h, worked by hand for the
// layouts the programs use: a row over one CTA, over a cluster, a 2-D
// block of short rows, a block smaller than its tile (threads wrap), the
// slice a row-wise reduction leaves, the scratch a layout conversion
// passes a block through, and a transposed tile whose runs go down its
// columns.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/Distribution.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Runtime/Launch.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::blk;

namespace {

class DistributionTest : public ::testing::Test {
protected:
  DistributionTest() { context.loadDialect<BlkDialect>(); }

  Distribution get(StringRef type) {
    Type parsed = parseType(type, &context);
    EXPECT_TRUE(parsed) << type.str();
    FailureOr<Distribution> distribution = Distribution::get(parsed);
    EXPECT_TRUE(succeeded(distribution)) << type.str();
    return *distribution;
  }

  MLIRContext context;
};

// 4096 f32 over 4 warps: 4 elements a run, a tile of 512, 8 repetitions.
TEST_F(DistributionTest, RowOverOneCta) {
  Distribution d =
      get("tensor<4096xf32, #blk.blocked<elems = [4], lanes = [32], "
          "warps = [4]>>");
  EXPECT_EQ(d.getRank(), 1);
  EXPECT_EQ(d.getRunLength(0), 4);
  EXPECT_EQ(d.getTile(0), 512);
  EXPECT_EQ(d.getCount(0), 32);
  EXPECT_EQ(d.getNumElements(), 32);
  EXPECT_EQ(d.getDistinctThreads(0), 128);
  EXPECT_FALSE(d.wraps(0));
  // Element 5 is the second of the second run: one tile further, + 1.
  EXPECT_EQ(d.getElementOffsets(5), SmallVector<int64_t>({513}));
  ReduceSpread spread = d.getReduceSpread(0);
  EXPECT_EQ(spread.layoutDim, 0);
  EXPECT_EQ(spread.lanes, 32);
  EXPECT_EQ(spread.warps, 4);
  EXPECT_EQ(spread.ctas, 1);
  EXPECT_EQ(spread.resultsPerThread, 1);
  EXPECT_TRUE(spread.crossesWarps());
}

// 65536 f32 over a cluster of 4 CTAs of 16 warps: the reduction crosses
// lanes, warps and CTAs.
TEST_F(DistributionTest, RowOverACluster) {
  Distribution d =
      get("tensor<65536xf32, #blk.blocked<elems = [4], lanes = [32], "
          "warps = [16], ctas = [4]>>");
  EXPECT_EQ(d.getTile(0), 8192);
  EXPECT_EQ(d.getCount(0), 32);
  EXPECT_EQ(d.getDistinctThreads(0), 2048);
  ReduceSpread spread = d.getReduceSpread(0);
  EXPECT_EQ(spread.lanes, 32);
  EXPECT_EQ(spread.warps, 16);
  EXPECT_EQ(spread.ctas, 4);
  EXPECT_TRUE(spread.crossesWarps());
}

// A block smaller than its tile: 64 elements over 4 warps of 32 lanes
// holding 4 each. 16 threads hold distinct elements; the others repeat
// them, and a reduction stays within one warp's lanes.
TEST_F(DistributionTest, SmallBlockWraps) {
  Distribution d = get("tensor<64xf32, #blk.blocked<elems = [4], lanes = [32], "
                       "warps = [4]>>");
  EXPECT_TRUE(d.wraps(0));
  EXPECT_EQ(d.getCount(0), 4);
  EXPECT_EQ(d.getDistinctThreads(0), 16);
  ReduceSpread spread = d.getReduceSpread(0);
  EXPECT_EQ(spread.lanes, 16);
  EXPECT_EQ(spread.warps, 1);
  EXPECT_EQ(spread.ctas, 1);
  EXPECT_FALSE(spread.crossesWarps());
}

// Short rows, 2-D: 8 rows of 128 over 2 x 16 lanes and 4 x 1 warps. Along
// the rows (dim 1) a thread's results are its 2 rows; elements are
// numbered row-major over the thread's local indices.
TEST_F(DistributionTest, ShortRows) {
  Distribution d =
      get("tensor<8x128xf32, #blk.blocked<elems = [1, 4], lanes = [2, 16], "
          "warps = [4, 1]>>");
  EXPECT_EQ(d.getCount(0), 1);
  EXPECT_EQ(d.getCount(1), 8);
  EXPECT_EQ(d.getNumElements(), 8);
  EXPECT_EQ(d.getLocalIndices(5), SmallVector<int64_t>({0, 5}));
  EXPECT_EQ(d.getElementIndex({0, 5}), 5);
  // Element 5: second run (one tile of 64 further) + 1.
  EXPECT_EQ(d.getElementOffsets(5), SmallVector<int64_t>({0, 65}));
  ReduceSpread alongRows = d.getReduceSpread(1);
  EXPECT_EQ(alongRows.layoutDim, 1);
  EXPECT_EQ(alongRows.lanes, 16);
  EXPECT_EQ(alongRows.warps, 1);
  EXPECT_EQ(alongRows.resultsPerThread, 1);
  EXPECT_FALSE(alongRows.crossesWarps());
  ReduceSpread acrossRows = d.getReduceSpread(0);
  EXPECT_EQ(acrossRows.lanes, 2);
  EXPECT_EQ(acrossRows.warps, 4);
  EXPECT_EQ(acrossRows.resultsPerThread, 8);
  EXPECT_TRUE(acrossRows.crossesWarps());
}

// The slice a reduction along dim 1 leaves: its dimension 0 stands for the
// parent's dimension 0, and the sliced dimension has size 1.
TEST_F(DistributionTest, SliceOfRows) {
  Distribution d =
      get("tensor<16xf32, #blk.slice<dim = 1, parent = #blk.blocked<elems = "
          "[1, 4], lanes = [2, 16], warps = [4, 1]>>>");
  EXPECT_EQ(d.getSlicedDim(), std::optional<int64_t>(1));
  EXPECT_EQ(d.getRank(), 2);
  EXPECT_EQ(d.getShape()[1], 1);
  EXPECT_EQ(d.getLayoutDim(0), 0);
  Distribution columns =
      get("tensor<128xf32, #blk.slice<dim = 0, parent = #blk.blocked<elems = "
          "[1, 4], lanes = [2, 16], warps = [4, 1]>>>");
  EXPECT_EQ(columns.getLayoutDim(0), 1);
  EXPECT_EQ(columns.getReduceSpread(0).layoutDim, 1);
}

// Shared memory a CTA spends keeping a block: every thread's elements of
// one CTA (a cluster's other CTAs keep theirs).
TEST_F(DistributionTest, KeptBlockBytes) {
  auto type = cast<RankedTensorType>(
      parseType("tensor<32768xbf16, #blk.blocked<elems = [8], lanes = [32], "
                "warps = [16]>>",
                &context));
  EXPECT_EQ(*getKeptBlockBytes(type), 65536);
  auto clustered = cast<RankedTensorType>(
      parseType("tensor<131072xbf16, #blk.blocked<elems = [8], lanes = [32], "
                "warps = [8], ctas = [8]>>",
                &context));
  EXPECT_EQ(*getKeptBlockBytes(clustered), 32768);
  auto plain = cast<RankedTensorType>(parseType("tensor<64xf32>", &context));
  EXPECT_TRUE(failed(getKeptBlockBytes(plain)));
}

// The accumulator laid out for wgmma (warps [W, 1], two 64-row tiles a
// warpgroup): the rotation getWgmmaRowRotation makes of each row a thread
// holds is a row wgmma gives that thread. Warp w (of warpgroup w / 4) and
// lane 4g + t hold, of the tile p W / 4 + w / 4 where p is a pair of its
// rows (2p, 2p + 1), rows 16 (w mod 4) + g and + 8; and every row of the
// block is some thread's exactly once.
TEST_F(DistributionTest, WgmmaRowsAreFragmentRows) {
  for (int64_t warps : {4, 8, 16, 32}) {
    int64_t groups = warps / kWarpsPerWarpgroup;
    int64_t rows = 2 * kWgmmaM * groups;
    std::string type = "tensor<" + std::to_string(rows) +
                       "x64xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], "
                       "warps = [" +
                       std::to_string(warps) + ", 1]>>";
    Distribution d = get(type);
    BitRotation rotation = getWgmmaRowRotation(warps);
    std::vector<int> seen(rows, 0);
    for (int64_t warp = 0; warp < warps; ++warp)
      for (int64_t g = 0; g < 8; ++g) {
        // Distribution.h: t[0] = warp * lanes[0] + lane[0], base = t * elems.
        int64_t base = warp * 8 + g;
        for (int64_t i = 0; i < d.getCount(0); ++i) {
          int64_t row = base + d.getElementOffsets(d.getElementIndex({i, 0}))[0];
          int64_t wgmmaRow = rotation.apply(row);
          ASSERT_LT(wgmmaRow, rows) << type;
          ++seen[wgmmaRow];
          int64_t tile = wgmmaRow / kWgmmaM, inTile = wgmmaRow % kWgmmaM;
          EXPECT_EQ(tile, (i / 2) * groups + warp / kWarpsPerWarpgroup)
              << type << " row " << row;
          EXPECT_EQ(inTile, 16 * (warp % kWarpsPerWarpgroup) + g + 8 * (i % 2))
              << type << " row " << row;
        }
      }
    for (int64_t row = 0; row < rows; ++row)
      EXPECT_EQ(seen[row], 1) << type << " wgmma row " << row;
  }
}

// A rotated tensor map's box (blk::runtime::getTensorMapLayout), written
// into shared memory dimension by dimension, fastest first, as TMA writes a
// box: the element of the tile's row r lands at row rotation.apply(r) of
// the buffer, where wgmma reads A (#blk.swizzled with the rotation of
// getWgmmaRowRotation), for a tile of one warpgroup's 64 rows and of two
// warpgroups' 128, at a tile starting anywhere on the grid of tiles; and
// every dimension's bounds keep the box inside the matrix's whole blocks.
TEST_F(DistributionTest, RotatedTensorMapBoxLandsRotated) {
  for (int64_t warps : {4, 8}) {
    BitRotation rotation = getWgmmaRowRotation(warps);
    int64_t tileRows = int64_t(1) << (rotation.first + rotation.count);
    ::blk::runtime::TensorMapRequest request;
    request.elementType = "bf16";
    request.rows = 4096 + 40;
    request.cols = 512;
    request.rowStrideBytes = 520 * 2;
    request.boxRows = tileRows;
    request.boxCols = 64;
    request.rotationFirst = rotation.first;
    request.rotationBits = rotation.count;
    ::blk::runtime::TensorMapLayout layout =
        ::blk::runtime::getTensorMapLayout(request);
    ASSERT_EQ(layout.rank, 4u);
    uint64_t stride = request.rowStrideBytes;
    int64_t block = tileRows / 2;
    EXPECT_EQ(layout.dims[2], uint64_t(request.rows / block)) << "whole blocks";
    for (int64_t tile = 0; tile + tileRows <= request.rows; tile += tileRows) {
      // The lowering's coordinates: (column, 0, first row / block, 0).
      uint64_t firstBlock = tile / block;
      ASSERT_LE(firstBlock + layout.box[2], layout.dims[2]) << "tile " << tile;
      int64_t written = 0;
      for (uint32_t g = 0; g < layout.box[3]; ++g)
        for (uint32_t t = 0; t < layout.box[2]; ++t)
          for (uint32_t r = 0; r < layout.box[1]; ++r, ++written) {
            uint64_t bytes = r * layout.strides[0] +
                             (firstBlock + t) * layout.strides[1] +
                             g * layout.strides[2];
            ASSERT_EQ(bytes % stride, 0u);
            int64_t row = int64_t(bytes / stride) - tile;
            ASSERT_GE(row, 0);
            ASSERT_LT(row, tileRows);
            EXPECT_EQ(written, rotation.apply(row))
                << warps << " warps, tile row " << row;
          }
      EXPECT_EQ(written, tileRows);
    }
  }
}

} // namespace

// The scratch blk.convert_layout passes a block through: rows of a multiple
// of 128 bytes padded by 16 (128 x 256 bf16: rows of 528 bytes; the 8 rows
// an mma fragment's lanes write then start 4 banks apart), other rows and
// 1-D blocks as they are, an i1 a byte.
TEST_F(DistributionTest, ConversionScratch) {
  auto scratch = [&](StringRef type) {
    return ConversionScratch::get(cast<RankedTensorType>(parseType(type, &context)));
  };
  ConversionScratch c = scratch("tensor<128x256xbf16>");
  EXPECT_EQ(c.rows, 128);
  EXPECT_EQ(c.cols, 256);
  EXPECT_EQ(c.rowPitch, 264);
  EXPECT_EQ(c.getBytes(), 128 * 528);
  EXPECT_EQ(c.getOffset({3, 5}), 3 * 264 + 5);
  EXPECT_EQ((c.getOffset({1, 0}) * c.elementBytes / 4) % 32, 4);

  ConversionScratch narrow = scratch("tensor<64x24xf32>");
  EXPECT_EQ(narrow.rowPitch, 24);
  EXPECT_EQ(narrow.getBytes(), 64 * 24 * 4);

  ConversionScratch row = scratch("tensor<1024xf32>");
  EXPECT_EQ(row.rows, 1);
  EXPECT_EQ(row.rowPitch, 1024);
  EXPECT_EQ(row.getOffset({700}), 700);

  ConversionScratch mask = scratch("tensor<64xi1>");
  EXPECT_EQ(mask.elementBytes, 1);
  EXPECT_EQ(mask.getBytes(), 64);
}

// The warps of one mma layout split every accumulator that holds it: one
// 128 x 128 product takes 2 x 4 (24 fragment loads a K step), attention's
// S (128 x 64) and O (128 x 128) together 4 x 2 (40 over both, where 2 x 4
// takes 44); a 16 x 8 product splits over no 8 warps.
TEST_F(DistributionTest, MmaLayoutForSeveralProducts) {
  auto warpsOf = [&](ArrayRef<std::pair<int64_t, int64_t>> accumulators) {
    std::optional<BlockedLayoutAttr> layout =
        getMmaAccumulatorLayout(&context, accumulators, 8);
    return layout ? SmallVector<int64_t>(layout->getWarps())
                  : SmallVector<int64_t>();
  };
  EXPECT_EQ(warpsOf({{128, 128}}), (SmallVector<int64_t>{2, 4}));
  EXPECT_EQ(warpsOf({{128, 64}, {128, 128}}), (SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(warpsOf({{16, 8}}), SmallVector<int64_t>());
}

// Attention's K^T, 128 x 128 bf16 on 8 warps, as blk-distribute lays a
// transposed tile out: each thread one column (two lanes down it, sixteen
// lanes and the 8 warps across the 128 columns), in runs of 8 down it, 8 of
// them 16 rows apart. Its consecutive elements are consecutive rows of its
// column: the runs go along dimension 0, one 16-byte access each.
TEST_F(DistributionTest, RunsDownAColumn) {
  Distribution d =
      get("tensor<128x128xbf16, #blk.blocked<elems = [8, 1], lanes = [2, 16], "
          "warps = [1, 8]>>");
  EXPECT_EQ(d.getCount(1), 1);
  EXPECT_EQ(d.getCount(0), 64);
  EXPECT_EQ(d.getRunDim(), 0);
  EXPECT_TRUE(d.runsDownColumns());
  for (int64_t k : {0, 1, 7, 8, 63}) {
    SmallVector<int64_t> offsets = d.getElementOffsets(k);
    EXPECT_EQ(offsets[0], (k / 8) * 16 + k % 8) << k;
    EXPECT_EQ(offsets[1], 0) << k;
  }
}

// A thread that holds several columns, or runs of one element down them,
// runs along its rows (the last dimension), as does every 1-D block.
TEST_F(DistributionTest, RunsAlongRowsOtherwise) {
  Distribution severalColumns =
      get("tensor<128x128xbf16, #blk.blocked<elems = [8, 1], lanes = [2, 16], "
          "warps = [2, 4]>>");
  EXPECT_EQ(severalColumns.getCount(1), 2);
  EXPECT_EQ(severalColumns.getRunDim(), 1);
  EXPECT_FALSE(severalColumns.runsDownColumns());
  Distribution singleElements =
      get("tensor<64x32xbf16, #blk.blocked<elems = [1, 1], lanes = [32, 1], "
          "warps = [1, 4]>>");
  EXPECT_EQ(singleElements.getRunDim(), 1);
  Distribution row =
      get("tensor<1024xf32, #blk.blocked<elems = [4], lanes = [32], "
          "warps = [4]>>");
  EXPECT_EQ(row.getRunDim(), 0);
  EXPECT_FALSE(row.runsDownColumns());
}
