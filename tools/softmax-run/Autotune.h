//===- Autotune.h - remembered best specializations -------------*- C++ -*-===//
//
// --autotune times the candidate specializations of a program for one
// problem on the GPU and remembers the fastest on disk, keyed by device,
// program, element type and shape, so that later runs start from it.
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_AUTOTUNE_H
#define TOOLS_SOFTMAX_RUN_AUTOTUNE_H

#include "GpuExecution.h"
#include "Options.h"
#include "Problem.h"

#include <optional>
#include <string>

namespace softmax_run {

class AutotuneCache {
public:
  /// `path` empty: $XDG_CACHE_HOME/blk-softmax/autotune.tsv, or
  /// ~/.cache/blk-softmax/autotune.tsv.
  explicit AutotuneCache(std::string path);

  /// The key of a problem: device, program (name and a hash of its text),
  /// element type, shape and strides, and a hash of the compile options
  /// (every knob that changes the code or the candidates) and of the
  /// compiler's version: a binding tuned under other options or by another
  /// compiler is tuned again.
  static std::string key(const std::string &device, mlir::ModuleOp program,
                         const std::string &programName,
                         const Problem &problem,
                         const mlir::blk::CompileOptions &options);

  /// What a cache line remembers.
  struct Entry {
    llvm::StringMap<int64_t> constants;
    int64_t numWarps = 0;
    int64_t numCtas = 0;
    int64_t numStages = 0;
  };

  /// The remembered constants, warps and CTAs for `key`, if any.
  std::optional<Entry> lookup(const std::string &key) const;

  /// Remembers `best` for `key` (a later entry wins); false, with `error`,
  /// if the file cannot be written.
  bool store(const std::string &key, const Specialization &best,
             std::string &error) const;

  const std::string &getPath() const { return path; }

private:
  std::string path;
};

/// The binding --autotune chooses: remembered (in options.autotuneCache)
/// for this device, program and problem, else the fastest candidate of
/// blk's candidateBindings timed on `tensors` (20 runs each; one that does
/// not compile is skipped quietly), then remembered.
bool autotune(const RunOptions &runOptions, GpuExecution &gpu,
              blk::runtime::CudaDriver &driver, mlir::ModuleOp program,
              mlir::ModuleOp fitted, llvm::StringRef programName,
              const Problem &problem,
              const std::vector<blk::runtime::HostTensor> &tensors,
              const mlir::blk::CompileOptions &options,
              Specialization &binding);

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_AUTOTUNE_H
