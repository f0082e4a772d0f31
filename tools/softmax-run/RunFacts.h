//===- RunFacts.h - what a run found, for --json ----------------*- C++ -*-===//
//
// softmax-run --json prints one JSON object on standard output (the human
// report goes to standard error): the problem, the target and binding, the
// compile times, every output's check and the timing, filled in as the run
// goes. Scripts (bench/ab.py) read it instead of the human lines:
//
//   {"program": "softmax_fused.mlir", "rows": 4096, "cols": 1024,
//    "dtype": "f32", "target": "gpu", "device": "...", "chip": "sm_90",
//    "binding": "BLOCK=1024", "grid": 4096,
//    "compile": {"cache_hit": true, "lookup_ms": 1.2, ...},
//    "checks": [{"output": "y", "passed": true, "against": "...",
//                "max_abs": ..., "rel_l2": ..., "max_elem": ...,
//                "tolerance": 1e-05, "element_tolerance": 1e-03}],
//    "bench": {"ms": 0.05, "runs": 20, "gbps": 2900.1, "copy_gbps": ...,
//              "percent_of_copy": 97.1},
//    "ok": true}
//
//===----------------------------------------------------------------------===//
#ifndef TOOLS_SOFTMAX_RUN_RUNFACTS_H
#define TOOLS_SOFTMAX_RUN_RUNFACTS_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace softmax_run {

class RunFacts {
public:
  /// The run's facts (one run per process).
  static RunFacts &get();

  void set(llvm::StringRef key, llvm::json::Value value) {
    facts[key] = std::move(value);
  }
  void addCheck(llvm::json::Object check) {
    checks.push_back(std::move(check));
  }
  /// The object, with "checks" if any were made, "ok" and the error if
  /// the run failed with one.
  void print(llvm::raw_ostream &os, bool ok) const;

private:
  llvm::json::Object facts;
  llvm::json::Array checks;
};

} // namespace softmax_run

#endif // TOOLS_SOFTMAX_RUN_RUNFACTS_H
