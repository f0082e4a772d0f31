//===- RuntimeParallelTest.cpp - the host's shares of work ----------------===//
#include "blk/Runtime/Parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace blk::runtime;

namespace {

// Every share runs once, share 0 on the calling thread; none is left when
// runShares returns.
TEST(RuntimeParallelTest, EveryShareRunsOnceAndShareZeroOnTheCaller) {
  for (int64_t shares : {0, 1, 2, 7, 64}) {
    std::vector<std::atomic<int>> runs(shares);
    std::thread::id caller = std::this_thread::get_id(), first;
    runShares(shares, [&](int64_t share) {
      ++runs[share];
      if (share == 0)
        first = std::this_thread::get_id();
    });
    for (int64_t share = 0; share < shares; ++share)
      EXPECT_EQ(runs[share].load(), 1) << share << " of " << shares;
    if (shares > 0) {
      EXPECT_EQ(first, caller);
    }
  }
}

// Each row once, whatever the count against the host's cores.
TEST(RuntimeParallelTest, EveryRowRunsOnce) {
  for (int64_t rows : {0, 1, 3, 1000}) {
    std::vector<std::atomic<int>> runs(rows);
    forEachRowInParallel(rows, [&](int64_t row) { ++runs[row]; });
    for (int64_t row = 0; row < rows; ++row)
      EXPECT_EQ(runs[row].load(), 1) << row << " of " << rows;
  }
}

// Shares that wait for each other all run at once: here each waits until
// every other has arrived, which one after another would never happen.
TEST(RuntimeParallelTest, SharesTogetherRunAtOnce) {
  constexpr int64_t shares = 8;
  std::atomic<int64_t> arrived(0);
  std::atomic<int> gaveUp(0);
  int64_t started = runSharesTogether(
      shares,
      [&](int64_t) {
        ++arrived;
        while (arrived.load() < shares)
          std::this_thread::yield();
      },
      [&](int64_t) { ++gaveUp; });
  EXPECT_EQ(started, shares);
  EXPECT_EQ(arrived.load(), shares);
  EXPECT_EQ(gaveUp.load(), 0);
}

TEST(RuntimeParallelTest, HostSharesStayWithinTheWork) {
  EXPECT_EQ(getHostShares(1), 1);
  EXPECT_EQ(getHostShares(0), 1);
  EXPECT_GE(getHostShares(1 << 20), 1);
  EXPECT_LE(getHostShares(3), 3);
}

} // namespace
