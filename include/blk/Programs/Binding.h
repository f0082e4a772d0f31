//===- Binding.h - binding a block program to a softmax shape --*- C++ -*-===//
//
// The rules that bind a softmax program to a shape: the values of its
// compile-time constants (BLOCK, ROWS, SPLITS), its warps, its CTAs per
// program and its grid. softmax-run applies them; so can any C++ caller
// (with chooseSoftmaxProgram in Programs.h for the program itself).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_PROGRAMS_BINDING_H
#define BLK_PROGRAMS_BINDING_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::blk {

/// What the rules look at: M x N elements of `elementBytes` bytes.
struct SoftmaxShape {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t elementBytes = 4;
};

/// How one program is bound to a shape.
struct Specialization {
  llvm::StringMap<int64_t> constants;
  int64_t numWarps = 0; // 0: each kernel's own num_warps
  int64_t numCtas = 0;  // 0: each kernel's own num_ctas
  int64_t grid = 0;     // programs (clusters when numCtas > 1)
  /// "BLOCK=1024 ROWS=4", for messages and cache keys.
  std::string describe() const;
};

/// The documented binding rules (README, "softmax-run"):
///   BLOCK = next power of two >= cols; for a program that loops over the
///           row (an scf.for up to n_cols), at most `maxTile`;
///   SPLITS (a program splitting rows into parts) = next power of two
///           >= cols / maxTile, and then BLOCK = the next power of two >=
///           cols / SPLITS;
///   ROWS  = max(2, 512 / BLOCK), at most the next power of two >= rows;
///   ctas  = for a program that holds its row (no loop over it, no SPLITS,
///           no ROWS) with BLOCK >= 65536, on a GPU with clusters
///           (`maxCtas` > 1): one CTA per 16384 f32 or 8192 16-bit
///           elements of BLOCK, at most 16 (and `maxCtas`);
///   warps = one per 1024 elements of a ROWS x BLOCK block per CTA (at most
///           16; one per 2048 on a cluster, 64 elements per thread), or per
///           512 for a program that loops over the row (at most 32), and
///           never fewer than the kernel's num_warps;
///   grid  = ceil(rows / ROWS) (rows when the program has no ROWS), times
///           SPLITS when the program has it; a persistent kernel's grid is
///           set at launch (softmax-run: SMs x occupancy).
/// `overrides` (softmax-run's --const) win; a constant of another name must be given
/// there. Fails with a message naming the missing constant.
bool chooseSpecialization(ModuleOp program, const SoftmaxShape &shape,
                          const llvm::StringMap<int64_t> &overrides,
                          int64_t maxTile, int64_t forcedWarps,
                          int64_t forcedCtas, int64_t maxCtas,
                          Specialization &result, std::string &error);

/// The specializations --autotune tries: the rules' choice and its
/// neighbours (half and twice the warps; half and twice the CTAs of a
/// cluster; ROWS from 1 to 16 for programs with ROWS; half and twice the
/// tile for programs that loop over or split rows), without repetitions.
/// `overrides` stay fixed.
std::vector<Specialization>
candidateSpecializations(ModuleOp program, const SoftmaxShape &shape,
                         const llvm::StringMap<int64_t> &overrides,
                         int64_t maxTile, int64_t maxCtas);

} // namespace mlir::blk

#endif // BLK_PROGRAMS_BINDING_H
