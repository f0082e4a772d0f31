//===- TargetInfo.h - what the compiler and the launcher ask of a chip -*- C++ -*-===//
//
// The one place that knows NVIDIA chips (Triton's TargetInfoBase plays this
// part). A chip name is parsed once, into a TargetInfo; every layer that
// needs a chip fact (the verifier's limits, blk-distribute, the conversion
// to gpu/NVVM, the PTX pipeline's defaults, the binding rules, the
// launcher) asks it instead of comparing numbers of its own.
//
// A leaf library: it depends on LLVM's Support library alone, so layers at
// every height may use it, the dialect's verifiers included.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_TARGETINFO_H
#define BLK_TARGET_TARGETINFO_H

#include "blk/Target/ChipFacts.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::blk {

// Facts of every chip the compiler targets (sm_70 and newer): ChipFacts.h.
using ::blk::chip::getRegistersPerThread;
using ::blk::chip::kMaxClusterCtas;
using ::blk::chip::kMaxPipelineStages;
using ::blk::chip::kMaxThreadsPerCta;
using ::blk::chip::kMaxWarpsPerCta;
using ::blk::chip::kMbarrierBytes;
using ::blk::chip::kSharedBankRowBytes;
using ::blk::chip::kTensorMapAlignment;
using ::blk::chip::kTensorMapBytes;
using ::blk::chip::kVectorBytes;
using ::blk::chip::kWarpSize;

/// A chip the compiler can generate code for, with the PTX features to
/// compile with.
class TargetInfo {
public:
  /// Oldest chip the generated code targets (shfl.sync, bar.sync).
  static constexpr unsigned kMinChip = 70;
  /// The newest PTX ISA LLVM 22's NVPTX back end writes (`llc
  /// -march=nvptx64 -mattr=help`: ptx90); a newer +ptxNN would be
  /// silently ignored.
  static constexpr unsigned kMaxPTXVersion = 90;
  /// Oldest chip with thread-block clusters.
  static constexpr unsigned kMinClusterChip = 90;
  /// The chip code is compiled for when no one names one (the H100 and
  /// H200 the project is measured on).
  static constexpr const char *kDefaultChip = "sm_90";

  /// Parses `sm_N` (N >= 70, at most an architecture-specific suffix: sm_90a,
  /// sm_100f); empty is kDefaultChip. `features` must name a PTX version
  /// that knows the chip (`+ptx80`); empty takes getDefaultFeatures. The
  /// error says what was expected and what was found.
  static llvm::Expected<TargetInfo> get(llvm::StringRef chip,
                                        llvm::StringRef features = "");

  /// N of a chip named sm_N (with at most an a/f suffix); 0 for any other
  /// name.
  /// Whether LLVM's NVPTX back end knows the chip by that name.
  static bool isKnownToNVPTX(llvm::StringRef chip);
  static unsigned parseChipNumber(llvm::StringRef chip);

  /// The oldest PTX ISA version (times 10, e.g. 78 for PTX 7.8) that knows
  /// sm_<chipNumber>.
  static unsigned getMinimumPTXVersion(unsigned chipNumber);

  /// `+ptxNN` for the newer of PTX 8.0 (what the pipeline was checked with)
  /// and the oldest version that knows `chip`; empty if `chip` is not sm_N.
  static std::string getDefaultFeatures(llvm::StringRef chip);

  llvm::StringRef getChip() const { return chip; }
  unsigned getChipNumber() const { return chipNumber; }
  llvm::StringRef getFeatures() const { return features; }
  /// The PTX version the features name (times 10).
  unsigned getPTXVersion() const { return ptxVersion; }

