//===- ChipFacts.h - facts of every chip the compiler targets ---*- C++ -*-===//
//
// What holds on every NVIDIA chip from sm_70 on, as plain constants: the
// compiler asks them through TargetInfo.h, which includes this file; the
// runtime, which links neither LLVM nor MLIR, includes it alone (to bound
// what it reads back from a cache entry).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_CHIPFACTS_H
#define BLK_TARGET_CHIPFACTS_H

#include <algorithm>
#include <cstdint>

namespace blk::chip {

/// Threads of a warp.
constexpr int64_t kWarpSize = 32;
/// Threads of a CTA.
constexpr int64_t kMaxThreadsPerCta = 1024;
/// Warps of a CTA: a program's `num_warps` is at most this.
constexpr int64_t kMaxWarpsPerCta = kMaxThreadsPerCta / kWarpSize;
/// The largest thread-block cluster any chip runs (over the portable 8 it
/// needs the kernel's opt-in at launch): a program's `num_ctas` is at most
/// this.
constexpr int64_t kMaxClusterCtas = 16;
/// CTAs resident on one SM at most (sm_90's 32; sm_80's is 32, sm_75's
/// 16): a kernel's `min-ctas-per-sm` asks at most this.
constexpr int64_t kMaxCtasPerSm = 32;
/// Threads an SM holds at most, on any chip (sm_80 and sm_90; sm_86 and
/// sm_89 hold 1536).
constexpr int64_t kMaxThreadsPerSm = 2048;
/// A loop's iterations whose loads may be in flight at once (`num_stages`):
/// each holds a block in registers.
constexpr int64_t kMaxPipelineStages = 4;
/// Whether `value` is a warp or CTA count a flag or an option may give: 0
/// (the program's own) or a power of two up to `most` (kMaxWarpsPerCta,
/// kMaxClusterCtas), the range a kernel's `#blk.kernel` takes.
constexpr bool isLaunchCount(int64_t value, int64_t most) {
  return value == 0 || (value > 0 && value <= most && (value & (value - 1)) == 0);
}
/// The widest access one thread makes in one instruction
/// (`ld.global.v4.b32`, `st.shared.v4.b32`): a thread's runs of consecutive
/// elements are at most this long, and shared buffers are aligned to it.
constexpr int64_t kVectorBytes = 16;
/// Bytes of one `mbarrier` object in shared memory (and its alignment).
constexpr int64_t kMbarrierBytes = 8;
/// Bytes of a tensor map (`CUtensorMap`), passed by value to a kernel, and
/// the alignment a kernel parameter of it takes.
constexpr int64_t kTensorMapBytes = 128, kTensorMapAlignment = 64;
/// Bytes of one row of shared memory's banks (32 banks of 4 bytes): the
/// addresses a warp reaches at once conflict when they are apart by a
/// multiple of it.
constexpr int64_t kSharedBankRowBytes = 128;
/// Bits of a register: a thread spends one on an element of 32 bits or
/// fewer (16-bit blocks are held unpacked), two on a 64-bit one.
constexpr int64_t kRegisterBits = 32;

/// Registers a thread spends on `elements` elements of `elementBits` bits.
constexpr int64_t getRegistersPerThread(int64_t elements, int64_t elementBits) {
  return elements * std::max<int64_t>(elementBits, kRegisterBits) /
         kRegisterBits;
}

} // namespace blk::chip

#endif // BLK_TARGET_CHIPFACTS_H
