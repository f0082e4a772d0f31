//===- BlkDialect.h - the blk block-programming dialect ---------*- C++ -*-===//
#ifndef BLK_IR_BLKDIALECT_H
#define BLK_IR_BLKDIALECT_H

#include "blk/Target/TargetInfo.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"

#include "blk/IR/BlkOpsDialect.h.inc"
#include "blk/IR/BlkOpsEnums.h.inc"

// Attributes first: !blk.shared takes a #blk.swizzled encoding.
#define GET_ATTRDEF_CLASSES
#include "blk/IR/BlkOpsAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/IR/BlkOpsTypes.h.inc"

namespace mlir::blk {

/// The i1 block with the shape (and encoding) of `offsetsType`: the type a
/// mask of a load or store through those offsets must have.
Type getMaskType(Type offsetsType);

/// Whether an argument of this role is a buffer (input, output, scratch).
bool isTensorRole(ArgRole role);

/// Whether a tensor of this shape has rows (and a row stride): every shape
/// but the vectors per_row and per_col.
bool hasRowStride(ArgExtent extent);

/// Whether `func` is a block program (carries `blk.kernel`).
bool isKernel(func::FuncOp func);

/// The `blk.kernel` attribute of a kernel function, or null.
KernelAttr getKernelAttr(func::FuncOp func);

/// What argument `index` of `func` declares (its `blk.arg`), or null.
ArgAttr getArgAttr(func::FuncOp func, unsigned index);

/// The argument of `func` declared `role`, with `name` where the role names
/// a tensor (empty for rows, cols, inner, ...); null if none is.
BlockArgument findArgument(func::FuncOp func, ArgRole role,
                           StringRef name = "");

/// The chip the module holding `op` is compiled for: its #blk.target
/// (blk-attach-target), else TargetInfo::kDefaultChip. Every pass that asks
/// a chip question asks it here.
TargetInfo getTargetInfo(Operation *op);

/// Where a diagnostic about a whole program (its problem, its binding)
/// points: the first kernel, else the module.
Operation *getProgramDiagnosticAnchor(ModuleOp program);

/// The compile-time constants the ops under `root` name (through
/// ConstantNamesOpInterface), sorted and without repetitions.
std::vector<std::string> getConstantNames(Operation *root);

/// What keeps a program from being fully specialized, at the op that shows
/// it.
struct Unspecialized {
  Operation *op;
  /// A block of `op` (a result, or an argument of one of its regions) whose
  /// shape is still dynamic; null when `op` has none but names a constant.
  Value dynamicBlock;
  /// The first compile-time constant `op` names, when `dynamicBlock` is null.
  StringRef constantName;

  /// "block T has a dynamic shape" or "compile-time constant 'N' is not
  /// bound", at `op`; the caller adds what to do about it.
  InFlightDiagnostic emitError() const;
};

/// The one test of "fully specialized": no block under `root` has a dynamic
/// shape and no op names a compile-time constant. Returns the first op (in
/// post-order, as `walk` visits them) that is not, or std::nullopt. Blocks
/// are checked before names, so an op whose shape names a constant is
/// reported by its dynamic block.
std::optional<Unspecialized> findUnspecialized(Operation *root);

/// `type` (a scalar, or a block with its layout) with `element` elements.
Type withElementType(Type type, Type element);

/// `value` (f32) rounded to tf32, what a blk.dot of precision tf32
/// multiplies: to 10 bits of mantissa, to nearest with ties away from zero
/// (PTX's cvt.rna.tf32.f32), in arith ops; NaN stays NaN.
Value createTf32Rounding(OpBuilder &builder, Location loc, Value value);
/// The same for a value the float64 reference holds, rounded to f32 first
/// as the GPU holds it; NaN as it is.
double roundToTf32(double value);
/// Whether a blk.dot in `root` takes its f32 inputs as tf32.
bool hasTf32Product(Operation *root);

} // namespace mlir::blk

#include "blk/IR/BlkInterfaces.h.inc"

namespace mlir::blk {
/// The CTA's shared memory, which blk.local_alloc writes and blk.local_load
/// reads.
struct SharedMemoryResource
    : public SideEffects::Resource::Base<SharedMemoryResource> {
  StringRef getName() final { return "<shared memory>"; }
};
} // namespace mlir::blk

#define GET_OP_CLASSES
#include "blk/IR/BlkOps.h.inc"

#endif // BLK_IR_BLKDIALECT_H
