//===- Parallel.cpp - host loops over rows on every core ------------------===//
#include "blk/Runtime/Parallel.h"

#include <algorithm>
#include <pthread.h>
#include <thread>
#include <vector>

using namespace blk::runtime;

namespace {

struct Share {
  const std::function<void(int64_t)> *body;
  int64_t index;
};

void *runShare(void *argument) {
  const auto *share = static_cast<const Share *>(argument);
  (*share->body)(share->index);
  return nullptr;
}

} // namespace

void blk::runtime::runShares(int64_t shares,
                             const std::function<void(int64_t)> &body) {
  if (shares <= 0)
    return;
  std::vector<Share> arguments(shares);
  std::vector<pthread_t> started;
  std::vector<int64_t> notStarted;
  started.reserve(shares);
  notStarted.reserve(shares);
  for (int64_t index = 1; index < shares; ++index) {
    arguments[index] = {&body, index};
    pthread_t thread;
    if (pthread_create(&thread, nullptr, runShare, &arguments[index]) == 0)
      started.push_back(thread);
    else
      notStarted.push_back(index);
  }
  body(0);
  for (int64_t index : notStarted)
    body(index);
  for (pthread_t thread : started)
    pthread_join(thread, nullptr);
}

int64_t blk::runtime::runSharesTogether(
    int64_t shares, const std::function<void(int64_t)> &body,
    const std::function<void(int64_t)> &giveUp) {
  std::vector<Share> arguments(std::max<int64_t>(shares, 0));
  std::vector<pthread_t> started;
  started.reserve(arguments.size());
  for (int64_t index = 0; index < shares; ++index) {
    arguments[index] = {&body, index};
    pthread_t thread;
    if (pthread_create(&thread, nullptr, runShare, &arguments[index]) != 0) {
      for (int64_t rest = index; rest < shares; ++rest)
        giveUp(rest);
      break;
    }
    started.push_back(thread);
  }
  for (pthread_t thread : started)
    pthread_join(thread, nullptr);
  return int64_t(started.size());
}

int64_t blk::runtime::getHostShares(int64_t most) {
  return std::clamp<int64_t>(int64_t(std::thread::hardware_concurrency()), 1,
                             std::max<int64_t>(most, 1));
}

void blk::runtime::forEachRowInParallel(
    int64_t rows, const std::function<void(int64_t)> &body) {
  if (rows <= 0)
    return;
  int64_t shares = getHostShares(rows);
  runShares(shares, [&](int64_t share) {
    for (int64_t row = rows * share / shares;
         row < rows * (share + 1) / shares; ++row)
      body(row);
  });
}
