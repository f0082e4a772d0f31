//===- Parallel.cpp - host loops over rows on every core ------------------===//
#include "blk/Runtime/Parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

void blk::runtime::forEachRowInParallel(
    int64_t rows, const std::function<void(int64_t)> &body) {
  int64_t threads = std::min<int64_t>(
      rows, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int64_t r = rows * t / threads; r < rows * (t + 1) / threads; ++r)
        body(r);
    });
  for (std::thread &thread : pool)
    thread.join();
}
