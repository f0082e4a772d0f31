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
// A load is a loop nest inserting into a tensor, not a `linalg.generic`
// nor a `tensor.generate`: linalg's elementwise fusion moves a generic's
// body into its consumer, and canonicalization an element of a generate
// into its reader (llvm.load counts as no memory effect there), either of
// which may come after a store to the same elements, and the read would
// then see the stored value. Nothing folds or fuses out of an scf.for.
//
// An access whose rows are runs of memory (offsets consecutive along the
// last dimension, see findRowAccesses) goes by rows instead: each row is
// split where its mask first fails. Up to there the row is a plain loop of
// loads or stores at `row start + i`, which LLVM's loop vectorizer turns
// into full-width vector accesses of any element type; the rest of the row
// is accessed element by element under its mask. A row-length mask (`cols
// < n`, a causal `cols <= row`) leaves nothing but masked-off elements
// there; any other mask stays exact. The element-by-element form, with an
// address per element from the offsets block and a branch per element,
// does not vectorize: softmax_fused 4096 x 1024 f32 read and wrote at 4.5
// GB/s on two cores with it.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "blk/Conversion/CPUPasses.h"

#include "blk/Analysis/AccessAnalysis.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// The kernel argument an access's pointer is computed from (its
/// blk.access_root, found before the conversion), converted: the checker
/// tests the access against that argument's buffer only (a read of x that
/// lands in y is out of bounds). A null pointer where the pointer comes
/// from elsewhere: any buffer then.
Value getRootPointer(ConversionPatternRewriter &rewriter, Location loc,
                     Operation *access) {
  auto index =
      access->getAttrOfType<IntegerAttr>(BlkDialect::getAccessRootAttrName());
  auto function = access->getParentOfType<FunctionOpInterface>();
  if (index && function && !function.getFunctionBody().empty()) {
    Block &entry = function.getFunctionBody().front();
    if (index.getInt() < entry.getNumArguments())
      if (Value converted = rewriter.getRemappedValue(
              entry.getArgument(index.getInt())))
        return converted;
  }
  return LLVM::ZeroOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()));
}

/// Whether the access at `address` may be done: the mask bit (or true), and
/// with bounds checks the checker's answer for the buffer of `root`, asked
/// only where the mask holds (masked-off lanes may point anywhere). Null
/// where nothing is to check.
Value accessEnabled(OpBuilder &builder, Location loc, Operation *access,
                    Value maskBit, Value address, Value root,
                    Type elementType) {
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
               ValueRange{address, bytes, id, root})
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

/// A `linalg.generic` applying `map` to every element of `block`, giving
/// a block of `elementType` (elementwise fusion moves it into its reader).
Value mapElements(OpBuilder &builder, Location loc, Value block,
                  Type elementType,
                  function_ref<Value(OpBuilder &, Location, Value)> map) {
  auto type = cast<RankedTensorType>(block.getType());
  Value empty =
      tensor::EmptyOp::create(builder, loc, type.getShape(), elementType);
  AffineMap whole = AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                      builder.getContext());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             builder, loc, empty.getType(), ValueRange{block},
             ValueRange{empty}, ArrayRef<AffineMap>{whole, whole}, iterators,
             [&](OpBuilder &b, Location l, ValueRange arguments) {
               linalg::YieldOp::create(b, l, map(b, l, arguments[0]));
             })
      .getResult(0);
}

/// The mask as bytes (0 or 1). Host code keeps i1 blocks in memory as
/// bytes but moves vectors of i1 lane by lane: a mask read back as i1 from
/// memory cost softmax_fused a third of its time (4096 x 1024 f32).
/// Elementwise fusion computes the bytes straight from the mask's operands.
Value getMaskBytes(OpBuilder &builder, Location loc, Value mask) {
  return mapElements(builder, loc, mask, builder.getI8Type(),
                     [](OpBuilder &b, Location l, Value bit) {
                       return arith::ExtUIOp::create(b, l, b.getI8Type(), bit)
                           .getResult();
                     });
}

