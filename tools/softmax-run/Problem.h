//===- Problem.h - what softmax-run computes and how it binds a program --*- C++ -*-===//
//
// A softmax problem (shape, strides, element type, data) and the rules that
// turn it into a specialization of a block program: the values of its
// compile-time constants, its warps and its grid.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_PROBLEM_H
#define TOOLS_SOFTMAX_RUN_PROBLEM_H

#include "blk/Runtime/Numerics.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax_run {

struct Problem {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t inStride = 0;
  int64_t outStride = 0;
  blk::runtime::ElementType type = blk::runtime::ElementType::F32;
  /// rows * inStride values (padding included), as float.
  std::vector<float> input;
};

/// The input as the kernel reads it: rows x inStride elements of the
/// problem's element type.
std::vector<uint8_t> stageInput(const Problem &problem);

/// The arguments softmax-run passes to every kernel of a program:
///   (out, in: !blk.ptr<T>, in_row_stride, out_row_stride, n_rows, n_cols:
///    i32, scratch...: !blk.ptr<T> {blk.scratch = "rows" | "matrix"})
/// The k-th scratch argument of every kernel is the same buffer.
struct KernelABI {
  std::vector<std::string> scratchKinds;

  /// Checks every kernel of `program` (already fitted to the problem's
  /// element type) against the ABI and reads its scratch buffers.
  static bool read(mlir::ModuleOp program, const Problem &problem,
                   KernelABI &abi, std::string &error);
  size_t scratchBytes(size_t index, const Problem &problem) const;
};

/// One kernel launch's parameters: a slot per argument, and the pointers to
/// the slots that cuLaunchKernel and the CPU kernels take. Pointers are
/// given as 64-bit addresses (device or host).
struct KernelArguments {
  KernelArguments(uint64_t out, uint64_t in, const Problem &problem,
                  const std::vector<uint64_t> &scratch);
  KernelArguments(const KernelArguments &) = delete;
  std::vector<uint64_t> pointers;
  int32_t scalars[4];
  std::vector<void *> slots;
};

/// How one program is bound to a problem.
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
///           (`maxCtas` > 1): one CTA per 8192 elements of BLOCK, at most 8
///           (and `maxCtas`);
///   warps = one per 1024 elements of a ROWS x BLOCK block per CTA (at most
///           16), or per 512 for a program that loops over the row (at most
///           32), and never fewer than the kernel's num_warps;
///   grid  = ceil(rows / ROWS) (rows when the program has no ROWS), times
///           SPLITS when the program has it; a
///           persistent kernel's grid is set at launch (GpuExecution).
/// `overrides` (from --const) win; a constant of another name must be given
/// there. Fails with a message naming the missing constant.
bool chooseSpecialization(mlir::ModuleOp program, const Problem &problem,
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
candidateSpecializations(mlir::ModuleOp program, const Problem &problem,
                         const llvm::StringMap<int64_t> &overrides,
                         int64_t maxTile, int64_t maxCtas);

/// A copy of `program` fitted to the problem: its `blk.divisibility`
/// promises on integer arguments (row strides, sizes) are kept only where
/// the problem's values keep them, and arguments without one that are
/// multiples of 16 get that promise, as Triton specializes on argument
/// divisibility; and for f16/bf16 data its f32 memory accesses go through
/// the narrow type (blk-storage-type). Null if a pass failed (diagnosed).
mlir::OwningOpRef<mlir::ModuleOp> fitToProblem(mlir::ModuleOp program,
                                               const Problem &problem);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_PROBLEM_H
