//===- CPUPasses.h - blk conversions for the host -------------*- C++ -*-===//
#ifndef BLK_CONVERSION_CPUPASSES_H
#define BLK_CONVERSION_CPUPASSES_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::blk {

#define GEN_PASS_DECL
#include "blk/Conversion/CPUPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "blk/Conversion/CPUPasses.h.inc"

} // namespace mlir::blk

#endif // BLK_CONVERSION_CPUPASSES_H
