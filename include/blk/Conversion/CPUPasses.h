//===- CPUPasses.h - blk conversions for the host -------------*- C++ -*-===//
#ifndef BLK_CONVERSION_CPUPASSES_H
#define BLK_CONVERSION_CPUPASSES_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::blk {

#define GEN_PASS_DECL
#include "blk/Conversion/CPUPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "blk/Conversion/CPUPasses.h.inc"

/// The function bounds-checked host code (convert-blk-to-cpu
/// check-bounds) calls before each element access:
///   bool blk_access_in_bounds(void *address, int64_t bytes, int32_t access,
///                             void *root)
/// where `access` indexes the module's `blk.accesses` and `root` is the
/// kernel argument the access's pointer was computed from (null where it
/// was not: any buffer of the run then).
inline constexpr llvm::StringLiteral kAccessCheckFunction =
    "blk_access_in_bounds";

} // namespace mlir::blk

#endif // BLK_CONVERSION_CPUPASSES_H
