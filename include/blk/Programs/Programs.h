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

/// What the choice of a program knows of its target.
struct ChoiceTarget {
  /// A GPU of sm_90 or newer, where the choices were measured, running
  /// programs of one CTA: a launch's programs stay resident at once, so a
  /// split row's parts may meet inside one launch.
  bool residentGrid = false;
  /// A GPU of sm_90 or newer that may run a program on a thread-block
  /// cluster (the caller did not ask for one CTA per program).
  bool clusters = false;
  /// Its streaming multiprocessors (0: not known, a whole chip assumed): a
  /// GPU that cannot keep a split row's parts resident at once (a MIG
  /// slice) gets the program whose parts need not meet.
  int64_t multiprocessors = 0;
};

/// The softmax program for rows of `cols` elements of `elementBytes` bytes,
/// measured on an H100 and an H200 (docs/benchmarks.md):
///   - up to 512 columns, softmax_multirow (several rows per program);
///   - rows that one program holds in registers, softmax_fused: up to 32768
///     columns, and on clusters up to 262144 f32 or 65536 16-bit columns
///     (262144 where the row is kept in shared memory);
///   - longer f32 rows of whole 16-byte vectors on a resident grid, up to
///     2^20 columns,
///     softmax_split_resident (a row over many programs that meet in one
///     launch, each element read once);
///   - longer rows, softmax_split (a row over many programs, two kernels),
///     up to 2^28 columns (its SPLITS partials fill one block of
///     registers);
///   - beyond, softmax_online (one program walks its row in tiles).
const BuiltinProgram &chooseSoftmaxProgram(int64_t cols, int64_t elementBytes,
                                           ChoiceTarget target);

} // namespace mlir::blk

#endif // BLK_PROGRAMS_PROGRAMS_H
