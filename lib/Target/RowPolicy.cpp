//===- RowPolicy.cpp - when a row is kept, copied or peeled ---------------===//
#include "blk/Target/RowPolicy.h"

using namespace mlir::blk;

RowPolicy::RowPolicy(const TargetInfo &target, int64_t stageMinRegisters,
                     bool stageOnClusters, int64_t asyncFillMinRuns)
    : target(target), stageMinRegisters(stageMinRegisters),
      stageOnClusters(stageOnClusters), asyncFillMinRuns(asyncFillMinRuns) {}

bool RowPolicy::peelsRow(int64_t blockBytes, int64_t threads) {
  return blockBytes / kVectorBytes >= kMinPeeledRunsPerThread * threads;
}

bool RowPolicy::keepsRowsIn(int64_t warps, int64_t ctas) const {
  // On a cluster of small CTAs, a row's CTAs wait for each other at every
  // reduction, and the reloads only lengthen that: bf16 1024 x 65536 on 8
  // CTAs of 4 warps kept its rows at 0.92x (H100). On CTAs of 8 warps or
  // more the kept rows won: 4 x 8 1.12x / 1.21x (H100 / H200), 8 x 8 at
  // 131072 1.20x / 1.27x, 8 x 16 at 262144 1.34x / 1.32x against the same
  // binding in registers.
  return stageMinRegisters > 0 &&
         (ctas <= 1 || warps >= kMinKeptRowClusterWarps || stageOnClusters);
}

bool RowPolicy::keepsRegisters(int64_t registers) const {
  return stageMinRegisters > 0 && registers >= stageMinRegisters;
}

int64_t RowPolicy::getMaxKeptBytes(int64_t threads, int64_t reductions) const {
  return getMaxKeptBytesPerCta(target.getMaxSharedBytesPerCta(), threads,
                               reductions);
}

int64_t RowPolicy::getCopyMinRuns() const {
  return target.hasAsyncCopy() ? asyncFillMinRuns : 0;
}

bool RowPolicy::copiesRuns(int64_t runs) const {
  int64_t minRuns = getCopyMinRuns();
  return minRuns > 0 && runs >= minRuns;
}

bool RowPolicy::copiesLoad(const RowLoad &load) const {
  // A load in a loop (a persistent program's row after row) keeps its
  // registers: bf16 softmax_persistent copied ran 0.93x (2048 x 50256) and
  // 0.97x (333 x 100000) on the H100, 0.99x and 1.00x on the H200 (1.10x
  // at 256 x 200000 on both).
  return !load.inLoop && load.vectorBytes == TargetInfo::kAsyncCopyBytes &&
         load.maskUniformOverRuns && copiesRuns(load.runs);
}

bool RowPolicy::keepsWideRowsIn(int64_t ctas) const {
  return ctas > 1 && getCopyMinRuns() > 0;
}
