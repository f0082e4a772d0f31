//===- Passes.h - blk conversions -----------------------------*- C++ -*-===//
#ifndef BLK_CONVERSION_PASSES_H
#define BLK_CONVERSION_PASSES_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::blk {

#define GEN_PASS_DECL
#include "blk/Conversion/Passes.h.inc"

/// The oldest PTX ISA version (times 10, e.g. 78 for PTX 7.8) that knows
/// the chip sm_<chip>.
unsigned getMinimumPTXVersion(unsigned chip);

/// N of a chip named sm_N, with at most an architecture-specific suffix
/// (sm_90a, sm_100f); 0 for any other name.
unsigned getChipNumber(StringRef chip);

/// Oldest chip with thread-block clusters.
constexpr unsigned kMinClusterChip = 90;

/// Whether the chip named `chip` has thread-block clusters.
bool chipHasClusters(StringRef chip);

#define GEN_PASS_REGISTRATION
#include "blk/Conversion/Passes.h.inc"

} // namespace mlir::blk

#endif // BLK_CONVERSION_PASSES_H