/// Whether element `indices` of a mask in bytes is set.
Value isMaskSet(OpBuilder &builder, Location loc, Value maskBytes,
                ValueRange indices) {
  Value byte = tensor::ExtractOp::create(builder, loc, maskBytes, indices);
  Value zero = arith::ConstantOp::create(builder, loc,
                                         builder.getI8IntegerAttr(0));
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, byte,
                               zero);
}

/// For every index of the leading dimensions of a mask in bytes, the first
/// position along its last dimension where the mask is not set (the row
/// length where it is set throughout): a min-reduction of `set ? length :
/// position`, which vectorizes. A tensor of the leading shape, of i32.
Value buildMaskedRowStarts(OpBuilder &builder, Location loc,
                           Value maskBytes) {
  auto maskType = cast<RankedTensorType>(maskBytes.getType());
  int64_t rank = maskType.getRank();
  Type i32 = builder.getI32Type();
  auto startsType =
      RankedTensorType::get(maskType.getShape().drop_back(), i32);
  Value rowLength = arith::ConstantOp::create(
      builder, loc, builder.getI32IntegerAttr(maskType.getShape().back()));
  Value empty =
      tensor::EmptyOp::create(builder, loc, startsType.getShape(), i32);
  Value init =
      linalg::FillOp::create(builder, loc, rowLength, empty).getResult(0);
  MLIRContext *context = builder.getContext();
  AffineMap whole = AffineMap::getMultiDimIdentityMap(rank, context);
  AffineMap leading =
      AffineMap::get(rank, 0, whole.getResults().drop_back(), context);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      builder, loc, startsType, ValueRange{maskBytes}, ValueRange{init},
      ArrayRef<AffineMap>{whole, leading}, iterators,
      [&](OpBuilder &b, Location l, ValueRange arguments) {
        Value zero = arith::ConstantOp::create(b, l, b.getI8IntegerAttr(0));
        Value set = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne,
                                          arguments[0], zero);
        Value position = arith::IndexCastOp::create(
            b, l, i32, linalg::IndexOp::create(b, l, rank - 1));
        Value candidate =
            arith::SelectOp::create(b, l, set, rowLength, position);
        linalg::YieldOp::create(
            b, l, arith::MinSIOp::create(b, l, candidate, arguments[1])
                      .getResult());
      });
  return generic.getResult(0);
}

/// Where one row of a row access lies, and where its unmasked run ends.
struct Row {
  /// The address of the row's first element (offsets[row..., 0]).
  Value start;
  /// The end of the run where every element is accessed: the first masked-
  /// off position, or the row length.
  Value runEnd;
};

Row getRow(OpBuilder &builder, Location loc, Value base, Type elementType,
           Value offsets, Value maskedRowStarts, ValueRange rowIndices,
           int64_t rowLength) {
  SmallVector<Value> first(rowIndices);
  first.push_back(arith::ConstantIndexOp::create(builder, loc, 0));
  Value offset = tensor::ExtractOp::create(builder, loc, offsets, first);
  Row row;
  row.start = getElementAddress(builder, loc, base, elementType, offset);
  if (!maskedRowStarts) {
    row.runEnd = arith::ConstantIndexOp::create(builder, loc, rowLength);
    return row;
  }
  Value end =
      tensor::ExtractOp::create(builder, loc, maskedRowStarts, rowIndices);
  row.runEnd =
      arith::IndexCastOp::create(builder, loc, builder.getIndexType(), end);
  return row;
}

/// The address of element `position` (an index) of a row.
Value getRowElementAddress(OpBuilder &builder, Location loc, const Row &row,
                           Type elementType, Value position) {
  Value offset = arith::IndexCastOp::create(builder, loc,
                                            builder.getI64Type(), position);
  return getElementAddress(builder, loc, row.start, elementType, offset);
}

