//===- RowPolicy.h - when a row is kept, copied or peeled -------*- C++ -*-===//
//
// The one policy for the three things the row-wise kernels do beyond a
// plain load: keep a row in shared memory across its reductions
// (blk-stage-held-loads), copy a kept row there by cp.async (blk-async-fill)
// and shift a misaligned row onto the 16-byte grid (blk-peel-alignment).
// The passes decide from the IR they see; the binding rules, which choose
// warps and CTAs before any pass runs, must know what the passes will then
// decide. Both ask this object the same questions (peelsRow, keepsRowsIn,
// keepsRegisters, getMaxKeptBytes, copiesLoad), so every rule and
// threshold lives here once: the passes give it the facts of the IR, the
// binding the same facts read from the program's traits and the row's
// shape (RowLoad). Every threshold is measured; the measurements are with
// the constants.
//
// A pure value of (chip, options): no IR, so unit tests can table it.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_ROWPOLICY_H
#define BLK_TARGET_ROWPOLICY_H

#include "blk/Target/CompileOptions.h"
#include "blk/Target/TargetInfo.h"

namespace mlir::blk {

class RowPolicy {
public:
  /// 16-byte runs a thread needs of a shifted row before the row is
  /// shifted: with one run a thread, the row's partial first and last runs
  /// (element by element) and the versioning cost more than the vectors
  /// save. bf16 4096 x 1001 (BLOCK 1024 on 4 warps) peeled ran 0.958x /
  /// 0.963x the element path (H100 / H200); f32 4096 x 1001 (2 runs)
  /// 1.010x / 1.017x.
  static constexpr int64_t kMinPeeledRunsPerThread = 2;

  /// The chip's policy with the pipeline's thresholds: registers a thread
  /// must hold of a row before it is kept (`stageMinRegisters`, 0: never),
  /// whether kernels on clusters of CTAs under 8 warps keep rows too, and
  /// 16-byte runs a thread before a kept row is copied (`asyncFillMinRuns`,
  /// 0: never).
  RowPolicy(const TargetInfo &target, int64_t stageMinRegisters,
            bool stageOnClusters, int64_t asyncFillMinRuns);
  /// The same, with the thresholds of the options record.
  RowPolicy(const TargetInfo &target, const ::blk::CompileOptions &options)
      : RowPolicy(target, options.stageMinRegisters, options.stageOnClusters,
                  options.asyncFillMinRuns) {}

  /// blk-peel-alignment: whether a row's block of `blockBytes` bytes gives
  /// each of `threads` threads at least kMinPeeledRunsPerThread 16-byte
  /// runs, so that shifting it onto the grid pays.
  static bool peelsRow(int64_t blockBytes, int64_t threads);

  /// blk-stage-held-loads keeps rows at all: a threshold is set, and the
  /// kernel runs on one CTA, or on a cluster of CTAs of at least
  /// kMinKeptRowClusterWarps warps (unless `stage-on-clusters`).
  bool keepsRowsIn(int64_t warps, int64_t ctas) const;
  /// Whether blocks that would take `registers` registers of a thread
  /// across a reduction are worth keeping in shared memory.
  bool keepsRegisters(int64_t registers) const;
  /// Shared memory a CTA of `threads` threads may keep rows in, with
  /// `reductions` exchanges of partials beside them (getMaxKeptBytesPerCta
  /// of the chip's limit).
  int64_t getMaxKeptBytes(int64_t threads, int64_t reductions) const;

  /// What blk-async-fill asks of a kept row's load. The pass reads it from
  /// the IR (the access's vector, AccessAnalysis for the mask); the binding,
  /// which chooses warps and CTAs before the program is specialized, from
  /// the program's traits and the row's shape. The rule is copiesLoad.
  struct RowLoad {
    /// In a loop (a persistent program's row after row).
    bool inLoop = false;
    /// Bytes each access moves: cp.async moves kAsyncCopyBytes.
    int64_t vectorBytes = 0;
    /// 16-byte runs a thread moves.
    int64_t runs = 0;
    /// Whether the mask is one value over each run (a run is copied, or
    /// filled with the load's `other`, whole).
    bool maskUniformOverRuns = false;
  };
  /// blk-async-fill: whether a kept row's load is copied by cp.async
  /// rather than stored through registers.
  bool copiesLoad(const RowLoad &load) const;
  /// Whether a kept row whose thread moves `runs` runs of 16 bytes is
  /// copied by cp.async (the chip has it, and the runs reach the
  /// threshold).
  bool copiesRuns(int64_t runs) const;
  /// The threshold the pass options carry (0: nothing is copied, also on a
  /// chip without cp.async).
  int64_t getCopyMinRuns() const;

  /// Rows of 32-bit elements are kept only where they are copied, and only
  /// on clusters: through registers they cost shared memory what they save
  /// in registers (H100, f32 4096 x 24576 0.99x), and on one CTA even
  /// copied (rms_norm f32 4096 x 24576 0.86x, H200).
  bool keepsWideRowsIn(int64_t ctas) const;

private:
  TargetInfo target;
  int64_t stageMinRegisters;
  bool stageOnClusters;
  int64_t asyncFillMinRuns;
};

} // namespace mlir::blk

#endif // BLK_TARGET_ROWPOLICY_H
