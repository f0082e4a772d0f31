//===- AsyncFill.h - which kept rows blk-async-fill copies ------*- C++ -*-===//
//
// Asked by blk-async-fill and by blk-stage-held-loads, which keeps a row of
// 32-bit elements only where it will be copied this way.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_ASYNCFILL_H
#define BLK_TRANSFORMS_ASYNCFILL_H

#include "blk/Analysis/AccessAnalysis.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Target/RowPolicy.h"

namespace mlir::blk {

/// Whether blk-async-fill copies the row `load` reads into the buffer that
/// keeps it: a load outside loops whose thread moves runs of 16 bytes,
/// each all in or all out of its mask, as many as `policy` copies.
bool isFilledAsynchronously(LoadOp load, const RowPolicy &policy,
                            AccessAnalysis &analysis);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_ASYNCFILL_H