/// The indices of element `position` of the row at `rowIndices`.
SmallVector<Value> getElementIndices(ValueRange rowIndices, Value position) {
  SmallVector<Value> indices(rowIndices);
  indices.push_back(position);
  return indices;
}

/// Runs `body(builder, loc, indices, carried)` for every index of a block
/// of `shape` (once, with no indices, for an empty shape), threading
/// `iterArgs`.
scf::LoopNest buildBlockLoops(
    OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
    ValueRange iterArgs,
    function_ref<scf::ValueVector(OpBuilder &, Location, ValueRange,
                                  ValueRange)>
        body) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> lowerBounds(shape.size(), zero);
  SmallVector<Value> steps(shape.size(), one);
  SmallVector<Value> upperBounds;
  for (int64_t size : shape)
    upperBounds.push_back(arith::ConstantIndexOp::create(builder, loc, size));
  return scf::buildLoopNest(builder, loc, lowerBounds, upperBounds, steps,
                            iterArgs, body);
}

/// Runs `body` for every row of a block of `shape` (all dimensions but the
/// last), threading `iterArgs`.
scf::LoopNest buildRowLoops(
    OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
    ValueRange iterArgs,
    function_ref<scf::ValueVector(OpBuilder &, Location, ValueRange,
                                  ValueRange)>
        body) {
  return buildBlockLoops(builder, loc, shape.drop_back(), iterArgs, body);
}

/// A loop over positions [begin, end) of a row, threading one value.
Value buildPositionLoop(
    OpBuilder &builder, Location loc, Value begin, Value end, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto loop = scf::ForOp::create(
      builder, loc, begin, end, one, init ? ValueRange{init} : ValueRange{},
      [&](OpBuilder &b, Location l, Value position, ValueRange carried) {
        Value next = body(b, l, position, init ? carried[0] : Value());
        scf::YieldOp::create(b, l, next ? ValueRange{next} : ValueRange{});
      });
  return init ? loop.getResult(0) : Value();
}

/// A load of a row access: per row, plain loads up to the run end, then
/// `mask ? load : other` for the rest.
Value loadRows(OpBuilder &builder, Location loc, RankedTensorType type,
               Value base, Value offsets, Value mask, Value other) {
  Type elementType = type.getElementType();
  int64_t rowLength = type.getShape().back();
  Value maskBytes = mask ? getMaskBytes(builder, loc, mask) : Value();
  Value maskedRowStarts =
      mask ? buildMaskedRowStarts(builder, loc, maskBytes) : Value();
  Value init = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                       elementType);
  scf::LoopNest rows = buildRowLoops(
      builder, loc, type.getShape(), init,
      [&](OpBuilder &b, Location l, ValueRange rowIndices,
          ValueRange block) -> scf::ValueVector {
        Row row = getRow(b, l, base, elementType, offsets, maskedRowStarts,
                         rowIndices, rowLength);
        auto loadAt = [&](OpBuilder &lb, Location ll, Value position) {
          return LLVM::LoadOp::create(
                     lb, ll, elementType,
                     getRowElementAddress(lb, ll, row, elementType, position))
              .getResult();
        };
        auto insertAt = [&](OpBuilder &ib, Location il, Value element,
                            Value into, Value position) {
          return tensor::InsertOp::create(
                     ib, il, element, into,
                     getElementIndices(rowIndices, position))
              .getResult();
        };
        Value zero = arith::ConstantIndexOp::create(b, l, 0);
        Value run = buildPositionLoop(
            b, l, zero, row.runEnd, block[0],
            [&](OpBuilder &lb, Location ll, Value position, Value into) {
              return insertAt(lb, ll, loadAt(lb, ll, position), into,
                              position);
            });
        if (!mask)
          return {run};
        Value end = arith::ConstantIndexOp::create(b, l, rowLength);
        Value rest = buildPositionLoop(
            b, l, row.runEnd, end, run,
            [&](OpBuilder &lb, Location ll, Value position, Value into) {
              Value maskBit = isMaskSet(lb, ll, maskBytes,
                                        getElementIndices(rowIndices, position));
              Value element =
                  scf::IfOp::create(
                      lb, ll, maskBit,
                      [&](OpBuilder &tb, Location tl) {
                        scf::YieldOp::create(tb, tl, loadAt(tb, tl, position));
                      },
                      [&](OpBuilder &eb, Location el) {
                        scf::YieldOp::create(eb, el, other);
                      })
                      .getResult(0);
              return insertAt(lb, ll, element, into, position);
            });
        return {rest};
      });
  return rows.results.front();
}

