//===- Binding.h - binding a block program to a row-wise problem -*- C++ -*-===//
//
// The rules that bind a row-wise program to a problem's size: the values of
// its compile-time constants, its warps, its CTAs per program and its grid.
// What each constant is comes from the program itself (ProgramTraits: the
// roles the kernels declare in #blk.kernel, and whether a loop walks the
// row), never from the constants' names. The compile driver
// (blk/Driver/Driver.h) applies these rules; so can any C++ caller.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_PROGRAMS_BINDING_H
#define BLK_PROGRAMS_BINDING_H

#include "blk/Target/CompileOptions.h"
#include "blk/Target/RowPolicy.h"
#include "blk/Target/TargetInfo.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::blk {

/// What the rules look at: M rows of N elements of `elementBytes` bytes,
/// and a product's inner dimension K (0: none).
struct RowShape {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t elementBytes = 4;
  /// Whether every tensor's row stride is a whole number of 16-byte
  /// vectors (rows whose starts are not are peeled, and not kept in shared
  /// memory).
  bool alignedRowStarts = true;
  int64_t inner = 0;
};

/// What a program's kernels declare and do, as far as binding cares.
struct ProgramTraits {
  /// The constants that are a program's block along a row, its rows and
  /// the programs a row is split over (#blk.kernel's row_block,
  /// rows_per_program and row_splits); empty where no kernel declares one.
  std::string rowBlock, rowsPerProgram, rowSplits;
  /// The constant that is the step of a loop over a product's inner
  /// dimension (#blk.kernel's inner_block); empty where none declares one.
  std::string innerBlock;
  /// Whether a kernel multiplies blocks (blk.dot): the product rules bind
  /// it (a tile of C a program), not the row rules.
  bool multiplies = false;
  /// Whether a product takes f32 inputs as tf32 (`precision tf32`).
  bool multipliesTf32 = false;
  /// The most products (blk.dot) one loop of a kernel holds: two chain
  /// them (attention's S = Q K^T and O += P V, its K step feeding both),
  /// four are attention's gradients (S^T, dP^T, dV and dK a query step).
  int64_t productsPerLoop = 0;
  bool chainsProducts() const { return productsPerLoop > 1; }
  /// Whether a kernel takes the row length (an argument declared `cols`):
  /// one that does not (attention's, its head_dim a block) cannot mask a
  /// row shorter than its row_block.
  bool takesCols = false;
  /// Whether a kernel walks the row in a loop (an scf.for up to the
  /// argument declared `cols`), so that row_block is a tile.
  bool loopsOverRow = false;
  /// Whether a kernel loads in a loop (over rows or tiles): what
  /// num_stages pipelines (blk-pipeline-loads).
  bool loadsInLoops = false;
  /// The most row-long blocks a kernel holds across a reduction (the
  /// blk.load ops of a block with a dimension set by a constant before its
  /// last blk.reduce): a program holding y and dy needs twice the
  /// registers of a softmax; a weight read after the reduction does not
  /// count.
  int64_t heldRows = 1;
  /// The most row-long blocks a kernel reads after its last reduction
  /// (used as they arrive, but in registers at the same time as the held
  /// ones).
  int64_t streamedRows = 0;
  /// Whether a kernel stores a row-long block (a softmax's output), not
  /// only values per row (a cross-entropy's loss).
  bool writesRows = false;
  /// Whether every row-long load is unmasked or masked by one `arith.cmpi
  /// slt` (the row length), so that where the length is a whole number of
  /// vectors each 16-byte run is all in or all out (a causal mask is not).
  bool masksRowsByLength = true;
  /// The largest num_warps, num_ctas and min_ctas_per_sm the kernels ask
  /// for.
  int64_t numWarps = 1, numCtas = 1, minCtasPerSm = 0;

  /// Reads the traits of `program`; fails, with a diagnostic, if its
  /// kernels declare different constants for the same role.
  static FailureOr<ProgramTraits> get(ModuleOp program);
};

/// How one program is bound to a shape.
struct Specialization {
  llvm::StringMap<int64_t> constants;
  int64_t numWarps = 0; // 0: each kernel's own num_warps
  int64_t numCtas = 0;  // 0: each kernel's own num_ctas
  int64_t numStages = 0; // 0: each kernel's own num_stages
  int64_t minCtasPerSm = 0; // 0: each kernel's own min_ctas_per_sm
  /// Rows a program covers (rows_per_program; 1 without one), and the
  /// programs that share a row (row_splits; 1 without).
  int64_t rowsPerProgram = 1, rowParts = 1;
  /// Programs (clusters when numCtas > 1) for `rows` rows: the row count
  /// is a run-time argument, the binding does not depend on it.
  int64_t getGrid(int64_t rows) const;
  /// "BLOCK=1024 ROWS=4 warps=8", for messages and cache keys.
  std::string describe() const;
};

