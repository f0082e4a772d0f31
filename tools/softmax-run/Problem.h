//===- Problem.h - what softmax-run computes ----------------------*- C++ -*-===//
//
// A row-wise problem: its shape, the program's primary input and output
// (what --input fills, --output writes and the strides options set), its
// scalar parameters, and what --check compares with. The data lives in
// the program's host tensors (blk/Runtime/HostTensor.h), made once the
// program is compiled. Fitting, binding and compiling are the driver's.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_PROBLEM_H
#define TOOLS_SOFTMAX_RUN_PROBLEM_H

#include "blk/Driver/Driver.h"
#include "blk/Runtime/HostTensor.h"
#include "blk/Runtime/Launch.h"
#include "blk/Runtime/Reference.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace softmax_run {

using mlir::blk::Specialization;

struct Problem {
  /// Shape, element type and row strides: what compilation sees.
  mlir::blk::ProblemDesc desc;
  /// The first matrix input the kernels declare (or a product's A), and
  /// their first matrix output (else their first output).
  std::string input, output;
  /// A batch of `batch x heads` problems of the shape (programs with batch
  /// and heads arguments), and the strides between their instances by
  /// tensor name (none given: packed densely).
  int64_t batch = 1, heads = 1;
  std::vector<std::pair<std::string, int64_t>> batchStrides, headStrides;
  /// Scalar parameters (--param NAME=VALUE) by name.
  llvm::StringMap<std::string> params;
  /// What --check compares with: a kernel kind's float64 reference
  /// (blk/Runtime/Reference.h) where the kernel declares its kind or
  /// --reference names one; else the CPU lowering of the same program where
  /// --reference cpu asks (GPU runs); else the program itself run in
  /// float64 (blk/Interpreter/Interpreter.h).
  std::optional<blk::runtime::ReferenceKind> reference;
  /// The binding's CAUSAL constant is nonzero (attention's work is half).
  bool causal = false;
  bool againstCPULowering = false;
  /// A blk.dot takes f32 inputs as tf32: f32 outputs are checked at
  /// blk::runtime::getTf32CheckTolerance.
  bool multipliesTf32 = false;
  /// 1 where the input was a 1-D .npy array: the output is written as one.
  unsigned inputDimensions = 2;
  /// --expect NAME=FILE: what an output must hold, read before the run,
  /// and the file it came from.
  struct Expectation {
    blk::runtime::ReferenceOutput values;
    std::string path;
  };
  std::vector<Expectation> expectations;

  /// The problem with its data's layout: the runtime's shape, the batch
  /// included.
  blk::runtime::ProgramShape getShape() const;
  int64_t rows() const { return desc.rows; }
  int64_t cols() const { return desc.cols; }
  blk::runtime::ElementType type() const { return desc.elementType; }
};

/// Finds the problem's primary input and output (Problem::input, output).
/// The message says what the program declares instead when it has none.
bool findInputAndOutput(
    const std::vector<mlir::blk::KernelSignature> &signatures,
    Problem &problem, std::string &error);

/// Fails unless the batch (--batch, --heads) fits the program: more than
/// one problem needs kernels that take `batch` and `heads`. With layout
/// "bshd", every batched matrix lies [B, M, H, N]: its rows H x N apart,
/// its heads N apart (the strides set in the problem).
bool fitBatch(const std::vector<mlir::blk::KernelSignature> &signatures,
              const std::string &layout, Problem &problem, std::string &error);

/// The launch arguments of the problem: its shape, strides and
/// parameters; the launcher adds the tensors' addresses.
blk::runtime::LaunchArguments getLaunchArguments(const Problem &problem);

/// The scalars a reference reads: the parameters as numbers and the
/// binding's constants.
blk::runtime::ScalarValues getScalars(const Problem &problem,
                                      const Specialization &binding);

/// Bytes one run of the kernels moves: every input and output tensor once,
/// padding excluded.
uint64_t getMovedBytes(const std::vector<blk::runtime::HostTensor> &tensors);

/// Fails if --param names a parameter no kernel takes, or, saying how to
/// give it, if a kernel takes a parameter that --param did not give.
bool checkParams(const std::vector<mlir::blk::KernelSignature> &signatures,
                 const Problem &problem, std::string &error);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_PROBLEM_H
