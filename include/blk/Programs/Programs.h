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

/// Whether rows of `cols` elements of `elementBytes` bytes may be split over
/// programs that meet in one launch on `target`: rows of whole 16-byte
/// vectors longer than softmax_fused holds there, up to 2^20 columns, on a
/// resident grid that keeps a row's parts at once.
bool canSplitHeldRows(int64_t cols, int64_t elementBytes, ChoiceTarget target);

/// Whether a program that holds one row a program (blk-split-rows can
/// split it), reads `rowsRead` rows of the problem (held across its
/// reductions or read after them: ProgramTraits) and writes a row or not
/// runs rows of `cols` elements of `elementBytes` bytes split over programs
/// that meet in one launch: rows canSplitHeldRows allows, in every program
/// but one that reads one row and writes none (cross_entropy), which stays
/// on its cluster. H100, 64 x 1048576, % of a copy, held on a cluster ->
/// split (f32 / bf16; docs/benchmarks.md, "Split rows of the family"):
/// softmax_backward 18.6 / 12.4 -> 65.3 / 68.0, rms_norm 17.8 / 21.6 ->
/// 69.8 / 57.2, layer_norm 12.5 / 11.2 -> 46.9 / 52.3 (its sum and squares
/// meeting once a part), log_softmax 61.3 / 55.8 -> 70.1 / 57.1 and the
/// scaled softmax 85.9 / 52.8 -> 95.7 / 56.4 (their max and sum meeting
/// once a part); cross_entropy 59.2 / 47.3 against 58.3 / 46.7.
bool splitsHeldRows(int64_t cols, int64_t elementBytes, int64_t rowsRead,
                    bool writesRows, ChoiceTarget target);

/// Whether a program that holds one row a program (blk-stream-rows can
/// stream it), reads `rowsRead` rows of the problem and writes a row or not
/// walks `rows` rows of `cols` elements of `elementBytes` bytes in tiles,
/// one CTA a row: a program that reads one row and writes none
/// (cross_entropy), on a GPU where a program may take one CTA, for f32
/// rows of whole 16-byte vectors (a loop's tiles are not peeled) longer
/// than one CTA holds (softmax_fused's 32768 columns), at least four rows
/// an SM, so that the CTAs fill the GPU. H100, f32, 4096 rows, held on a
/// cluster -> walked in tiles of 8192 on 16 warps (docs/benchmarks.md,
/// "Read-only rows walked in tiles"): 128256 columns 83.0 -> 101.8% of a
/// copy, 256000 89.3 -> 103.6%; 16384 held 94.5%, walked 87.7%. 16-bit rows
/// are held: not measured walked (two exps an element where a held row
/// takes one).
bool streamsHeldRows(int64_t rows, int64_t cols, int64_t elementBytes,
                     int64_t rowsRead, bool writesRows, ChoiceTarget target);

} // namespace mlir::blk

#endif // BLK_PROGRAMS_PROGRAMS_H
