//===- Programs.h - the softmax programs built into the library -*- C++ -*-===//
//
// The programs of python-free-examples/, compiled into the library as text,
// and the choice of one for a shape: what `softmax-run auto` runs, and what a
// C++ caller can use without the example files at hand.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_PROGRAMS_PROGRAMS_H
#define BLK_PROGRAMS_PROGRAMS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::blk {

struct BuiltinProgram {
  /// The file name in python-free-examples/, e.g. "softmax_fused.mlir".
  llvm::StringRef name;
  /// The program's MLIR source.
  llvm::StringRef source;
};

/// Every built-in program, in file-name order.
llvm::ArrayRef<BuiltinProgram> getBuiltinPrograms();

/// The built-in program named `name` (with or without ".mlir"), or null.
const BuiltinProgram *lookupBuiltinProgram(llvm::StringRef name);

/// The softmax program for rows of `cols` elements of `elementBytes` bytes,
/// measured on an H200 (docs/benchmarks.md):
///   - up to 512 columns, softmax_multirow (several rows per program);
///   - rows that one program holds in registers, softmax_fused: up to 32768
///     columns, and with thread-block clusters (`hasClusters`, sm_90+) up
///     to 262144 f32 or 65536 16-bit columns;
///   - longer rows, softmax_split (a row over many programs, two kernels),
///     up to 2^28 columns (its SPLITS partials fill one block of
///     registers);
///   - beyond, softmax_online (one program walks its row in tiles).
const BuiltinProgram &chooseSoftmaxProgram(int64_t cols, int64_t elementBytes,
                                           bool hasClusters);

} // namespace mlir::blk

#endif // BLK_PROGRAMS_PROGRAMS_H
