//===- Parallel.h - host loops over rows on every core ----------*- C++ -*-===//
//
// The host's share of a checked run (filling inputs, the float64
// references, comparing outputs with them) is a loop over rows, and on
// problems of 2^31 elements it takes longer than the kernels. Each row is
// independent, and the callers combine per-row (or per-block) results in a
// fixed order, so what they compute does not depend on the thread count.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_PARALLEL_H
#define BLK_RUNTIME_PARALLEL_H

#include <cstdint>
#include <functional>

namespace blk::runtime {

/// Runs body(row) for rows [0, rows), each once, on every core (contiguous
/// ranges of rows a thread).
void forEachRowInParallel(int64_t rows,
                          const std::function<void(int64_t)> &body);

} // namespace blk::runtime

#endif // BLK_RUNTIME_PARALLEL_H
