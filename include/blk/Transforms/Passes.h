//===- Passes.h - blk transformations -------------------------*- C++ -*-===//
#ifndef BLK_TRANSFORMS_PASSES_H
#define BLK_TRANSFORMS_PASSES_H

#include "blk/IR/BlkDialect.h"
#include "blk/Target/CompileOptions.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::blk {

#define GEN_PASS_DECL
#include "blk/Transforms/Passes.h.inc"

/// The specializer with its constants given from C++ (e.g. by the runner,
/// which derives BLOCK from the input shape).
std::unique_ptr<Pass>
createBlkSpecializePass(const llvm::StringMap<int64_t> &constants);

#define GEN_PASS_REGISTRATION
#include "blk/Transforms/Passes.h.inc"

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_PASSES_H
