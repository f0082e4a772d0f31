//===- CrashWatchdogTest.cpp - a crash always ends the process ------------===//
//
// The watchdog (blk/Driver/CrashWatchdog.h) in front of a crash handler
// that never returns, as LLVM's deadlocked in malloc after a kernel had
// corrupted the heap, and in front of one that does. Death tests: each runs
// in a child process.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/CrashWatchdog.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace {

void installHandler(void (*handler)(int), int signal = SIGABRT) {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
}

void hangForever(int) {
  for (;;)
    pause();
}

void reportAndReturn(int) {
  const char text[] = "crash report\n";
  ssize_t ignored = write(STDERR_FILENO, text, sizeof(text) - 1);
  (void)ignored;
}

TEST(CrashWatchdogDeathTest, EndsAHandlerThatNeverReturns) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        installHandler(hangForever);
        blk::installCrashWatchdog("tool", /*seconds=*/1);
        std::abort();
      },
      testing::ExitedWithCode(128 + SIGABRT),
      "tool: crashed \\(SIGABRT\\), and the crash handler did not finish");
}

TEST(CrashWatchdogDeathTest, EndsAHangingHandlerOfAFault) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        installHandler(hangForever, SIGSEGV);
        blk::installCrashWatchdog("tool", /*seconds=*/1);
        raise(SIGSEGV);
      },
      testing::ExitedWithCode(128 + SIGSEGV),
      "tool: crashed \\(SIGSEGV\\), and the crash handler did not finish");
}

TEST(CrashWatchdogDeathTest, RunsTheHandlerThenAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        installHandler(reportAndReturn);
        blk::installCrashWatchdog("tool", /*seconds=*/1);
        std::abort();
      },
      testing::KilledBySignal(SIGABRT), "crash report");
}

TEST(CrashWatchdogDeathTest, AbortsWithNoHandlerBefore) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        installHandler(SIG_DFL);
        blk::installCrashWatchdog("tool", /*seconds=*/1);
        raise(SIGABRT);
        std::_Exit(0);
      },
      testing::KilledBySignal(SIGABRT), "");
}

} // namespace
