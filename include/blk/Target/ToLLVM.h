//===- ToLLVM.h - what every lowering of blk to LLVM registers -*- C++ -*-===//
//
// Both targets end in the LLVM dialect through the ConvertToLLVM interfaces
// of the upstream dialects they use, and translate it to LLVM IR. (Without
// the interfaces, the conversions succeed yet leave ops unconverted.)
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_TOLLVM_H
#define BLK_TARGET_TOLLVM_H

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

namespace mlir::blk {

inline void registerCommonToLLVMDependencies(DialectRegistry &registry) {
  registry.insert<cf::ControlFlowDialect, LLVM::LLVMDialect>();
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

} // namespace mlir::blk

#endif // BLK_TARGET_TOLLVM_H
