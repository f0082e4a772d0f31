//===- RuntimeParallelTest.cpp - the host's shares of work ----------------===//
#include "blk/Runtime/Parallel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
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

//===----------------------------------------------------------------------===//
// A host at its thread limit (in a child process whose address space has
// no room for a thread's stack: pthread_create fails, as at a process's
// thread limit)
//===----------------------------------------------------------------------===//

void *doNothing(void *) { return nullptr; }

/// Gives new threads stacks of 64 MiB and limits this process's address
/// space to what it maps now and 4 MiB; exits with 2 where a thread still
/// starts (the tests below would then not reach the failure they are
/// about).
void leaveNoRoomForThreads() {
  pthread_attr_t stacks;
  if (pthread_attr_init(&stacks) != 0 ||
      pthread_attr_setstacksize(&stacks, size_t(64) << 20) != 0 ||
      pthread_setattr_default_np(&stacks) != 0)
    std::_Exit(3);
  long pages = 0;
  FILE *statm = std::fopen("/proc/self/statm", "r");
  if (!statm || std::fscanf(statm, "%ld", &pages) != 1)
    std::_Exit(3);
  std::fclose(statm);
  rlim_t bytes = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (4 << 20);
  rlimit limit = {bytes, bytes};
  if (setrlimit(RLIMIT_AS, &limit) != 0)
    std::_Exit(3);
  pthread_t thread;
  if (pthread_create(&thread, nullptr, doNothing, nullptr) == 0)
    std::_Exit(2);
}

// Every share still runs once, on the calling thread.
TEST(RuntimeParallelTest, SharesRunOnTheCallerWhereNoThreadStarts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::vector<int> runs(8, 0);
        std::vector<int> others(8, 0);
        std::thread::id caller = std::this_thread::get_id();
        leaveNoRoomForThreads();
        runShares(8, [&](int64_t share) {
          ++runs[share];
          others[share] = std::this_thread::get_id() != caller;
        });
        bool once = std::all_of(runs.begin(), runs.end(),
                                [](int count) { return count == 1; });
        bool onCaller = std::none_of(others.begin(), others.end(),
                                     [](int other) { return other; });
        std::_Exit(once && onCaller ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// Shares that wait for each other are not run one after another (they
// would wait forever): each is given up, none runs, and none is counted
// as started.
TEST(RuntimeParallelTest, SharesTogetherAreGivenUpWhereNoThreadStarts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::vector<int> gaveUp(8, 0);
        int ran = 0;
        leaveNoRoomForThreads();
        int64_t started = runSharesTogether(
            8, [&](int64_t) { ++ran; },
            [&](int64_t share) { ++gaveUp[share]; });
        bool allGivenUp = std::all_of(gaveUp.begin(), gaveUp.end(),
                                      [](int count) { return count == 1; });
        std::_Exit(started == 0 && ran == 0 && allGivenUp ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(RuntimeParallelTest, HostSharesStayWithinTheWork) {
  EXPECT_EQ(getHostShares(1), 1);
  EXPECT_EQ(getHostShares(0), 1);
  EXPECT_GE(getHostShares(1 << 20), 1);
  EXPECT_LE(getHostShares(3), 3);
}

} // namespace
