//===- MemoryOps.cpp - loads and stores of a thread's elements ------------===//
//
// A thread's elements come in runs of `blk.vector` consecutive, aligned
// addresses (decided by blk-distribute). A run whose mask is all true moves
// as one vector (16 bytes for f32 x 4); otherwise, as at the end of a row,
// each element is accessed on its own under its mask bit.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// The `blk.vector` width, but never more than the run of consecutive
/// elements a thread holds (a hand-written width could exceed it).
int64_t getVectorWidth(Operation *op, Value offsets) {
  auto width = op->getAttrOfType<IntegerAttr>(BlkDialect::getVectorAttrName());
  Distribution distribution = *Distribution::get(offsets.getType());
  if (!width || distribution.getSlicedDim())
    return 1;
  int64_t run = distribution.getRunLength(distribution.getRank() - 1);
  return std::min(width.getInt(), run);
}

/// The per-element view of one access: addresses, mask bits, values.
struct ThreadAccess {
  Value base;
  Type elementType;
  SmallVector<Value> offsets;
  SmallVector<Value> mask; // empty: every element is accessed
  int64_t width;

  Value address(OpBuilder &builder, Location loc, int64_t k) const {
    return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                               ValueRange{offsets[k]},
                               LLVM::GEPNoWrapFlags::inbounds);
  }
  int64_t alignment() const {
    return width * elementType.getIntOrFloatBitWidth() / 8;
  }
  /// Whether the whole run starting at element `first` is enabled.
  Value runEnabled(OpBuilder &builder, Location loc, int64_t first) const {
    Value all = mask[first];
    for (int64_t i = 1; i < width; ++i)
      all = arith::AndIOp::create(builder, loc, all, mask[first + i]);
    return all;
  }
};

ThreadAccess getThreadAccess(OpBuilder &builder, Location loc, Operation *op,
                             Value originalOffsets, Value base, Value offsets,
                             Value mask, Type elementType) {
  ThreadAccess access{base, elementType,
                      extractElements(builder, loc, offsets), {},
                      getVectorWidth(op, originalOffsets)};
  if (mask)
    access.mask = extractElements(builder, loc, mask);
  return access;
}

/// Loads element `k` if its mask bit is set, else yields `other`.
Value loadElement(OpBuilder &builder, Location loc, const ThreadAccess &access,
                  int64_t k, Value other) {
  auto load = [&](OpBuilder &b, Location l) {
    return LLVM::LoadOp::create(b, l, access.elementType,
                                access.address(b, l, k))
        .getResult();
  };
  if (access.mask.empty())
    return load(builder, loc);
  auto branch = scf::IfOp::create(
      builder, loc, access.mask[k],
      [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, load(b, l)); },
      [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, other); });
  return branch.getResult(0);
}

/// Loads the run of `width` elements starting at `first`.
SmallVector<Value> loadRun(OpBuilder &builder, Location loc,
                           const ThreadAccess &access, int64_t first,
                           Value other) {
  auto runType = VectorType::get({access.width}, access.elementType);
  auto vectorLoad = [&](OpBuilder &b, Location l) {
    return LLVM::LoadOp::create(b, l, runType, access.address(b, l, first),
                                access.alignment())
        .getResult();
  };
  Value run;
  if (access.mask.empty()) {
    run = vectorLoad(builder, loc);
  } else {
    auto branch = scf::IfOp::create(
        builder, loc, access.runEnabled(builder, loc, first),
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, vectorLoad(b, l));
        },
        [&](OpBuilder &b, Location l) {
          SmallVector<Value> elements;
          for (int64_t i = 0; i < access.width; ++i)
            elements.push_back(loadElement(b, l, access, first + i, other));
          Value run = vector::FromElementsOp::create(b, l, runType, elements);
          scf::YieldOp::create(b, l, run);
        });
    run = branch.getResult(0);
  }
  return extractElements(builder, loc, run);
}

struct LoadToGlobalLoads : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType = op.getType().getElementType();
    ThreadAccess access = getThreadAccess(
        rewriter, loc, op, op.getOffsets(), adaptor.getBase(),
        adaptor.getOffsets(), adaptor.getMask(), elementType);
    Value other = adaptor.getOther();
    if (!other)
      other = arith::ConstantOp::create(rewriter, loc, elementType,
                                        rewriter.getZeroAttr(elementType));
    SmallVector<Value> elements;
    int64_t count = access.offsets.size();
    for (int64_t first = 0; first < count; first += access.width) {
      if (access.width == 1) {
        elements.push_back(loadElement(rewriter, loc, access, first, other));
        continue;
      }
      llvm::append_range(elements,
                         loadRun(rewriter, loc, access, first, other));
    }
    auto type = VectorType::get({count}, elementType);
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    return success();
  }
};

/// Stores element `k` (under its mask bit, if any).
void storeElement(OpBuilder &builder, Location loc, const ThreadAccess &access,
                  int64_t k, Value value) {
  auto store = [&](OpBuilder &b, Location l) {
    LLVM::StoreOp::create(b, l, value, access.address(b, l, k));
  };
  if (access.mask.empty())
    return store(builder, loc);
  scf::IfOp::create(builder, loc, access.mask[k],
                    [&](OpBuilder &b, Location l) {
                      store(b, l);
                      scf::YieldOp::create(b, l);
                    });
}

void storeRun(OpBuilder &builder, Location loc, const ThreadAccess &access,
              int64_t first, ArrayRef<Value> values) {
  auto runType = VectorType::get({access.width}, access.elementType);
  auto vectorStore = [&](OpBuilder &b, Location l) {
    Value run = vector::FromElementsOp::create(
        b, l, runType, values.slice(first, access.width));
    LLVM::StoreOp::create(b, l, run, access.address(b, l, first),
                          access.alignment());
  };
  if (access.mask.empty())
    return vectorStore(builder, loc);
  scf::IfOp::create(
      builder, loc, access.runEnabled(builder, loc, first),
      [&](OpBuilder &b, Location l) {
        vectorStore(b, l);
        scf::YieldOp::create(b, l);
      },
      [&](OpBuilder &b, Location l) {
        for (int64_t i = 0; i < access.width; ++i)
          storeElement(b, l, access, first + i, values[first + i]);
        scf::YieldOp::create(b, l);
      });
}

struct StoreToGlobalStores : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ThreadAccess access = getThreadAccess(
        rewriter, loc, op, op.getOffsets(), adaptor.getBase(),
        adaptor.getOffsets(), adaptor.getMask(),
        op.getValue().getType().getElementType());
    SmallVector<Value> values =
        extractElements(rewriter, loc, adaptor.getValue());
    for (int64_t first = 0; first < static_cast<int64_t>(values.size());
         first += access.width) {
      if (access.width == 1)
        storeElement(rewriter, loc, access, first, values[first]);
      else
        storeRun(rewriter, loc, access, first, values);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::blk::populateMemoryOpPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<LoadToGlobalLoads, StoreToGlobalStores>(converter,
                                                       patterns.getContext());
}