/// A store of a row access: per row, plain stores up to the run end, then
/// stores where the mask holds for the rest.
void storeRows(OpBuilder &builder, Location loc, Value base, Value offsets,
               Value values, Value mask) {
  auto type = cast<RankedTensorType>(values.getType());
  Type elementType = type.getElementType();
  int64_t rowLength = type.getShape().back();
  Value maskBytes = mask ? getMaskBytes(builder, loc, mask) : Value();
  Value maskedRowStarts =
      mask ? buildMaskedRowStarts(builder, loc, maskBytes) : Value();
  buildRowLoops(
      builder, loc, type.getShape(), ValueRange{},
      [&](OpBuilder &b, Location l, ValueRange rowIndices,
          ValueRange) -> scf::ValueVector {
        Row row = getRow(b, l, base, elementType, offsets, maskedRowStarts,
                         rowIndices, rowLength);
        auto storeAt = [&](OpBuilder &sb, Location sl, Value position) {
          Value value = tensor::ExtractOp::create(
              sb, sl, values, getElementIndices(rowIndices, position));
          LLVM::StoreOp::create(
              sb, sl, value,
              getRowElementAddress(sb, sl, row, elementType, position));
        };
        Value zero = arith::ConstantIndexOp::create(b, l, 0);
        buildPositionLoop(b, l, zero, row.runEnd, Value(),
                          [&](OpBuilder &sb, Location sl, Value position,
                              Value) {
                            storeAt(sb, sl, position);
                            return Value();
                          });
        if (!mask)
          return {};
        Value end = arith::ConstantIndexOp::create(b, l, rowLength);
        buildPositionLoop(
            b, l, row.runEnd, end, Value(),
            [&](OpBuilder &sb, Location sl, Value position, Value) {
              Value maskBit = isMaskSet(sb, sl, maskBytes,
                                        getElementIndices(rowIndices, position));
              scf::IfOp::create(sb, sl, maskBit,
                                [&](OpBuilder &tb, Location tl) {
                                  storeAt(tb, tl, position);
                                  scf::YieldOp::create(tb, tl);
                                });
              return Value();
            });
        return {};
      });
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

/// load -> a loop nest inserting `mask[i] ? *(base + offsets[i]) : other`
/// into a tensor, or by rows (loadRows).
struct LoadToLoops : public OpConversionPattern<LoadOp> {
  LoadToLoops(const TypeConverter &converter, MLIRContext *context,
                 const RowAccesses &rowAccesses)
      : OpConversionPattern(converter, context), rowAccesses(rowAccesses) {}

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
    // 16-bit floats are loaded as their bits and bitcast once the block is
    // whole: a bf16 that crossed a masked element's branch was kept in an
    // f32 register (the host's 16-bit float instructions are off) and
    // rounded back with a call (__truncsfbf2) where it was written.
    if (elementType.isF16() || elementType.isBF16()) {
      Type bits = rewriter.getI16Type();
      if (other)
        other = arith::BitcastOp::create(rewriter, loc, bits, other);
      Value loaded = load(rewriter, op, type.clone(bits), base, offsets, mask,
                          other, checked);
      rewriter.replaceOp(
          op, mapElements(rewriter, loc, loaded, elementType,
                          [&](OpBuilder &b, Location l, Value element) {
                            return arith::BitcastOp::create(b, l, elementType,
                                                            element)
                                .getResult();
                          }));
      return success();
    }
    rewriter.replaceOp(
        op, load(rewriter, op, type, base, offsets, mask, other, checked));
    return success();
  }

  /// The block `op` loads, of `type` (its own, or its bits').
  Value load(ConversionPatternRewriter &rewriter, LoadOp op,
             RankedTensorType type, Value base,
             Value offsets, Value mask, Value other, bool checked) const {
    Location loc = op.getLoc();
    Type elementType = type.getElementType();
    if (rowAccesses.contains(op))
      return loadRows(rewriter, loc, type, base, offsets, mask, other);

    Value root = checked ? getRootPointer(rewriter, loc, op) : Value();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, type.getShape(), elementType);
    scf::LoopNest elements = buildBlockLoops(
        rewriter, loc, type.getShape(), ValueRange{init},
        [&](OpBuilder &b, Location bodyLoc, ValueRange indices,
            ValueRange block) -> scf::ValueVector {
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
                                        checkedAddress, root, elementType);
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
          return {tensor::InsertOp::create(b, bodyLoc, element, block[0],
                                           indices)
                      .getResult()};
        });
    return elements.results.front();
  }

  const RowAccesses &rowAccesses;
};

