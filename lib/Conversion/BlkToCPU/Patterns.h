//===- Patterns.h - pattern groups of convert-blk-to-cpu --------*- C++ -*-===//
//
// The conversion keeps blocks as tensors: only `!blk.ptr<T>` changes type
// (to `!llvm.ptr`). Block ops become tensor and linalg ops, which
// bufferization and linalg-to-loops later turn into loops over buffers;
// memory ops reach the raw pointers through the LLVM dialect.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_CONVERSION_BLKTOCPU_PATTERNS_H
#define BLK_LIB_CONVERSION_BLKTOCPU_PATTERNS_H

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::linalg {
class GenericOp;
} // namespace mlir::linalg

namespace mlir::blk {

/// Whether every op of `generic`'s body computes integers or indices only
/// (offsets, masks): as cheap to compute where an element is read as to
/// read it (blk-fold-element-extracts, blk-clone-integer-blocks).
bool computesIntegersOnly(linalg::GenericOp generic);

/// `!blk.ptr<T>` -> `!llvm.ptr`; every other type (tensors included) is
/// kept.
class BlkToCPUTypeConverter : public TypeConverter {
public:
  explicit BlkToCPUTypeConverter(MLIRContext *context);
};

/// blk.arange, blk.splat, blk.expand_dims, blk.broadcast, blk.reduce and
/// splat tensor constants -> tensor and linalg ops.
void populateBlockOpToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

/// The loads and stores whose offsets are consecutive along the last
/// dimension of the block (AccessAnalysis: contiguity of a whole row), and
/// which are not bounds-checked: each row of such an access is one run of
/// memory.
using RowAccesses = llvm::DenseSet<Operation *>;
RowAccesses findRowAccesses(Operation *root);

/// blk.addptr, blk.load, blk.store -> LLVM pointer arithmetic and accesses
/// inside scf.for loop nests; the accesses of `rowAccesses` by
/// rows, each split where its mask first fails.
void populateMemoryOpToLLVMPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const RowAccesses &rowAccesses);

} // namespace mlir::blk

#endif // BLK_LIB_CONVERSION_BLKTOCPU_PATTERNS_H