  int64_t getWarpSize() const { return kWarpSize; }
  bool hasClusters() const { return chipNumber >= kMinClusterChip; }
  /// Oldest chip with max and min of 16-bit float pairs (max.NaN.bf16x2,
  /// max.NaN.f16x2, PTX ISA); before it LLVM emulates them with integer
  /// ops, dearer than widening first.
  static constexpr unsigned kMinPacked16BitMinMaxChip = 80;
  bool hasPacked16BitMinMax() const {
    return chipNumber >= kMinPacked16BitMinMaxChip;
  }
  /// Oldest chip with asynchronous copies from global to shared memory
  /// (`cp.async`, PTX ISA 7.0).
  static constexpr unsigned kMinAsyncCopyChip = 80;
  /// Bytes one `cp.async.cg` moves (the only size .cg takes).
  static constexpr int64_t kAsyncCopyBytes = 16;
  bool hasAsyncCopy() const { return chipNumber >= kMinAsyncCopyChip; }
  /// Oldest chip with `mma.sync.aligned.m16n8k16` on f16 and bf16 inputs
  /// with f32 accumulators (PTX ISA 7.0; bf16 needs sm_80).
  static constexpr unsigned kMinMmaSyncChip = 80;
  bool hasMmaSync() const { return chipNumber >= kMinMmaSyncChip; }
  /// Whether the chip has the warpgroup products `wgmma.mma_async` (PTX
  /// ISA 8.0): sm_90a only, the architecture-specific Hopper target (plain
  /// sm_90 code must also run on later chips, which lack them).
  bool hasWgmma() const { return chip == "sm_90a"; }
  /// Oldest chip with the tensor memory accelerator (`cp.async.bulk.tensor`
  /// through a tensor map, completing on an `mbarrier`; PTX ISA 8.0).
  static constexpr unsigned kMinTensorMapChip = 90;
  bool hasTensorMaps() const { return chipNumber >= kMinTensorMapChip; }
  /// The chip to compile for on a device of compute capability
  /// `major`.`minor`: sm_90a on Hopper (its wgmma; the code is compiled
  /// for the device at hand), else sm_<major><minor>.
  static std::string getDeviceChip(unsigned major, unsigned minor);
  /// The largest cluster a program may run on: 1 without clusters.
  int64_t getMaxClusterCtas() const { return hasClusters() ? kMaxClusterCtas : 1; }
  /// Clusters larger than this need the kernel's non-portable opt-in
  /// (CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED).
  int64_t getMaxPortableClusterCtas() const { return hasClusters() ? 8 : 1; }
  /// Shared memory a CTA may use, static and dynamic, without the kernel's
  /// opt-in (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES); the launch
  /// record says whether a kernel needs it.
  int64_t getMaxStaticSharedBytes() const { return 48 * 1024; }
  /// Shared memory a CTA may use in all, static and dynamic, once the kernel
  /// opts in to more than the static limit (the CUDA C++ Programming Guide's
  /// "maximum amount of shared memory per thread block").
  int64_t getMaxSharedBytesPerCta() const;

private:
  TargetInfo(std::string chip, unsigned chipNumber, std::string features,
             unsigned ptxVersion)
      : chip(std::move(chip)), chipNumber(chipNumber),
        features(std::move(features)), ptxVersion(ptxVersion) {}

  std::string chip;
  unsigned chipNumber;
  std::string features;
  unsigned ptxVersion;
};

/// Warps a CTA of a cluster needs before blk-stage-held-loads keeps its rows
/// in shared memory (on clusters of 4-warp CTAs kept rows ran 0.92x, bf16 1024
/// x 65536 on 8 x 4, H100; StageHeldLoads.cpp has the measurements); the
/// binding rules give kept rows CTAs of at least this many warps.
constexpr int64_t kMinKeptRowClusterWarps = 8;

/// CTAs a cluster needs before the lanes of a warp share the reads of the
/// other CTAs' partials of a reduction (lane i reads CTA i, a butterfly
/// combines them) rather than each lane reading them all. A/B on an H200
/// (2026-11-26): 16 CTAs, softmax f32 256 x 262144 1.077x, RMSNorm 1.019x;
/// 8 CTAs, bf16 512 x 151936 0.976x (the butterfly's serial shuffles cost
/// more than 8 loads in flight), 4 to 8 CTAs elsewhere 0.997-1.007x.
constexpr int64_t kMinSharedReadClusterCtas = 16;

/// Shared memory a CTA of `threads` threads may keep rows in and still leave
/// room for a second CTA on its SM, on a chip whose CTAs may have
/// `maxSharedBytesPerCta` (TargetInfo::getMaxSharedBytesPerCta): half of that,
/// less the 1 KiB the CUDA driver reserves per CTA and `reductions`
/// exchanges of a partial (at most 8 bytes) a thread. blk-stage-held-loads
/// keeps rows within it; the binding rules fit kept rows to it.
int64_t getMaxKeptBytesPerCta(int64_t maxSharedBytesPerCta, int64_t threads,
                              int64_t reductions);

} // namespace mlir::blk

#endif // BLK_TARGET_TARGETINFO_H