/// What the rules are given: the caller's choices, and what the target
/// allows.
struct BindingOptions {
  /// The one record of the caller's choices: the constants it binds (they
  /// win over the rules), warps, CTAs and stages per program (0 lets the
  /// rules choose), the largest row_block of a program that loops over the
  /// row or splits it, the GPU's multiprocessors.
  ::blk::CompileOptions choices;
  /// The largest cluster the rules may use (TargetInfo::getMaxClusterCtas).
  int64_t maxCtas = kMaxClusterCtas;
  /// Shared memory a CTA may have (TargetInfo::getMaxSharedBytesPerCta; 0:
  /// not known), which the rings of a product's operands must fit.
  int64_t maxSharedBytesPerCta = 0;
  /// Whether a block holding a row (or a split row's part) may be a whole
  /// number of its layout's tiles rather than a power of two (GPU targets,
  /// whose layouts blk-distribute chooses from warps and CTAs).
  bool tileRowBlocks = false;
  /// When the passes keep, copy and peel rows (the one policy they ask
  /// too); none where they keep none (the CPU, or staging off).
  std::optional<RowPolicy> rows;
  /// How the target multiplies 16-bit blocks: on warpgroups (wgmma, whose
  /// operands blk-pipeline-dot-operands copies ahead), on warps (mma.sync,
  /// operands through registers), or not on tensor cores (the CPU, f32).
  enum class Products { scalar, warps, warpgroups };
  Products products = Products::scalar;
};

