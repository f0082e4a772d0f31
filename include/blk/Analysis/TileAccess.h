//===- TileAccess.h - 2-D loads that read a box of a matrix -----*- C++ -*-===//
//
// A TMA descriptor describes a matrix by its address, rows, columns and row
// stride, and copies a box of it, zeros outside. A blk.load reads such a
// box when its offsets are `(r0 + i) * stride + (c0 + j)` for element
// (i, j), its base and stride are the kernel's arguments of one matrix
// tensor, and its mask is exactly `r0 + i < rows && c0 + j < cols` with
// `rows` and `cols` the kernel arguments that are that tensor's extent
// (the problem's rows, cols or inner, as its #blk.arg shape says), 0 where
// it is off. Anything else (another mask, a base moved by blk.addptr, a
// stride that is not the argument) is not recognized: such a load keeps
// the copies that follow its offsets. A box that starts before the matrix
// (a negative row or column) reads zeros there, where the load would read
// outside its tensor: undefined for the load.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_ANALYSIS_TILEACCESS_H
#define BLK_ANALYSIS_TILEACCESS_H

#include "blk/IR/BlkDialect.h"

#include <optional>

namespace mlir::blk {

/// Where a 2-D load's box lies in its matrix.
struct TileAccess {
  /// The kernel argument of the matrix (a !blk.ptr with its #blk.arg).
  BlockArgument matrix;
  /// The kernel argument of its row stride, and of its rows (the bound of
  /// the mask's row index).
  BlockArgument rowStride, rowBound;
  /// The scalars whose sum is the box's first row, and first column.
  SmallVector<Value> rowStart, colStart;
};

/// The box `load` reads, if it reads one as the file comment says.
std::optional<TileAccess> getTileAccess(LoadOp load);

} // namespace mlir::blk

#endif // BLK_ANALYSIS_TILEACCESS_H
