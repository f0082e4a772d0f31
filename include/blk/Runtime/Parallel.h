//===- Parallel.h - host loops over rows on every core ----------*- C++ -*-===//
//
// The host's share of a checked run (filling inputs, the float64
// references, comparing outputs with them, interpreting a program in
// float64) is a loop over rows or programs, and on problems of 2^31
// elements it takes longer than the kernels. Each row is independent, and
// the callers combine per-row (or per-block) results in a fixed order, so
// what they compute does not depend on the thread count.
//
// The threads are started with pthread_create, whose failure (a process at
// its thread limit) is a return code: that share then runs on the calling
// thread. std::thread reports it by an exception, which this library,
// built without them, would turn into an abort of the process it is
// embedded in.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_PARALLEL_H
#define BLK_RUNTIME_PARALLEL_H

#include <cstdint>
#include <functional>

namespace blk::runtime {

/// Runs body(share) once for each share in [0, shares): share 0 on the
/// calling thread, the others on threads of their own where the host
/// starts them, else on the calling thread after share 0. Returns once
/// every share has run.
void runShares(int64_t shares, const std::function<void(int64_t)> &body);

/// Runs body(share) for every share in [0, shares) at once, each on a
/// thread of its own, for shares that wait for each other (programs that
/// meet). Where the host does not start a share's thread, giveUp(share) is
/// called for it and for every later share instead of starting them (the
/// started ones must then be able to stop waiting). Returns, once the
/// started shares have returned, how many were started.
int64_t runSharesTogether(int64_t shares,
                          const std::function<void(int64_t)> &body,
                          const std::function<void(int64_t)> &giveUp);

/// The shares of work the host's cores can run at once: its hardware
/// threads, at least 1, at most `most`.
int64_t getHostShares(int64_t most);

/// Runs body(row) for rows [0, rows), each once, on every core (contiguous
/// ranges of rows a share).
void forEachRowInParallel(int64_t rows,
                          const std::function<void(int64_t)> &body);

} // namespace blk::runtime

#endif // BLK_RUNTIME_PARALLEL_H
