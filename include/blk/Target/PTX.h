//===- PTX.h - block programs to PTX: pipeline and compiled kernels -*- C++ -*-===//
#ifndef BLK_TARGET_PTX_H
#define BLK_TARGET_PTX_H

#include "blk/IR/BlkDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
class OpPassManager;

namespace blk {

/// blk-stage-held-loads' threshold in the pipeline: registers per thread
/// the blocks held across a reduction must take before their rows are kept
/// in shared memory (see docs/benchmarks.md, "Rows kept in shared memory").
constexpr int64_t kDefaultStageMinRegisters = 48;
/// blk-async-fill's threshold in the pipeline: 16-byte runs a thread must
/// keep before its row is filled by cp.async (docs/benchmarks.md, "Kept rows
/// filled by cp.async").
constexpr int64_t kDefaultAsyncFillMinRuns = 12;

struct BlkToPTXOptions : public PassPipelineOptions<BlkToPTXOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip (sm_70 or newer)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Target features; must name a PTX version (default: "
                     "+ptx80, or the oldest version that knows the chip)"),
      llvm::cl::init("")};
  Option<int64_t> numWarps{
      *this, "num-warps",
      llvm::cl::desc("Warps per program, overriding the kernels' (0 keeps)"),
      llvm::cl::init(0)};
  Option<int64_t> numCtas{
      *this, "num-ctas",
      llvm::cl::desc("CTAs (a cluster) per program, overriding the kernels' "
                     "(0 keeps)"),
      llvm::cl::init(0)};
  Option<int64_t> stageMinRegisters{
      *this, "stage-min-registers",
      llvm::cl::desc("Registers per thread the blocks held across a "
                     "reduction must take before blk-stage-held-loads keeps "
                     "their rows in shared memory (0: never)"),
      llvm::cl::init(kDefaultStageMinRegisters)};
  Option<bool> stageOnClusters{
      *this, "stage-on-clusters",
      llvm::cl::desc("blk-stage-held-loads also in kernels on clusters of "
                     "CTAs under 8 warps"),
      llvm::cl::init(false)};
  Option<bool> combineReductions{
      *this, "combine-reductions",
      llvm::cl::desc("blk-combine-reductions: a row's max and sum of exp in "
                     "one exchange (measured no faster on the H100: "
                     "docs/benchmarks.md)"),
      llvm::cl::init(false)};
  Option<bool> divideInExponent{
      *this, "divide-in-exponent",
      llvm::cl::desc("blk-divide-in-exponent: a recomputed exp(a) / sum as "
                     "exp2(a log2 e - log2 sum) (measured no faster on the "
                     "H100: docs/benchmarks.md)"),
      llvm::cl::init(false)};
  Option<int64_t> asyncFillMinRuns{
      *this, "async-fill-min-runs",
      llvm::cl::desc("16-byte runs a thread must keep before blk-async-fill "
                     "fills its row in shared memory by cp.async (0: never)"),
      llvm::cl::init(kDefaultAsyncFillMinRuns)};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level"),
                            llvm::cl::init(3)};
};

/// The same choices as a plain struct, for C++ callers.
struct PTXTarget {
  std::string chip = "sm_90";
  /// Empty: TargetInfo::getDefaultFeatures(chip).
  std::string features;
  int64_t numWarps = 0;
  int64_t numCtas = 0;
  int64_t stageMinRegisters = kDefaultStageMinRegisters;
  /// blk-stage-held-loads also in kernels on clusters of CTAs under 8 warps.
  bool stageOnClusters = false;
  /// blk-combine-reductions: softmax's max and sum of exp in one exchange.
  bool combineReductions = false;
  /// blk-divide-in-exponent: a recomputed exp(a) / sum in the exponent.
  bool divideInExponent = false;
  /// blk-async-fill's runs a thread (0: rows kept are filled through
  /// registers).
  int64_t asyncFillMinRuns = kDefaultAsyncFillMinRuns;
  unsigned optLevel = 3;
};

/// blk (specialized) -> distribute -> gpu -> NVVM -> LLVM -> gpu.binary
/// holding PTX, with `blk.launch` on the module describing each kernel.
void buildBlkToPTXPipeline(OpPassManager &pm, const PTXTarget &target);

/// Registers the pipeline as `blk-to-ptx` for textual pipelines and tools.
void registerBlkToPTXPipeline();

/// Dialects, translations and interfaces the pipeline needs in the context.
void registerBlkToPTXDependencies(DialectRegistry &registry);

/// A kernel ready to load: the PTX of its module and its launch contract.
struct CompiledKernel {
  std::string name;
  std::string ptx;
  int64_t threads = 0;
  /// CTAs per program (the cluster the kernel was compiled for).
  int64_t ctas = 1;
  int64_t staticSharedBytes = 0;
  int64_t dynamicSharedBytes = 0;
  GridKind grid = GridKind::rows;
  /// Programs that must be resident at once (blk.program_barrier); 0: any.
  int64_t residentPrograms = 0;
  /// Argument types as printed in the program (`!blk.ptr<f32>`, `i32`, ...).
  std::vector<std::string> args;
};

/// The kernels of a module the pipeline has run on; emits a diagnostic and
/// fails if it holds no PTX.
FailureOr<std::vector<CompiledKernel>> getCompiledKernels(ModuleOp module);

} // namespace blk
} // namespace mlir

#endif // BLK_TARGET_PTX_H
