//===- SplitRows.h - which kernels blk-split-rows can split -----*- C++ -*-===//
//
// Asked by blk-split-rows, which refuses a kernel it cannot split, and by
// the compile driver, which splits a program's rows only where every kernel
// can be split (fitProgram).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_SPLITROWS_H
#define BLK_TRANSFORMS_SPLITROWS_H

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::blk {

/// A one-dimensional block whose length is still a name: in a kernel that
/// whyRowsCannotSplit accepts, the row's `row_block`.
bool isRowBlock(Type type);

/// A reduction of a row's block to a scalar. Reductions of blocks of known
/// length (a label read as a block of one) are the same for every part of
/// a row.
bool isRowReduction(ReduceOp reduce);

/// The row reductions of `kernel`, in the order they run.
SmallVector<ReduceOp> getRowReductions(func::FuncOp kernel);

/// What a rewrite of a held row makes of it: parts on programs that meet
/// (blk-split-rows), or tiles one program walks (blk-stream-rows).
enum class HeldRowRewrite { split, stream };

/// Why `kernel` does not hold one row a program, alone, as both rewrites
/// need, or an empty string if it does: the conditions of
/// whyRowsCannotSplit, but for a walk in tiles its reductions may be of
/// any type, and only cols must be i32. The reasons are worded for
/// `rewrite`.
std::string whyRowIsNotHeldAlone(func::FuncOp kernel, HeldRowRewrite rewrite);

/// Why blk-split-rows cannot split `kernel`'s row over programs, or an
/// empty string if it can: the kernel holds one row of `row_block` columns
/// a program (no loop over it, no `rows_per_program`, `row_splits`,
/// cluster or persistent grid, one program per row along `x`), its rows
/// and cols are i32, every block is one-dimensional, every block whose
/// length is a constant is the row's (`arange 0 to row_block`), the row
/// block's value is not read, and at least one `blk.reduce` combines a
/// row's block, each to an f32, i32 or i64 (what scratch memory keeps).
std::string whyRowsCannotSplit(func::FuncOp kernel);

/// The partials a split `kernel` keeps for a row in each SPLITS-long slot
/// of its scratch line: one slot per reduction of its row (a max and its
/// sum of exps take two, a sum and its squares about the mean three), all
/// within the row's `cols` columns where slots x SPLITS <= cols.
int64_t countRowSlots(func::FuncOp kernel);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_SPLITROWS_H
