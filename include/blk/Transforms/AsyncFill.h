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

namespace mlir::blk {

/// Whether blk-async-fill copies the row `load` reads into the buffer that
/// keeps it, given its `min-runs`: a load outside loops that moves at least
/// `minRuns` runs of 16 bytes a thread, each all in or all out of its mask.
bool isFilledAsynchronously(LoadOp load, int64_t minRuns,
                            AccessAnalysis &analysis);

} // namespace mlir::blk

#endif // BLK_TRANSFORMS_ASYNCFILL_H