/// The binding rules (README, "softmax-run"):
///   row_block = next power of two >= cols; for a program that loops over
///           the row, at most `maxTile`;
///   row_splits = next power of two >= cols / maxTile, and then row_block =
///           the next power of two >= cols / row_splits;
///   rows_per_program = max(2, 512 / row_block), at most the next power of
///           two >= rows;
///   ctas  = for a program that holds its row (no loop over it, no
///           splits, one row per program) with row_block x (3 x heldRows
///           + streamedRows x (2 for f32, 1 for 16-bit)) >= 3 x 65536, on
///           a GPU with clusters (`maxCtas` > 1): one CTA per 16384 f32 or
///           8192 16-bit elements of the held rows (32768 for a softmax
///           row of 16-bit data that is not a whole number of vectors,
///           and for a 16-bit row a kernel holds alone and does not write
///           back (cross_entropy's) where the rules choose the warps,
///           whose threads hold up to 128 elements; 16384 on 8 warps, at
///           most 8 CTAs, for an aligned 16-bit row a kernel holds alone
///           and writes back, which blk-stage-held-loads keeps in shared
///           memory; for row_block < 65536: of the held and streamed
///           rows), a power of two, at most 16 (and `maxCtas`);
///   warps = one per 1024 elements of the held rows of a program's block
///           per CTA (at most 16; on a cluster, one per 2048 of the rows
///           its CTAs were counted by, 64 elements per thread), or per 512 for
///           a program that loops over the row (at most 32), and never fewer
///           than the kernel's num_warps; an f32 row a kernel holds alone
///           takes 8 CTAs of 4 warps where a thread then holds at most 100
///           elements; a row kept in shared memory (that 16-bit row, or
///           an aligned f32 row a kernel holds alone, writes back and loads
///           outside loops, masked by its length only, its rows starting
///           on the 16-byte grid, where blk-async-fill copies it) takes
///           CTAs of 8 warps, where the rules choose the block: fewer
///           warps, or for CTAs of 4 half as many CTAs of 8, while a CTA's
///           share fits the kept-row shared memory at most 128 elements a
///           thread; then a 16-bit one fewer CTAs (down to 2) until a
///           thread holds 64 elements; none of it where its rows x fitted
///           CTAs are at most twice the GPU's `multiprocessors`; two
///           16-bit rows held and none streamed (softmax backward), not a
///           whole number of vectors, past 24576 elements with the shift's
///           room: 4 CTAs of 4 warps where a thread then holds at most 104
///           elements of each;
///   then, with `tileRowBlocks` (GPU targets), for one row per program
///           that holds its row or a split part of it: row_block = the
///           smallest whole number of layout tiles (16-byte runs x 32 lanes
///           x warps x ctas) >= (cols + room) / row_splits, where room is a
///           vector less one element for a row that is not a whole number
///           of vectors (blk-peel-alignment's shift), if that is smaller
///           than the power of two, or if the power of two has no such
///           room and the tiles at most double it;
///   grid  = ceil(rows / rows_per_program), times row_splits; a persistent
///           kernel's grid is set at launch (SMs x occupancy).
/// A program that multiplies blocks (ProgramTraits::multiplies) is bound
/// by the product rules instead, a tile of C (rows_per_program x
/// row_block, inner_block deep) a program:
///   16-bit data on tensor cores: 128 x 256 x 64 on 8 warps (N up to 128:
///           row_block = the next power of two >= N, at least 64), 3
///           stages on warpgroups, 2 on warps; rows of M <= 64 take 64 x 64
///           tiles on 4 warps (more programs for a product that reads B
///           once: the rule looks at the row count, which the code still
///           does not depend on), 256 deep on warpgroups where the
///           programs (ceil(N / 64)) are at most the GPU's
///           `multiprocessors`, 128 deep where at most twice (K at least
///           3 such steps, the rings fitting a CTA's shared memory; the
///           rules' tile only: not where the caller binds the block, the
///           rows or the stages);
///   a loop that chains two products on warpgroups (attention,
///           ProgramTraits::chainsProducts): 128 rows x 128 deep on 8
///           warps, 2 stages (K and V in rings) up to row_block 128, 1
///           past it;
///   a loop of more than two products (attention's gradients, four a
///           step): 128 rows x 64 deep on 8 warps, 2 stages on
///           warpgroups; 64 x 32 on 8 warps on warps, and past row_block
///           128 64 x 32 on 4 warps, 1 stage (what fits a CTA's shared
///           memory);
///   f32 data of a `precision tf32` product (not in a chained loop) on
///           tensor cores (mma.sync): 128 x 128 x 32 (N up to 64: 64
///           columns) on 8 warps, 2 stages;
///   else (f32 data, the CPU): 32 x 64 x 32 on 4 warps;
///   warps, where the caller does not give them, on tensor cores (tf32
///           included): one per 16 rows of the tile, 4 to 8;
///   row_splits = ceil(N / row_block), any count.
/// rows_per_program, row_block and inner_block size blocks: powers of two;
/// row_block x row_splits must cover N, and equal it in a program that
/// takes no `cols` argument (it cannot mask the rest of its block).
/// A constant without a role must be bound in `options`; fails, with a
/// diagnostic naming it, otherwise. Also fails where `options` binds a
/// constant the program does not name, or where the role constants do not
/// fit the shape: row_block in [1, next power of two >= cols + room] (or up to
/// `maxTile` for a program that loops over its row); row_splits
/// in [1, min(cols, next power of two >= cols / row_block)]; row_block x
/// row_splits >= cols unless the program loops over its row;
/// rows_per_program in [1, next power of two >= rows]. Warps and CTAs are not
/// checked here: the kernel attribute's verifier checks them when they are
/// applied.
FailureOr<Specialization> chooseSpecialization(ModuleOp program,
                                               const RowShape &shape,
                                               const BindingOptions &options);

/// The specializations autotuning tries: the rules' choice and its
/// neighbours (half and twice the warps; half and twice the CTAs of a
/// cluster; 1 to 16 rows per program; half and twice the tile for
/// programs that loop over or split rows), without repetitions. For a
/// product: the tiles 64 x 64 x 32 to 256 x 128 x 64 and, on tensor
/// cores, their stages. Constants
/// bound in `options` stay fixed; options' warps and CTAs are ignored.
std::vector<Specialization>
candidateSpecializations(ModuleOp program, const RowShape &shape,
                         const BindingOptions &options);

/// Whether a row of `cols` elements of `elementBytes` bytes is a whole
/// number of 16-byte vectors (else blk-peel-alignment shifts it).
bool fillsVectors(int64_t cols, int64_t elementBytes);

/// row_splits as the rules bind it for rows of `cols` in parts of up to
/// `partCols`: the next power of two >= cols / partCols.
int64_t getRuleRowSplits(int64_t cols, int64_t partCols);

/// The first of `constants` (a caller's) that `program` does not name, if
/// any: the rules refuse such a binding, whose name is likely misspelled.
std::optional<std::string>
findUnnamedConstant(ModuleOp program,
                    const std::map<std::string, int64_t> &constants);

} // namespace mlir::blk

#endif // BLK_PROGRAMS_BINDING_H
