//===- MemoryOps.cpp - pointers, loads and stores on the host -------------===//
//
// Pointers become `!llvm.ptr` and every element access an `llvm.load` or
// `llvm.store` at `base + offset` (in elements), done only where the mask
// holds: the masked-off lanes of a row's tail point past the row and may
// point past the allocation.
//
// With bounds checks, an access the mask enables is done only where
// @blk_access_in_bounds says the address lies in a buffer of the run; the
// access is identified by its `blk.access` number (set by the pass).
//
// A load is a `tensor.generate` rather than a `linalg.generic`: linalg's
// elementwise fusion moves a generic's body into its consumer, which may
// come after a store to the same elements, and the read would then see the
// stored value. Nothing fuses into or out of a tensor.generate.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/Conversion/CPUPasses.h"

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

/// Whether the access at `address` may be done: the mask bit (or true), and
/// with bounds checks the checker's answer, asked only where the mask
/// holds (masked-off lanes may point anywhere). Null where nothing is to
/// check.
Value accessEnabled(OpBuilder &builder, Location loc, Operation *access,
                    Value maskBit, Value address, Type elementType) {
  auto number =
      access->getAttrOfType<IntegerAttr>(BlkDialect::getAccessAttrName());
  if (!number)
    return maskBit;
  auto askChecker = [&](OpBuilder &b, Location l) -> Value {
    Value bytes = LLVM::ConstantOp::create(
        b, l, b.getI64Type(),
        b.getI64IntegerAttr(elementType.getIntOrFloatBitWidth() / 8));
    Value id = LLVM::ConstantOp::create(b, l, b.getI32Type(), number);
    return LLVM::CallOp::create(
               b, l, TypeRange{b.getI1Type()},
               SymbolRefAttr::get(b.getContext(), kAccessCheckFunction),
               ValueRange{address, bytes, id})
        .getResult();
  };
  if (!maskBit)
    return askChecker(builder, loc);
  return scf::IfOp::create(
             builder, loc, maskBit,
             [&](OpBuilder &b, Location l) {
               scf::YieldOp::create(b, l, askChecker(b, l));
             },
             [&](OpBuilder &b, Location l) {
               Value no = arith::ConstantOp::create(b, l, b.getBoolAttr(false));
               scf::YieldOp::create(b, l, no);
             })
      .getResult(0);
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
    // Without `other` the masked-off (or, checked, out-of-bounds) elements
    // are undefined; zero keeps the results reproducible.
    bool checked = op->hasAttr(BlkDialect::getAccessAttrName());
    if ((mask || checked) && !other)
      other = arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getZeroAttr(elementType));

    auto generate = tensor::GenerateOp::create(
        rewriter, loc, type, /*dynamicExtents=*/ValueRange{},
        [&](OpBuilder &b, Location bodyLoc, ValueRange indices) {
          // Unchecked, the address is computed only where the mask holds;
          // checked, before, for the checker.
          Value checkedAddress;
          auto addressAt = [&](OpBuilder &ab, Location al) -> Value {
            if (checkedAddress)
              return checkedAddress;
            Value offset = tensor::ExtractOp::create(ab, al, offsets, indices);
            return getElementAddress(ab, al, base, elementType, offset);
          };
          auto readElement = [&](OpBuilder &readBuilder, Location readLoc) {
            return LLVM::LoadOp::create(readBuilder, readLoc, elementType,
                                        addressAt(readBuilder, readLoc))
                .getResult();
          };
          Value maskBit =
              mask ? tensor::ExtractOp::create(b, bodyLoc, mask, indices)
                         .getResult()
                   : Value();
          if (checked)
            checkedAddress = addressAt(b, bodyLoc);
          Value enabled = accessEnabled(b, bodyLoc, op, maskBit,
                                        checkedAddress, elementType);
          Value element;
          if (!enabled) {
            element = readElement(b, bodyLoc);
          } else {
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
          // As for loads: unchecked, the address where the mask holds only.
          Value checkedAddress;
          auto writeElement = [&](OpBuilder &writeBuilder, Location writeLoc) {
            Value offset =
                checkedAddress
                    ? Value()
                    : tensor::ExtractOp::create(writeBuilder, writeLoc,
                                                offsets, indices)
                          .getResult();
            Value value =
                tensor::ExtractOp::create(writeBuilder, writeLoc, values, indices);
            Value address =
                checkedAddress ? checkedAddress
                               : getElementAddress(writeBuilder, writeLoc,
                                                   base, elementType, offset);
            LLVM::StoreOp::create(writeBuilder, writeLoc, value, address);
          };
          Value maskBit =
              mask ? tensor::ExtractOp::create(b, bodyLoc, mask, indices)
                         .getResult()
                   : Value();
          if (op->hasAttr(BlkDialect::getAccessAttrName())) {
            Value offset =
                tensor::ExtractOp::create(b, bodyLoc, offsets, indices);
            checkedAddress =
                getElementAddress(b, bodyLoc, base, elementType, offset);
          }
          Value enabled = accessEnabled(b, bodyLoc, op, maskBit,
                                        checkedAddress, elementType);
          if (!enabled) {
            writeElement(b, bodyLoc);
            return;
          }
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
