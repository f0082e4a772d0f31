//===- Options.h - softmax-run's command line, parsed once ------*- C++ -*-===//
//
// Every flag of softmax-run, read once into one value (as mlir-opt's
// MlirOptMainConfig::createFromCLOptions does): the rest of the tool reads
// this record, never a cl::opt. What can be checked without the program
// (a target's name, a size, NAME=VALUE pairs, the knobs' ranges) is checked
// here, each error naming its flag.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_OPTIONS_H
#define TOOLS_SOFTMAX_RUN_OPTIONS_H

#include "blk/Target/CompileOptions.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace softmax_run {

/// The files of --input, --output or --expect: at most one unnamed FILE
/// and NAME=FILE pairs, names distinct.
struct FileArguments {
  std::string unnamed;
  std::vector<std::pair<std::string, std::string>> named;

  bool empty() const { return unnamed.empty() && named.empty(); }
  /// Whether a file is standard output ("-").
  bool hasStandardOutput() const;
};

struct RunOptions {
  // The problem.
  /// A .mlir file, a built-in program's name, or `auto`.
  std::string program;
  std::optional<int64_t> rows, cols, inner;
  /// A batch of problems (--batch, --heads) and how its matrices lie.
  int64_t batch = 1, heads = 1;
  std::string layout = "bhsd";
  /// As given (f32, bfloat16...); `dtypeGiven` false: the default or the
  /// input file's.
  std::string dtype = "f32";
  bool dtypeGiven = false;
  /// Row strides of the primary input and output in elements (0: N).
  int64_t inStride = 0, outStride = 0;
  /// gpu, cpu or auto.
  std::string target = "auto";
  unsigned seed = 0;
  bool specialValues = false;
  /// --param NAME=VALUE, by name (the value as written).
  llvm::StringMap<std::string> params;
  /// CPU threads that run a kernel's programs (0: every core).
  unsigned threads = 0;

  // Files.
  FileArguments inputs, outputs, expects;
  /// --output's values as given (for the message that none is written).
  std::vector<std::string> outputList;

  // Checking.
  bool check = false;
  /// --reference as given (a kind, or cpu).
  std::optional<std::string> reference;

  // Timing and reporting.
  bool bench = false, json = false, verbose = false;
  int runs = 50;
  std::string csvPath, provider;

  // Compiling and tuning.
  /// The knobs (CompileOptions.def), --const's constants and the cache;
  /// the target and chip are the tool's to decide (below and `chip`).
  ::blk::CompileOptions compile;
  /// --chip (empty: the device's).
  std::string chip;
  bool autotune = false;
  std::string autotuneCache;
  std::string emitPtx;
  bool probeGpu = false;

  bool isAuto() const { return program == "auto"; }
  bool writesOutputs() const { return !outputs.empty(); }
  /// Whether the human report goes to standard error: standard output
  /// carries an output array, the --json object or the PTX.
  bool reportsToStderr() const {
    return json || outputs.hasStandardOutput() || emitPtx == "-";
  }

  /// Parses the command line (llvm::cl; --help and --version exit there)
  /// into `options`; false, with `error`, for a value that is wrong
  /// whatever the program.
  static bool createFromCommandLine(int argc, char **argv,
                                    RunOptions &options, std::string &error);
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_OPTIONS_H
