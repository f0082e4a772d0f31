//===- Check.h - what --check and --expect compare with ---------*- C++ -*-===//
//
// The reference a run is checked against, chosen, never guessed: a kernel
// kind's float64 reference where the kernel declares its kind or
// --reference names one, the CPU lowering of the same program where
// --reference cpu asks (GPU runs), else the program itself run in float64
// (blk/Interpreter). Its values, the comparison (floats within their
// type's tolerance, blk/Runtime/Numerics.h; integers exactly), a line per
// output, and --output written only where every comparison held.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_CHECK_H
#define TOOLS_SOFTMAX_RUN_CHECK_H

#include "Options.h"
#include "Problem.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace softmax_run {

/// Sets problem.reference or problem.againstCPULowering: --reference (a
/// kind, or cpu), else softmax for `auto`, else the kind a one-kernel
/// program is named after (@log_softmax) or the kind its module is named
/// after (`module @attention_backward`, a program of several kernels), else
/// neither (the program itself in float64). Never a guess from the
/// tensors: a GELU kernel of one input and one output is not a softmax.
bool chooseReference(const RunOptions &options, mlir::ModuleOp program,
                     const std::vector<mlir::blk::KernelSignature> &signatures,
                     Problem &problem, std::string &error);

/// What the check line says an output was compared with.
std::string describeReference(const Problem &problem);

/// The float64 reference of every output: the kind's where the problem has
/// one, else the specialized program's, run op by op on the run's inputs
/// (and zeroed scratch tensors, as a launch gives them). False, with the
/// errors printed, where the program cannot be run so.
bool computeExpected(mlir::ModuleOp fitted, const Problem &problem,
                     const Specialization &binding,
                     const std::vector<blk::runtime::HostTensor> &tensors,
                     std::vector<blk::runtime::ReferenceOutput> &expected);

/// What --check compares a GPU run with under --reference cpu: the same
/// program compiled for the CPU (with its own binding and bounds checks),
/// run on the same inputs (a copy of `tensors`).
bool expectFromCPU(const RunOptions &options, mlir::ModuleOp fitted,
                   const Problem &problem,
                   const mlir::blk::CompileOptions &gpuOptions,
                   std::vector<blk::runtime::HostTensor> tensors,
                   std::vector<blk::runtime::ReferenceOutput> &expected);

/// --check (against `expected`), --expect and --output on a run's tensors;
/// false if a comparison failed (no output is then written) or an output
/// could not be written.
bool checkAndWrite(const RunOptions &options, const Problem &problem,
                   const std::vector<blk::runtime::HostTensor> &tensors,
                   const std::vector<blk::runtime::ReferenceOutput> &expected);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_CHECK_H
