//===- CrashWatchdog.h - a crash always ends the process --------*- C++ -*-===//
//
// A kernel run with --check-bounds=false that stores out of bounds can
// corrupt the host heap; glibc then aborts from inside malloc, holding its
// lock, and LLVM's crash handler (InitLLVM) allocates while it prints the
// stack: the process hung at 0% CPU instead of exiting (a store 32 bytes
// before its buffer on the CPU, every run with a cold kernel cache). The
// watchdog runs before that handler on every signal LLVM reports a crash
// for (SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP) and starts a
// timer first, so a handler that cannot finish is cut short: the process
// says so and exits with 128 + the signal, as the crash would have.
//
// For the tools only: a library never installs signal handlers in the
// process that embeds it.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_CRASHWATCHDOG_H
#define BLK_DRIVER_CRASHWATCHDOG_H

namespace blk {

/// Seconds a crash handler gets to print its report: a symbolized stack
/// takes about one.
constexpr unsigned kCrashHandlerSeconds = 20;

/// Installs the watchdog in front of the crash handlers in place (call it
/// after llvm::InitLLVM). `tool` names the process in its message and must
/// outlive it.
void installCrashWatchdog(const char *tool,
                          unsigned seconds = kCrashHandlerSeconds);

} // namespace blk

#endif // BLK_DRIVER_CRASHWATCHDOG_H
