//===- Tensors.h - a run's data: shape, inputs, expectations, outputs -*- C++ -*-===//
//
// The shape and element type (from the flags or the --input file), the
// host tensors of the fitted program filled with seeded data or the
// --input files, the --expect files read before the run, the host memory
// all of it needs checked before anything is allocated, and --output
// written after it.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_TENSORS_H
#define TOOLS_SOFTMAX_RUN_TENSORS_H

#include "Options.h"
#include "Problem.h"

#include "blk/Runtime/Npy.h"

#include <string>
#include <vector>

namespace softmax_run {

/// The shape and element type, from the options or the --input file (read
/// into `array`).
bool readShape(const RunOptions &options, Problem &problem,
               blk::runtime::NpyArray &array, std::string &error);

/// A product's shape (M, N, K) from its operands' files where the problem
/// was given by --input NAME=FILE alone (readShape took the first 2-D
/// file's): M x K from the rows_by_inner tensor's file, K x N from the
/// inner_by_cols tensor's; fails if their K differ. Nothing changes for a
/// program without both, or where --rows, --cols or --inner was given.
bool inferProductShape(const RunOptions &options,
                       const std::vector<mlir::blk::KernelSignature> &signatures,
                       Problem &problem, std::string &error);

/// Refuses a problem that needs more host memory than the machine has,
/// before anything is allocated.
bool checkHostMemory(const RunOptions &options, const Problem &problem,
                     const std::vector<mlir::blk::KernelSignature> &fitted,
                     std::string &error);

/// The host tensors of the fitted program with their inputs: the --input
/// file (`array`) in the primary input, the NAME=FILE ones in theirs, and
/// seeded data (with --special, special rows) everywhere else, shaped for
/// the reference kind. Also checks that --output names outputs and reads
/// the --expect files into problem.expectations, before anything runs.
bool makeTensors(const RunOptions &options,
                 const std::vector<mlir::blk::KernelSignature> &fitted,
                 Problem &problem, const Specialization &binding,
                 const blk::runtime::NpyArray &array,
                 std::vector<blk::runtime::HostTensor> &tensors,
                 std::string &error);

/// Writes every --output: the unnamed file gets the problem's primary
/// output, each NAME=FILE its output tensor, each in its own type.
bool writeOutputs(const RunOptions &options, const Problem &problem,
                  const std::vector<blk::runtime::HostTensor> &tensors,
                  std::string &error);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_TENSORS_H
