//===- Passes.h - blk conversions -----------------------------*- C++ -*-===//
#ifndef BLK_CONVERSION_PASSES_H
#define BLK_CONVERSION_PASSES_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "blk/Target/CompileOptions.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::blk {

#define GEN_PASS_DECL
#include "blk/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "blk/Conversion/Passes.h.inc"

/// Whether convert-blk-to-gpu lowers math op `op` (exp, exp2, log, log2,
/// rsqrt, absf, fma, sqrt, tanh, erf and powf: PTX's own instructions and
/// arithmetic, no libdevice; MathOps.cpp); other dialects' ops are not
/// math ops and answer true.
bool hasGPUMathLowering(Operation *op);
/// The math ops hasGPUMathLowering accepts, for messages.
constexpr const char *kGPUMathOps =
    "exp, exp2, log, log2, rsqrt, absf, fma, sqrt, tanh, erf and powf";

/// vector.extract %op(%x, ...)[i] -> %op(vector.extract %x[i], ...) for an
/// elementwise arith op of 1-D masks (with `allValues`, of any 1-D vectors)
/// every use of which is such an extract (blk-scalarize-masks; with
/// `allValues`, blk-sink-to-uses).
void populateScalarizeElementwisePatterns(RewritePatternSet &patterns,
                                          bool allValues);

} // namespace mlir::blk

#endif // BLK_CONVERSION_PASSES_H
