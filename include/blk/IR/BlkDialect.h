//===- BlkDialect.h - the blk block-programming dialect ---------*- C++ -*-===//
#ifndef BLK_IR_BLKDIALECT_H
#define BLK_IR_BLKDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "blk/IR/BlkOpsDialect.h.inc"
#include "blk/IR/BlkOpsEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/IR/BlkOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/IR/BlkOpsAttrs.h.inc"

namespace mlir::blk {

/// The i1 block with the shape (and encoding) of `offsetsType`: the type a
/// mask of a load or store through those offsets must have.
Type getMaskType(Type offsetsType);

/// Whether `func` is a block program (carries `blk.kernel`).
bool isKernel(func::FuncOp func);

/// The `blk.kernel` attribute of a kernel function, or null.
KernelAttr getKernelAttr(func::FuncOp func);

/// The compile-time constants `root` names (in blk.constexpr and in block
/// shapes), sorted and without repetitions.
std::vector<std::string> getConstantNames(Operation *root);

} // namespace mlir::blk

#define GET_OP_CLASSES
#include "blk/IR/BlkOps.h.inc"

#endif // BLK_IR_BLKDIALECT_H
