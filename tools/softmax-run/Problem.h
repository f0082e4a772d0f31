//===- Problem.h - what softmax-run computes ----------------------*- C++ -*-===//
//
// A softmax problem (shape, strides, element type, data), the kernel ABI,
// and the fitting of a program to the problem's strides and element type.
// The binding rules (constants, warps, CTAs, grid) are the library's
// (blk/Programs/Binding.h).
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_PROBLEM_H
#define TOOLS_SOFTMAX_RUN_PROBLEM_H

#include "blk/Programs/Binding.h"
#include "blk/Runtime/Numerics.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax_run {

using mlir::blk::Specialization;

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

/// The shape the binding rules (blk/Programs/Binding.h) see.
mlir::blk::SoftmaxShape shapeOf(const Problem &problem);

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