/// store -> a loop nest over the block writing `*(base + offsets[i]) =
/// value[i]` where mask[i] holds, or by rows (storeRows).
struct StoreToLoops : public OpConversionPattern<StoreOp> {
  StoreToLoops(const TypeConverter &converter, MLIRContext *context,
               const RowAccesses &rowAccesses)
      : OpConversionPattern(converter, context), rowAccesses(rowAccesses) {}

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
    if (rowAccesses.contains(op)) {
      storeRows(rewriter, loc, base, offsets, values, mask);
      rewriter.eraseOp(op);
      return success();
    }

    Value root = op->hasAttr(BlkDialect::getAccessAttrName())
                     ? getRootPointer(rewriter, loc, op)
                     : Value();
    buildBlockLoops(
        rewriter, loc, type.getShape(), ValueRange{},
        [&](OpBuilder &b, Location bodyLoc, ValueRange indices,
            ValueRange) -> scf::ValueVector {
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
                                        checkedAddress, root, elementType);
          if (!enabled) {
            writeElement(b, bodyLoc);
            return {};
          }
          scf::IfOp::create(b, bodyLoc, enabled,
                            [&](OpBuilder &thenBuilder, Location thenLoc) {
                              writeElement(thenBuilder, thenLoc);
                              scf::YieldOp::create(thenBuilder, thenLoc);
                            });
          return {};
        });
    rewriter.eraseOp(op);
    return success();
  }

  const RowAccesses &rowAccesses;
};

} // namespace

RowAccesses mlir::blk::findRowAccesses(Operation *root) {
  AccessAnalysis analysis;
  RowAccesses rowAccesses;
  root->walk([&](MemoryAccessOpInterface access) {
    if (access->hasAttr(BlkDialect::getAccessAttrName()))
      return;
    RankedTensorType offsets = access.getOffsets().getType();
    if (!offsets.hasStaticShape() || offsets.getRank() == 0)
      return;
    if (analysis.getFacts(access.getOffsets()).contiguity >=
        offsets.getShape().back())
      rowAccesses.insert(access);
  });
  return rowAccesses;
}

void mlir::blk::populateMemoryOpToLLVMPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const RowAccesses &rowAccesses) {
  patterns.add<AddPtrToGEP>(converter, patterns.getContext());
  patterns.add<LoadToLoops, StoreToLoops>(converter, patterns.getContext(),
                                             rowAccesses);
}
