//===- Passes.h - blk conversions -----------------------------*- C++ -*-===//
#ifndef BLK_CONVERSION_PASSES_H
#define BLK_CONVERSION_PASSES_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "blk/Target/CompileOptions.h"
#include "mlir/Pass/Pass.h"

namespace mlir::blk {

#define GEN_PASS_DECL
#include "blk/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "blk/Conversion/Passes.h.inc"

} // namespace mlir::blk

#endif // BLK_CONVERSION_PASSES_H
