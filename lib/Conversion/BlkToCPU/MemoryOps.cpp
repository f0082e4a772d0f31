//===- MemoryOps.cpp - pointers, loads and stores on the host -------------===//
//
// Pointers become `!llvm.ptr` and every element access an `llvm.load` or
// `llvm.store` at `base + offset` (in elements), done only where the mask
// holds: the masked-off lanes of a row's tail point past the row and may
// point past the allocation.
//
// A load is a `tensor.generate` rather than a `linalg.generic`: linalg's
// elementwise fusion moves a generic's body into its consumer, which may
// come after a store to the same elements, and the read would then see the
// stored value. Nothing fuses into or out of a tensor.generate.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/IR/BlkDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// The address of element `offset` of an array of `elementType` at `base`.
Value getElementAddress(OpBuilder &builder, Location loc, Value base,
                        Type elementType, Value offset) {
  return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                             ValueRange{offset});
}

struct AddPtrToGEP : public OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, getElementAddress(rewriter, op.getLoc(),
                                             adaptor.getPtr(),
                                             op.getPtr().getType().getPointeeType(),
                                             adaptor.getOffset()));
    return success();
  }
};

/// load -> tensor.generate { mask[i] ? *(base + offsets[i]) : other }.
struct LoadToGenerate : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type elementType = type.getElementType();
    Value base = adaptor.getBase();
    Value offsets = adaptor.getOffsets();
    Value mask = adaptor.getMask();
    Value other = adaptor.getOther();
    // Without `other` the masked-off elements are undefined; zero keeps the
    // results reproducible.
    if (mask && !other)
      other = arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getZeroAttr(elementType));

    auto generate = tensor::GenerateOp::create(
        rewriter, loc, type, /*dynamicExtents=*/ValueRange{},
        [&](OpBuilder &b, Location bodyLoc, ValueRange indices) {
          auto readElement = [&](OpBuilder &readBuilder, Location readLoc) {
            Value offset =
                tensor::ExtractOp::create(readBuilder, readLoc, offsets, indices);
            Value address = getElementAddress(readBuilder, readLoc, base,
                                              elementType, offset);
            return LLVM::LoadOp::create(readBuilder, readLoc, elementType,
                                        address)
                .getResult();
          };
          Value element;
          if (!mask) {
            element = readElement(b, bodyLoc);
          } else {
            Value enabled =
                tensor::ExtractOp::create(b, bodyLoc, mask, indices);
            element =
                scf::IfOp::create(
                    b, bodyLoc, enabled,
                    [&](OpBuilder &thenBuilder, Location thenLoc) {
                      scf::YieldOp::create(thenBuilder, thenLoc,
                                           readElement(thenBuilder, thenLoc));
                    },
                    [&](OpBuilder &elseBuilder, Location elseLoc) {
                      scf::YieldOp::create(elseBuilder, elseLoc, other);
                    })
                    .getResult(0);
          }
          tensor::YieldOp::create(b, bodyLoc, element);
        });
    rewriter.replaceOp(op, generate.getResult());
    return success();
  }
};

/// store -> a loop nest over the block writing `*(base + offsets[i]) =
/// value[i]` where mask[i] holds.
struct StoreToLoops : public OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getValue().getType();
    Type elementType = type.getElementType();
    Value base = adaptor.getBase();
    Value offsets = adaptor.getOffsets();
    Value values = adaptor.getValue();
    Value mask = adaptor.getMask();

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> lowerBounds(type.getRank(), zero);
    SmallVector<Value> steps(type.getRank(), one);
    SmallVector<Value> upperBounds;
    for (int64_t size : type.getShape())
      upperBounds.push_back(arith::ConstantIndexOp::create(rewriter, loc, size));

    scf::buildLoopNest(
        rewriter, loc, lowerBounds, upperBounds, steps,
        [&](OpBuilder &b, Location bodyLoc, ValueRange indices) {
          auto writeElement = [&](OpBuilder &writeBuilder, Location writeLoc) {
            Value offset =
                tensor::ExtractOp::create(writeBuilder, writeLoc, offsets, indices);
            Value value =
                tensor::ExtractOp::create(writeBuilder, writeLoc, values, indices);
            Value address = getElementAddress(writeBuilder, writeLoc, base,
                                              elementType, offset);
            LLVM::StoreOp::create(writeBuilder, writeLoc, value, address);
          };
          if (!mask) {
            writeElement(b, bodyLoc);
            return;
          }
          Value enabled = tensor::ExtractOp::create(b, bodyLoc, mask, indices);
          scf::IfOp::create(b, bodyLoc, enabled,
                            [&](OpBuilder &thenBuilder, Location thenLoc) {
                              writeElement(thenBuilder, thenLoc);
                              scf::YieldOp::create(thenBuilder, thenLoc);
                            });
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::blk::populateMemoryOpToLLVMPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<AddPtrToGEP, LoadToGenerate, StoreToLoops>(
      converter, patterns.getContext());
}
