//===- Interpreter.h - block programs run op by op in float64 ---*- C++ -*-===//
//
// The float64 reference of any kernel: its program, run on the host op by
// op as the program says (masks and `other` values, reductions, loops,
// special values), every float in double precision and every integer
// exactly at its width. `softmax-run --check` compares a run with it
// wherever no kind reference (blk/Runtime/Reference.h) is named, on the CPU
// and the GPU alike, so a new kernel is checked without a reference written
// for it. It checks the compilers, not the program: a wrong program is
// wrong in both.
//
// What it runs is the program the compilers start from: fitted to the
// problem and specialized (its constants bound, every block shape static),
// before any lowering pass. Integer faults (a division by zero, a shift by
// the width, an access outside a tensor) are errors at the op, as a
// checked CPU run reports them.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_INTERPRETER_H
#define BLK_INTERPRETER_INTERPRETER_H

#include "blk/Runtime/HostTensor.h"
#include "blk/Runtime/Reference.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <vector>

namespace mlir::blk {

/// Runs every kernel of `program` (specialized: no constant left to bind)
/// in order, each over `grid` programs, on the tensors in `tensors` (every
/// tensor the kernels take, scratch ones included: inputs and scratch read
/// as stored, widened to double), the parameters in `scalars` and the
/// problem `shape`. `outputs` gets every output tensor, rows x cols dense,
/// as the program computes it in float64 (an element it never writes is
/// NaN). A kernel whose programs meet (blk.program_barrier) runs as on
/// the GPU: a persistent grid of at most 256 programs at once, each
/// walking its work. Fails with an error at the op that cannot be run (a
/// fault, an op it does not know, a round of a barrier that cannot fill).
LogicalResult interpretProgram(ModuleOp program, int64_t grid,
                               const ::blk::runtime::ProgramShape &shape,
                               const std::vector<::blk::runtime::HostTensor> &tensors,
                               const ::blk::runtime::ScalarValues &scalars,
                               std::vector<::blk::runtime::ReferenceOutput> &outputs);

} // namespace mlir::blk

#endif // BLK_INTERPRETER_INTERPRETER_H
