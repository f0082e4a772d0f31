//===- Report.h - what softmax-run prints and appends -----------*- C++ -*-===//
//
// The human report (standard output, or standard error where standard
// output carries an array or the --json object), errors, the timing line
// and its CSV row, and files written whole or not at all.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_REPORT_H
#define TOOLS_SOFTMAX_RUN_REPORT_H

#include "Options.h"
#include "Problem.h"

#include "blk/Driver/Driver.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>

namespace softmax_run {

/// Sends the report to standard error from now on (else standard output).
void reportToStandardError(bool toStandardError);
/// Where the run is reported.
llvm::raw_ostream &report();

/// Prints "softmax-run: MESSAGE", records it for --json; returns 1.
int fail(const std::string &message);

double millisecondsSince(std::chrono::steady_clock::time_point start);

/// What `write` prints, written whole or not at all
/// (blk::runtime::writeFileWhole); a failure is printed.
bool writeOutputFile(const std::string &path,
                     llvm::function_ref<void(llvm::raw_ostream &)> write);

/// Records where the compile time went; prints it with --verbose.
void reportCompileTimes(const RunOptions &options,
                        const mlir::blk::CompileTimes &times, double loadMs);

/// What a timing measured.
struct Timing {
  uint64_t movedBytes = 0;
  double milliseconds = 0;
  /// GB/s of a copy of the same bytes (0: not measured).
  double copyGBps = 0;
  int runs = 0;
  /// ", L2 flushed" or ", wall clock"; "device" or "host".
  const char *how = "";
  const char *copyKind = "";
};

/// Prints the timing of `kernel` (and appends it to --csv as measured on
/// `target`); false if the CSV could not be written.
bool reportBench(const RunOptions &options, const Problem &problem,
                 const std::string &kernel, const std::string &target,
                 const Timing &timing);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_REPORT_H
