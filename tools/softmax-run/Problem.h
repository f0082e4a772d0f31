//===- Problem.h - what softmax-run computes ----------------------*- C++ -*-===//
//
// A softmax problem with its data, and the kernel arguments built from the
// kernels' declared ABI (blk/Driver/Driver.h: KernelSignature). Fitting,
// binding and compiling are the driver's.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_PROBLEM_H
#define TOOLS_SOFTMAX_RUN_PROBLEM_H

#include "blk/Driver/Driver.h"
#include "blk/Runtime/Launch.h"
#include "blk/Runtime/Numerics.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax_run {

using mlir::blk::Specialization;

/// A tensor of a compiled program and the bytes a launcher allocates for
/// it.
struct Tensor {
  mlir::blk::KernelArgument declaration;
  size_t bytes = 0;
};

struct Problem {
  /// Shape, element type and row strides: what compilation sees.
  mlir::blk::ProblemDesc desc;
  /// The matrix softmax-run fills (`input`) and the one it checks
  /// (`output`).
  std::string input, output;
  /// Scalar parameters (--param NAME=VALUE) by name.
  llvm::StringMap<std::string> params;
  /// rows x inStride values of the input (padding included), as float.
  std::vector<float> data;
  /// 1 where the input was a 1-D .npy array: the output is written as one.
  unsigned inputDimensions = 2;

  int64_t rows() const { return desc.rows; }
  int64_t cols() const { return desc.cols; }
  int64_t inStride() const { return desc.getRowStride(input); }
  int64_t outStride() const { return desc.getRowStride(output); }
  blk::runtime::ElementType type() const { return desc.elementType; }
};

/// Picks the matrix softmax-run fills and the one it checks: it runs
/// programs with exactly one matrix input and one matrix output. The
/// message says what the program declares instead.
bool findInputAndOutput(
    const std::vector<mlir::blk::KernelSignature> &signatures,
    Problem &problem, std::string &error);

/// Every tensor of the compiled kernels, once, in order of appearance,
/// sized for the shape they were compiled for.
blk::runtime::Status getTensors(const blk::runtime::ProgramImage &image,
                                std::vector<Tensor> &tensors);

/// The input as the kernel reads it: rows x inStride elements of the
/// problem's element type.
std::vector<uint8_t> stageInput(const Problem &problem);

/// The launch arguments of the problem: its shape, row strides and
/// parameters; the launcher adds the tensors' addresses.
blk::runtime::LaunchArguments getLaunchArguments(const Problem &problem);

/// Fails if --param names a parameter no kernel takes, or, saying how to
/// give it, if a kernel takes a parameter that --param did not give.
bool checkParams(const std::vector<mlir::blk::KernelSignature> &signatures,
                 const Problem &problem, std::string &error);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_PROBLEM_H
