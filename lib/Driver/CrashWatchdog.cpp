//===- CrashWatchdog.cpp - a crash always ends the process ----------------===//
//
// Only async-signal-safe calls (sigaction, timer_settime, write, _exit,
// raise) from the handlers on: the heap may be what failed. Not alarm():
// LLVM's crash handler sets and clears one of its own (PrettyStackTrace),
// which cancelled the watchdog's; the watchdog's timer is its own, made
// before any crash, and signals with a real-time signal.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/CrashWatchdog.h"

#include <csignal>
#include <cstring>
#include <ctime>
#include <unistd.h>

namespace {

/// The signals LLVM's handler reports a crash for, with the handler in
/// place before the watchdog's.
struct WatchedSignal {
  int signal;
  const char *name;
  struct sigaction handlerBefore;
};
WatchedSignal watchedSignals[] = {
    {SIGABRT, "SIGABRT", {}}, {SIGSEGV, "SIGSEGV", {}},
    {SIGBUS, "SIGBUS", {}},   {SIGILL, "SIGILL", {}},
    {SIGFPE, "SIGFPE", {}},   {SIGTRAP, "SIGTRAP", {}},
};

const char *watchdogTool = "blk";
unsigned watchdogSeconds = blk::kCrashHandlerSeconds;
timer_t watchdogTimer;
bool hasWatchdogTimer = false;
/// The crash being handled (0: none yet); the first one's exit status is
/// the process's.
volatile sig_atomic_t crashSignal = 0;

WatchedSignal *findWatched(int signal) {
  for (WatchedSignal &watched : watchedSignals)
    if (watched.signal == signal)
      return &watched;
  return nullptr;
}

void writeError(const char *text) {
  ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void setAction(int signal, void (*handler)(int)) {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
}

/// The crash handler did not finish in time (a deadlock in malloc): exit
/// as the crash would have.
void onWatchdogExpiry(int) {
  WatchedSignal *watched = findWatched(crashSignal);
  writeError(watchdogTool);
  writeError(": crashed (");
  writeError(watched ? watched->name : "a signal");
  writeError("), and the crash handler did not finish (a corrupted heap?); "
             "exiting\n");
  _exit(128 + int(crashSignal));
}

void onCrash(int signal, siginfo_t *info, void *context) {
  WatchedSignal *watched = findWatched(signal);
  if (crashSignal == 0) {
    crashSignal = signal;
    if (hasWatchdogTimer) {
      struct itimerspec expiry;
      std::memset(&expiry, 0, sizeof(expiry));
      expiry.it_value.tv_sec = time_t(watchdogSeconds);
      timer_settime(watchdogTimer, 0, &expiry, nullptr);
    }
  }
  // The handler in place before the watchdog (LLVM's), then the default
  // action: the signal is blocked while this runs, so the raise ends the
  // process when the handler returns (a fault would also recur).
  const struct sigaction &before = watched->handlerBefore;
  sigaction(signal, &before, nullptr);
  if (before.sa_flags & SA_SIGINFO)
    before.sa_sigaction(signal, info, context);
  else if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN)
    before.sa_handler(signal);
  setAction(signal, SIG_DFL);
  raise(signal);
}

} // namespace

void blk::installCrashWatchdog(const char *tool, unsigned seconds) {
  watchdogTool = tool;
  watchdogSeconds = seconds;
  setAction(SIGRTMIN, onWatchdogExpiry);
  struct sigevent event;
  std::memset(&event, 0, sizeof(event));
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = SIGRTMIN;
  hasWatchdogTimer =
      timer_create(CLOCK_MONOTONIC, &event, &watchdogTimer) == 0;

  for (WatchedSignal &watched : watchedSignals) {
    struct sigaction action;
    std::memset(&action, 0, sizeof(action));
    action.sa_sigaction = onCrash;
    // On LLVM's alternate stack where it made one: a stack overflow has
    // none left.
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(watched.signal, &action, &watched.handlerBefore);
  }
}
