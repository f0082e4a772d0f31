//===- Binding.cpp - binding rules for row-wise block programs ------------===//
#include "blk/Programs/Binding.h"

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <set>

using namespace mlir;
using namespace mlir::blk;

std::string Specialization::describe() const {
  std::string text;
  std::vector<std::string> names;
  for (const auto &entry : constants)
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  for (const std::string &name : names)
    text += name + "=" + std::to_string(constants.lookup(name)) + " ";
  if (numWarps > 0)
    text += "warps=" + std::to_string(numWarps) + " ";
  if (numCtas > 1)
    text += "ctas=" + std::to_string(numCtas) + " ";
  if (numStages > 0)
    text += "stages=" + std::to_string(numStages) + " ";
  if (minCtasPerSm > 0)
    text += "ctas/sm=" + std::to_string(minCtasPerSm);
  return llvm::StringRef(text).rtrim().str();
}

int64_t Specialization::getGrid(int64_t rows) const {
  return llvm::divideCeil(rows, rowsPerProgram) * rowParts;
}

/// Whether `loop` runs up to the argument its kernel declares `cols`: a
/// walk along the row (a persistent loop over rows does not count).
static bool walksRow(scf::ForOp loop) {
  auto bound = dyn_cast<BlockArgument>(loop.getUpperBound());
  if (!bound)
    return false;
  auto func = dyn_cast<func::FuncOp>(bound.getOwner()->getParentOp());
  if (!func)
    return false;
  ArgAttr arg = getArgAttr(func, bound.getArgNumber());
  return arg && arg.getRole() == ArgRole::cols;
}

/// Records `name` as the constant of `role`; fails on `kernel` if another
/// kernel gave the role another constant.
static LogicalResult mergeRole(func::FuncOp kernel, StringRef role,
                               StringRef name, std::string &merged) {
  if (name.empty())
    return success();
  if (!merged.empty() && merged != name)
    return kernel.emitError()
           << "kernel @" << kernel.getSymName() << " declares " << role
           << " = " << name << ", but another kernel of the program declares "
           << role << " = " << merged << "; a program has one of each";
  merged = name.str();
  return success();
}

/// The row-long blocks `kernel` loads (blk.load of a block with a
/// dimension a constant sets: a `?` before binding), as {before its last
/// blk.reduce, after it}: the first are held in registers across the
/// reduction, the second are used as they arrive (a norm's weight). A
/// block of one element (a label) is neither.
static std::pair<int64_t, int64_t> countRowLoads(func::FuncOp kernel) {
  int64_t loads = 0, held = 0;
  kernel.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      loads += !load.getResult().getType().hasStaticShape();
    else if (isa<ReductionOpInterface>(op))
      held = loads;
  });
  return {held, loads - held};
}

FailureOr<ProgramTraits> ProgramTraits::get(ModuleOp program) {
  ProgramTraits traits;
  for (auto func : program.getOps<func::FuncOp>()) {
    KernelAttr kernel = getKernelAttr(func);
    if (!kernel)
      continue;
    if (failed(mergeRole(func, "row_block", kernel.getRowBlock(),
                         traits.rowBlock)) ||
        failed(mergeRole(func, "rows_per_program",
                         kernel.getRowsPerProgram(), traits.rowsPerProgram)) ||
        failed(mergeRole(func, "row_splits", kernel.getRowSplits(),
                         traits.rowSplits)) ||
        failed(mergeRole(func, "inner_block", kernel.getInnerBlock(),
                         traits.innerBlock)))
      return failure();
    traits.multiplies |=
        func.walk([](DotOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    traits.multipliesTf32 |= hasTf32Product(func);
    traits.takesCols |= static_cast<bool>(findArgument(func, ArgRole::cols));
    traits.numWarps = std::max(traits.numWarps, kernel.getNumWarps());
    traits.numCtas = std::max(traits.numCtas, kernel.getNumCtas());
    traits.minCtasPerSm =
        std::max(traits.minCtasPerSm, kernel.getMinCtasPerSm());
    func.walk([&](scf::ForOp loop) {
      traits.loopsOverRow |= walksRow(loop);
      traits.loadsInLoops |= !loop.getBody()->getOps<LoadOp>().empty();
      auto dots = loop.getBody()->getOps<DotOp>();
      traits.productsPerLoop =
          std::max<int64_t>(traits.productsPerLoop,
                            std::distance(dots.begin(), dots.end()));
    });
    auto [held, streamed] = countRowLoads(func);
    traits.heldRows = std::max(traits.heldRows, held);
    traits.streamedRows = std::max(traits.streamedRows, streamed);
    func.walk([&](StoreOp store) {
      traits.writesRows |= !store.getValue().getType().hasStaticShape();
    });
    func.walk([&](LoadOp load) {
      if (load.getType().hasStaticShape() || !load.getMask())
        return;
      auto compare = load.getMask().getDefiningOp<arith::CmpIOp>();
      traits.masksRowsByLength &=
          compare && compare.getPredicate() == arith::CmpIPredicate::slt;
    });
  }
  return traits;
}

/// Clusters, by the rules: rows from kClusterRow elements on (too long for
/// one SM to hold at the copy limit) get one CTA per 16384 f32 or 8192
/// 16-bit elements, at most kRuleCtas, with kClusterElementsPerThread
/// elements per thread. Measured on an H200 (docs/benchmarks.md): fewer,
/// fuller CTAs wait less on each other at the cluster barriers, and 16-bit
/// rows gain from more CTAs per SM.
constexpr int64_t kClusterRow = 65536;
constexpr int64_t kRuleCtas = 16;
constexpr int64_t kClusterElementsPerThread = 64;
/// A wide row longer than this (with its shift's room) holds more than 48
/// elements a thread on one CTA of 16 warps, in more than 64 registers:
/// one CTA per SM. On 2 CTAs of 4 warps (up to 128 elements a thread in
/// 128 registers, 4 CTAs per SM) it ran faster at every length measured
/// from 24577 to 32001 bf16 columns (bench/ab.py, 2x4 against 1x16; H100 /
/// H200: 24577 1.22x / 1.33x, 28001 1.08x / 1.11x, 32001 1.04x / 1.11x),
/// and slower at or below this length (24001 0.90x, 20001 0.88x, 16385
/// 0.97x, H100), where one CTA holds at most 48 a thread.
constexpr int64_t kWideOneCtaRow = 24576;

static int64_t getVectorElements(int64_t elementBytes) {
  return std::max<int64_t>(1, kVectorBytes / std::max<int64_t>(1, elementBytes));
}

bool mlir::blk::fillsVectors(int64_t cols, int64_t elementBytes) {
  return cols % getVectorElements(elementBytes) == 0;
}

static int64_t getShiftRoom(int64_t cols, int64_t elementBytes) {
  return fillsVectors(cols, elementBytes) ? 0
                                          : getVectorElements(elementBytes) - 1;
}

/// A softmax-like row (one row held across the reduction, none read after
/// it) of 16-bit data whose length is not a whole number of 16-byte
/// vectors: blk-peel-alignment shifts it, and its threads hold up to 128
/// elements on a cluster rather than 64. Measured, H100 / H200 (GB/s,
/// docs/benchmarks.md): bf16 2048 x 50257 on 2 CTAs of 8 warps, 104
/// elements a thread in 128 registers, 2537 / 3138 against 2212 / 2596 on
/// 8 CTAs of 4 warps (64 a thread, 80 registers). The aligned 50256 does
/// not gain: on 2 x 8 it needs 162 registers and runs at 1492 / 1691.
static bool holdsWideRows(const RowShape &shape, int64_t held, int64_t streamed,
                          const BindingOptions &options) {
  return options.tileRowBlocks && shape.elementBytes < 4 && held == 1 &&
         streamed == 0 && !fillsVectors(shape.cols, shape.elementBytes);
}

/// A 16-bit row held alone and not written back (a loss's logits:
/// cross_entropy reads its row and writes one value a row), on a cluster
/// (a block of kClusterRow or more) with warps the rules choose, takes the
/// wide rows' cluster shares too, aligned or not: 32768 elements a CTA, up
/// to 128 a thread on 8 warps, where a row written back and not kept takes
/// 8192 a CTA on 4 warps. Measured, bf16, H100, % of a copy (bench/ab.py,
/// one round; docs/bench-data/rowwise/wide-bf16-sweep-h100/):
/// cross_entropy 2048 x 65536 on 2 x 8 84.1 against 71.4 on 8 x 4, 512 x
/// 131072 on 4 x 8 79.4 against 70.3 on 16 x 4; its unaligned rows took
/// these shares already (2 x 8 at 50257, 4 x 8 at 100003). A caller's
/// warps keep 8192 a CTA (on 4 warps, 32768 would be 256 a thread).
static bool holdsUnwrittenRows(const RowShape &shape, int64_t block,
                               int64_t held, int64_t streamed,
                               const ProgramTraits &traits,
                               const BindingOptions &options) {
  return options.tileRowBlocks && options.choices.numWarps == 0 &&
         shape.elementBytes < 4 && block >= kClusterRow && held == 1 &&
         streamed == 0 && !traits.writesRows;
}

/// Two 16-bit rows held across the reduction and nothing read after it
/// (softmax backward's y and dy), not a whole number of vectors, whose
/// length with the shift's room is past what one CTA holds well
/// (kWideOneCtaRow): 4 CTAs of 4 warps, while a thread holds at most 104
/// elements of each (254 registers and no spill at 50257; 128 of each
/// spill). Measured, bf16, H100, % of a copy (bench/ab.py, 2 rounds;
/// docs/bench-data/rowwise/wide-bf16-sweep-h100/): 2048 x 32001 84.0
/// against 70.6 on the cluster rule's 8 x 4, 2048 x 50257 77.2 against
/// 60.3 on 16 x 4. 2 CTAs of 8 or 16 warps reached 80.1 and 81.9 at 50257
/// but 67.5 and 67.0 at 32001, under the cluster rule: 4 x 4 is the one
/// binding ahead of it at both. Aligned rows stay on the cluster rule
/// (65536: 93.3 on 16 x 4, 87.7 on 4 x 4, which spills).
constexpr int64_t kHeldPairCtas = 4;
constexpr int64_t kHeldPairWarps = 4;
constexpr int64_t kHeldPairElements = 104;

static int64_t clusterElementsPerThread(bool wide) {
  return wide ? 2 * kClusterElementsPerThread : kClusterElementsPerThread;
}

/// A kept row takes at most 8 CTAs (keepsRowsOnClusters).
constexpr int64_t kKeptRowCtas = 8;
/// The most warps the rules give a CTA that holds its row (a tile walked
/// in a loop may have kMaxWarpsPerCta).
constexpr int64_t kMaxHeldRowWarps = 16;
/// Elements of a row one CTA holds in registers that the rules give a warp
/// (chooseSpecialization; 2048 a warp on a cluster).
constexpr int64_t kHeldRowElementsPerWarp = 1024;

/// A 16-bit row held across its reductions and followed by rows read after
/// them (a norm's weight and bias), one row a program, in a program that
/// does not set its own CTAs an SM, where its registers just miss what
/// lets two CTAs share an SM, so one CTA an SM reads, reduces and writes
/// its part of the row alone. Asked for two (`min_ctas_per_sm = 2`):
///  - on one CTA of 16 warps, 17 to 32 elements a thread (LayerNorm bf16
///    12288: 69 registers, 16384: 86, before blk-sink-to-uses), ptxas fits
///    64 with 4 and 52 bytes of spill (a LayerNorm that 8 warps hold with
///    up to 48 a thread takes them instead: holdsNormOnEightWarps);
///  - on a cluster, 8 warps a CTA, 64 elements a thread (the count
///    measured: fewer hold fewer registers, and a peeled row of 56 spilled
///    288 bytes, unmeasured), where two rows follow (LayerNorm's weight and
///    bias: 159 registers at 262144 columns on 16 CTAs), ptxas fits 128
///    with 140 bytes of spill; one row (RMSNorm's weight) takes 72 and
///    shares the SM already.
/// f32, twice the registers, spills more and is left alone. The A/Bs:
/// docs/benchmarks.md, "Two CTAs an SM for 16-bit norms".
static bool asksForTwoCtasPerSm(const RowShape &shape,
                                const ProgramTraits &traits, int64_t held,
                                int64_t streamed, int64_t rowsBound,
                                int64_t ctas, int64_t warps, int64_t block,
                                const BindingOptions &options) {
  if (!options.tileRowBlocks || options.choices.minCtasPerSm != 0 ||
      traits.minCtasPerSm != 0 || shape.elementBytes >= 4 || held != 1 ||
      streamed == 0 || rowsBound > 1)
    return false;
  int64_t threads = kWarpSize * warps * std::max<int64_t>(1, ctas);
  if (ctas <= 1)
    return warps == kMaxHeldRowWarps && block > 16 * threads &&
           block <= 32 * threads;
  constexpr int64_t kClusterWarps = 8, kClusterElementsPerThread = 64;
  return streamed >= 2 && warps == kClusterWarps &&
         block == kClusterElementsPerThread * threads;
}

/// An aligned 16-bit softmax-like row (held across its reductions, none read
/// after them) that the kernel writes back: on a cluster, blk-stage-held-loads
/// keeps it in shared memory where CTAs have 8 warps or more (where the
/// policy keeps rows at all: RowPolicy::keepsRowsIn), and a CTA takes
/// 16384 elements on 8 warps rather than 8192 on 4 (64 a thread either
/// way). Measured, softmax, H100 / H200 (% of a copy, same session, an
/// A/B of --stage-on-clusters, bench/ab.py): bf16 1024 x 65536 on 4 x 8
/// kept 87.3 / 76.1 against 81.0 / 68.4 on 8 x 4 in registers; 512 x 131072 on 8 x 8 kept
/// 83.8 / 71.9 and 256 x 262144 on 8 x 16 kept 78.0 / 65.9, against
/// softmax_split's 65.8 / 63.4 and 65.8 / 63.3. At most 8 CTAs (16 CTAs of
/// 8 warps: bf16 256 x 262144 79.7% against 85.7% on 8 x 16, H100,
/// docs/bench-data/padded-rows/).
static bool keepsRowsOnClusters(const RowShape &shape, int64_t held,
                                int64_t streamed, bool wide,
                                const ProgramTraits &traits,
                                const BindingOptions &options) {
  return shape.elementBytes < 4 && held == 1 && streamed == 0 && !wide &&
         traits.writesRows && options.rows &&
         options.rows->keepsRowsIn(kMinKeptRowClusterWarps, kKeptRowCtas);
}

/// What blk-async-fill will see of a row's load, from the program's traits
/// and the row's shape: 16-byte vectors where the row is a whole number of
/// them and every tensor's rows start on the 16-byte grid, a mask uniform
/// over runs where it compares the columns with the row's length, and
/// `runs` 16-byte runs a thread.
static RowPolicy::RowLoad getRowLoad(const RowShape &shape,
                                     const ProgramTraits &traits,
                                     int64_t runs) {
  bool vectors =
      fillsVectors(shape.cols, shape.elementBytes) && shape.alignedRowStarts;
  RowPolicy::RowLoad load;
  load.inLoop = traits.loadsInLoops;
  load.vectorBytes = vectors ? kVectorBytes : shape.elementBytes;
  load.runs = runs;
  load.maskUniformOverRuns = vectors && traits.masksRowsByLength;
  return load;
}

/// An f32 softmax-like row (held across its reductions, none read after
/// them) that the kernel writes back, and that blk-async-fill copies at
/// some binding (RowPolicy::copiesLoad, its runs fitted by fitKeptRow):
/// blk-stage-held-loads keeps it in shared memory on clusters of 8-warp
/// CTAs (RowPolicy::keepsWideRowsIn). The rules then bind it as a kept row
/// (fitKeptRow), except where an f32 row takes 8 CTAs of 4 warps in
/// registers (kHeldF32RowElements).
static bool keepsCopiedF32Rows(const RowShape &shape, int64_t held,
                               int64_t streamed, const ProgramTraits &traits,
                               const BindingOptions &options) {
  return shape.elementBytes == 4 && held == 1 && streamed == 0 &&
         traits.writesRows && options.rows &&
         options.rows->copiesLoad(getRowLoad(
             shape, traits, std::numeric_limits<int64_t>::max()));
}

static int64_t clusterElementsPerCta(const RowShape &shape, bool wide,
                                     bool keepsRows) {
  if (wide)
    return 32768;
  return keepsRows || shape.elementBytes >= 4 ? 16384 : 8192;
}

/// The room blk-peel-alignment's shift takes in a row's block of
/// `roomyBlock` elements (its room included) on `threads` threads: none
/// where the pass will not shift the row (RowPolicy::peelsRow, the pass's
/// own rule), as bf16 1020 columns on 8 warps, one run a thread, whose
/// block stays 1024 rather than 2048.
static int64_t getPeelRoom(int64_t cols, int64_t elementBytes,
                           int64_t roomyBlock, int64_t threads) {
  return RowPolicy::peelsRow(roomyBlock * elementBytes, threads)
             ? getShiftRoom(cols, elementBytes)
             : 0;
}

/// A row's block (or a split row's part) as a whole number of its layout's
/// tiles (16-byte runs x 32 lanes x warps x CTAs) rather than the next power
/// of two: 2048 x 50257 bf16 on 8 CTAs of 4 warps holds 57344 rather than
/// 65536 columns, 151936 f32 on 8 CTAs of 16 warps 163840 rather than
/// 262144, so no CTA or run is there only for padding. A row whose length
/// is not a whole number of vectors may start anywhere on the 16-byte grid;
/// blk-peel-alignment shifts it by up to a vector less one element where
/// it peels the block, so the block then keeps that much room.
static int64_t tileRowBlock(int64_t cols, int64_t splits, int64_t elementBytes,
                            int64_t warps, int64_t ctas) {
  int64_t threads = kWarpSize * warps * std::max<int64_t>(1, ctas);
  int64_t tile = getVectorElements(elementBytes) * threads;
  auto tiled = [&](int64_t room) {
    return int64_t(llvm::alignTo(llvm::divideCeil(cols + room, splits), tile));
  };
  int64_t roomy = tiled(getShiftRoom(cols, elementBytes));
  return tiled(getPeelRoom(cols, elementBytes, roomy, threads));
}

/// Elements of a row a thread holds in its block of whole layout tiles.
static int64_t tiledElementsPerThread(int64_t cols, int64_t elementBytes,
                                      int64_t warps, int64_t ctas) {
  return tileRowBlock(cols, 1, elementBytes, warps, ctas) /
         (kWarpSize * warps * ctas);
}

/// A 16-bit row held across its reductions on one CTA and followed by two
/// or more rows read after them (LayerNorm's weight and bias), that 8
/// warps hold with at most this many elements a thread (8193 to 12288
/// columns, where a warp per kHeldRowElementsPerWarp gives 16 warps): 8
/// warps, with ptxas's own registers. With blk-sink-to-uses reading the
/// weight and bias run by run, 8 warps take 80 registers and one CTA an
/// SM. Measured faster than 16 warps and two CTAs an SM up to 48 a thread,
/// not past it (56) nor with one row after (RMSNorm): docs/benchmarks.md,
/// "A 16-bit LayerNorm on 8 warps".
constexpr int64_t kNormOnEightWarpsElements = 48;
constexpr int64_t kNormOnEightWarps = 8;

static bool holdsNormOnEightWarps(const RowShape &shape,
                                  const ProgramTraits &traits, int64_t held,
                                  int64_t streamed, int64_t rowsBound,
                                  int64_t ctas, int64_t block,
                                  const BindingOptions &options) {
  return options.tileRowBlocks && options.choices.numWarps == 0 &&
         options.choices.numCtas == 0 && shape.elementBytes < 4 &&
         held == 1 && streamed >= 2 && rowsBound <= 1 && ctas <= 1 &&
         !traits.loopsOverRow && traits.numWarps <= kNormOnEightWarps &&
         block > kNormOnEightWarps * kHeldRowElementsPerWarp &&
         tiledElementsPerThread(shape.cols, shape.elementBytes,
                                kNormOnEightWarps,
                                1) <= kNormOnEightWarpsElements;
}

/// The exchanges a kept row's CTA reserves shared memory for: its max and
/// sum.
constexpr int64_t kKeptRowReductions = 2;

/// blk-stage-held-loads keeps a row where a thread would hold at least 48
/// registers of it; fitKeptRow gives a kept 16-bit row's threads at least 64
/// elements, what the aligned rows hold (1024 x 65536 on 4 x 8, 512 x
/// 131072 on 8 x 8). Measured, bf16, % of a copy, H100 / H200: 256 x 200000
/// on 8 x 8 (104 a thread) 79.8 / 69.5 against 75.2 / 63.9 on 8 x 16 (56),
/// 256 x 180000 (88 against 48) 85.4 / 74.8 against 81.6 / 68.1; against
/// 48, H200, checked: 256 x 180000 1.10x, 256 x 200000 1.05x, 333 x 100000
/// 1.02x (4 x 8), 2048 x 50256 1.00x (2 x 8). Not 128, though then every
/// run is copied by cp.async: 1024 x 65536 on 2 x 8 0.96x / 1.02x, 512 x
/// 131072 on 4 x 8 0.97x / 1.00x, 2048 x 128256 0.95x / 1.01x (half the
/// CTAs an SM; docs/benchmarks.md, "Kept rows on CTAs of 8 warps").
constexpr int64_t kKeptRowElements = 64;

/// A kept row's CTAs have 8 warps (kMinKeptRowClusterWarps, or the
/// kernel's own if more), never more: fewer warps keep the same shared
/// memory a CTA (and so the CTAs an SM) with more 16-byte runs a thread,
/// which blk-async-fill copies from 12 runs on. The rules' f32 rows on CTAs
/// of 4 warps (16 x 4, held in registers) take as many threads in CTAs of
/// 8 (8 x 8, kept) where a CTA's share fits. A 16-bit row whose threads
/// would still keep fewer than kKeptRowElements takes fewer CTAs (down to
/// 2). Every step only while the row's share of a CTA fits what
/// blk-stage-held-loads keeps (RowPolicy::getMaxKeptBytes) with at
/// most 128 elements a thread (on sm_120's 99 KiB, bf16 50256 on 2 CTAs
/// would be held in registers, 162 of them, against 40 kept on 4).
/// Measured, checked A/Bs, H100 / H200 (the table "v3 -> v5" of `git show
/// aeafb84^:docs/benchmarks.md`, section "Shared reads on 16-CTA
/// clusters"): bf16 256 x 262144 on 8 x 8 (128 a thread, copied) against
/// 8 x 16 (64, not copied) 1.002x / 1.067x, log_softmax 1.035x / 1.085x;
/// f32 512 x 151936 on 8 x 8 kept against 16 x 4 in registers 1.003x /
/// 1.074x, log_softmax 1.017x / 1.080x, 256 x 200000 0.996x / 1.018x; f32
/// 256 x 262144 stays on 16 x 4 (8 x 8 would need 128 KiB a CTA; kept on
/// 16 x 8 0.99x / 1.03x). Earlier, without copies: bf16 512 x 151936 on
/// 8 x 8 kept (80 a thread) 88.9% of a copy against 62.2% on 16 x 8 and
/// 69.3% on 8 x 16 in registers (H100,
/// docs/bench-data/padded-rows/sweep-h100.txt).
static void fitKeptRow(const RowShape &shape, const ProgramTraits &traits,
                       const RowPolicy &rows, int64_t &warps, int64_t &ctas) {
  int64_t cols = std::max<int64_t>(1, shape.cols);
  int64_t elementBytes = shape.elementBytes;
  int64_t keptWarps = std::max(kMinKeptRowClusterWarps, traits.numWarps);
  int64_t minCtas = std::max<int64_t>(2, traits.numCtas);
  auto fitsKept = [&](int64_t fitWarps, int64_t fitCtas) {
    int64_t perThread =
        tiledElementsPerThread(cols, elementBytes, fitWarps, fitCtas);
    return perThread <= clusterElementsPerThread(true) &&
           perThread * kWarpSize * fitWarps * elementBytes <=
               rows.getMaxKeptBytes(kWarpSize * fitWarps, kKeptRowReductions);
  };
  // An f32 row is kept only where blk-async-fill copies it, and
  // blk-stage-held-loads keeps only what a thread would hold in at least
  // its min-registers.
  auto copiedF32 = [&](int64_t fitWarps, int64_t fitCtas) {
    int64_t perThread =
        tiledElementsPerThread(cols, elementBytes, fitWarps, fitCtas);
    return rows.copiesLoad(getRowLoad(
               shape, traits,
               perThread * elementBytes / TargetInfo::kAsyncCopyBytes)) &&
           rows.keepsRegisters(
               getRegistersPerThread(perThread, 8 * elementBytes));
  };
  while (warps > keptWarps && fitsKept(warps / 2, ctas))
    warps /= 2;
  while (warps < keptWarps && ctas > minCtas && fitsKept(warps * 2, ctas / 2) &&
         (elementBytes < 4 || copiedF32(warps * 2, ctas / 2))) {
    warps *= 2;
    ctas /= 2;
  }
  while (elementBytes < 4 &&
         tiledElementsPerThread(cols, elementBytes, warps, ctas) <
             kKeptRowElements &&
         ctas > minCtas && fitsKept(warps, ctas / 2))
    ctas /= 2;
}

/// Whether a grid of `rows` programs of `ctas` CTAs leaves the GPU's SMs
/// without a second CTA each: fitKeptRow's fewer, fuller CTAs pay only where
/// other rows wait for the SMs (the rule's CTAs kept where the fitted ones
/// would leave them idle). H200, bf16, % of a copy, the rule's CTAs
/// against fitted (docs/bench-data/cluster-row-rules/sweep-bf16-few-rows.txt):
/// 8 x 100000 on 8 x 8 88.1 against 65.6 on 4 x 8, 8 x 40000 on 4 x 8 70.6
/// against 48.5 on 2 x 8, 32 x 70000 on 8 x 8 88.6 against 77.3 on 4 x 8,
/// 16 x 200000 on 8 x 16 73.7 against 70.5 on 8 x 8, 8 x 151936 on 8 x 16
/// 87.8 against 81.7 on 8 x 8.
static bool leavesMultiprocessorsIdle(int64_t rows, int64_t ctas,
                                      int64_t multiprocessors) {
  return multiprocessors > 0 && rows <= 2 * multiprocessors / ctas;
}

/// An f32 row, the only row its kernel reads, that the rules put on 8 CTAs
/// (its block not bound by the caller): of 4 warps where a thread then holds at
/// most 100 elements (softmax at 100000: 157 registers, 3 CTAs an SM, against
/// 103 and 2 on 8 x 8). Measured against the rules before (8 x 8 to 131072, 16
/// x 4 past it), H200, GB/s, checked, each twice
/// (docs/bench-data/cluster-row-rules/): softmax 1024 x 70000 1.14x, 1024 x
/// 90000 1.06x, 333 x 100000 1.12x (80.6 -> 90.6% of a copy), 333 x
/// 100003 1.05x; log_softmax and softmax_persistent 333 x 100000 1.04x
/// (H100: 1.06x, 1.02x, 1.06x, 1.04x; 1.03x and 1.04x).
/// 8 CTAs of 8 warps at up to 80 a thread won for softmax (512 x 151936
/// 1.11x, 128 registers) and lost for log_softmax and softmax_persistent
/// (0.85x, 184 and 202 registers: one CTA an SM): the rules do not know a
/// kernel's registers, so those rows stay on 16 x 4.
constexpr int64_t kHeldF32RowCtas = 8;
constexpr int64_t kHeldF32RowWarps = 4;
constexpr int64_t kHeldF32RowElements = 100;

/// The values the rules give the constants with a role.
/// The values the rules give the constants with a role; a product's K
/// step only where the product rules bind the program.
struct RuleConstants {
  int64_t rowBlock, rowsPerProgram, rowSplits;
  std::optional<int64_t> innerBlock;
};

static RuleConstants ruleConstants(const ProgramTraits &traits,
                                   const RowShape &shape,
                                   const BindingOptions &options) {
  int64_t cols = std::max<int64_t>(1, shape.cols);
  int64_t maxTile = options.choices.maxTile;
  // Splits the caller fixed decide the block; else the largest tile does.
  int64_t splits =
      traits.rowSplits.empty() ? 1
      : options.choices.constants.count(traits.rowSplits)
          ? std::max<int64_t>(1, options.choices.constants.at(traits.rowSplits))
          : getRuleRowSplits(cols, maxTile);
  int64_t block = llvm::PowerOf2Ceil(llvm::divideCeil(cols, splits));
  if (traits.loopsOverRow)
    block = std::min(block, maxTile);
  // Measured on an H200 (docs/benchmarks.md): short rows want a few rows
  // per program and many programs, not big programs.
  // Not fewer for a problem of fewer rows: the code serves any row count.
  return {block, std::max<int64_t>(2, 512 / block), splits, std::nullopt};
}

/// Binds every constant `program` names into `result`: the caller's
/// value, else the rules' for the constant's role; fails, at the program,
/// on a constant with neither.
static LogicalResult bindConstants(ModuleOp program,
                                   const ProgramTraits &traits,
                                   const BindingOptions &options,
                                   const RuleConstants &rules,
                                   Specialization &result) {
  const std::map<std::string, int64_t> &given = options.choices.constants;
  for (const std::string &name : getConstantNames(program)) {
    if (given.count(name))
      result.constants[name] = given.at(name);
    else if (name == traits.rowBlock)
      result.constants[name] = rules.rowBlock;
    else if (name == traits.rowSplits)
      result.constants[name] = rules.rowSplits;
    else if (name == traits.rowsPerProgram)
      result.constants[name] = rules.rowsPerProgram;
    else if (name == traits.innerBlock && rules.innerBlock)
      result.constants[name] = *rules.innerBlock;
    else if (name == traits.innerBlock)
      return getProgramDiagnosticAnchor(program)->emitError()
             << "inner_block = " << name
             << " is the step along a product's inner dimension, which the "
                "rules bind only in programs with blk.dot; bind it "
                "explicitly ("
             << name << "=<value>)";
    else
      return getProgramDiagnosticAnchor(program)->emitError()
             << "the program uses compile-time constant '" << name
             << "', which no kernel declares a role for (#blk.kernel's "
                "row_block, rows_per_program, row_splits or inner_block), so "
                "it cannot be derived from the problem; bind it explicitly ("
             << name << "=<value>)";
  }
  return success();
}

/// Every constant a caller binds is one the program names: a misspelled
/// name would otherwise be ignored while the rules choose the value.
static LogicalResult verifyCallerConstants(ModuleOp program,
                                           const BindingOptions &options) {
  std::optional<std::string> unnamed =
      findUnnamedConstant(program, options.choices.constants);
  if (!unnamed)
    return success();
  std::vector<std::string> named = getConstantNames(program);
  InFlightDiagnostic error = getProgramDiagnosticAnchor(program)->emitError()
                             << "constant '" << *unnamed
                             << "' is bound, but the program names no such "
                                "constant (it names:";
  for (const std::string &name : named)
    error << " " << name;
  return error << (named.empty() ? " none)" : ")");
}

std::optional<std::string> mlir::blk::findUnnamedConstant(
    ModuleOp program, const std::map<std::string, int64_t> &constants) {
  std::vector<std::string> named = getConstantNames(program);
  for (const auto &entry : constants)
    if (!llvm::is_contained(named, entry.first))
      return entry.first;
  return std::nullopt;
}

int64_t mlir::blk::getRuleRowSplits(int64_t cols, int64_t partCols) {
  return llvm::PowerOf2Ceil(llvm::divideCeil(cols, partCols));
}

/// The role constants describe a way to cover the problem that the program
/// can run: a binding outside these bounds read or wrote past the buffers
/// or left columns unwritten (SPLITS=64 or BLOCK=4 on rows of 8 columns).
static LogicalResult verifyRoleConstants(ModuleOp program,
                                         const ProgramTraits &traits,
                                         const RowShape &shape,
                                         int64_t maxTile,
                                         const Specialization &binding) {
  auto valueOf = [&](const std::string &name) -> std::optional<int64_t> {
    if (name.empty())
      return std::nullopt;
    return binding.constants.lookup(name);
  };
  auto outOfRange = [&](const std::string &name, StringRef role,
                        int64_t value) {
    return getProgramDiagnosticAnchor(program)->emitError() << role << " " << name << " = " << value;
  };
  // The rows of a program and the parts of a split row size blocks that
  // span lanes and warps, laid out only in powers of two; a row's block may
  // also be a whole number of its layout's tiles (blk-distribute checks).
  for (const std::string *name : {&traits.rowSplits, &traits.rowsPerProgram}) {
    std::optional<int64_t> value = valueOf(*name);
    if (value && (*value < 1 || !llvm::isPowerOf2_64(*value)))
      return getProgramDiagnosticAnchor(program)->emitError()
             << "constant " << *name << " = " << *value
             << " sizes a block along the rows or a row's parts, so it must "
                "be a power of two";
  }
  int64_t cols = std::max<int64_t>(1, shape.cols);
  std::optional<int64_t> block = valueOf(traits.rowBlock);
  std::optional<int64_t> splits = valueOf(traits.rowSplits);
  std::optional<int64_t> rowsPerProgram = valueOf(traits.rowsPerProgram);
  // A tile may be longer than a short row (the loop runs once), up to the
  // largest tile allowed; a block that holds the row needs no more than the
  // row's next power of two.
  // (With room for blk-peel-alignment's shift: tileRowBlocks may grow the
  // block past the power of two, 32767 bf16 columns to 36864.)
  int64_t largestBlock =
      llvm::PowerOf2Ceil(cols + getShiftRoom(cols, shape.elementBytes));
  if (traits.loopsOverRow)
    largestBlock = std::max(largestBlock, maxTile);
  if (block && (*block < 1 || *block > largestBlock))
    return outOfRange(traits.rowBlock, "row_block", *block)
           << " is outside [1, " << largestBlock << "]: the row has " << cols
           << " elements"
           << (traits.loopsOverRow ? " and the largest tile is " +
                                         std::to_string(maxTile)
                                   : "");
  if (splits) {
    int64_t needed =
        llvm::PowerOf2Ceil(llvm::divideCeil(cols, block.value_or(1)));
    int64_t most = std::min(cols, needed);
    if (*splits < 1 || *splits > most)
      return outOfRange(traits.rowSplits, "row_splits", *splits)
             << " is outside [1, " << most << "]: a row of " << cols
             << " elements in parts of " << block.value_or(1)
             << " needs no more parts, and never more than its columns";
  }
  if (block && !traits.loopsOverRow && *block * splits.value_or(1) < cols)
    return outOfRange(traits.rowBlock, "row_block", *block)
           << (splits ? " x row_splits " + std::to_string(*splits) : "")
           << " covers " << *block * splits.value_or(1) << " of the row's "
           << cols << " columns; a program that does not loop over its row "
              "must cover it";
  // The code serves any row count (rows past the problem's are masked), so
  // the bound is the CTA's, not the problem's: a row of the block per
  // thread at most.
  if (rowsPerProgram &&
      (*rowsPerProgram < 1 || *rowsPerProgram > kMaxThreadsPerCta))
    return outOfRange(traits.rowsPerProgram, "rows_per_program",
                      *rowsPerProgram)
           << " is outside [1, " << kMaxThreadsPerCta
           << "]: a program's rows are at most a CTA's threads";
  return success();
}

//===----------------------------------------------------------------------===//
// Products: a tile of C a program
//===----------------------------------------------------------------------===//

/// A program's tile of C: rows x cols, `inner` deep a K step, on `warps`
/// warps with `stages` K steps in flight (0: the kernel's own).
struct ProductTile {
  int64_t rows, cols, inner, warps, stages;
  /// Whether the tile's warps split its columns too (mma.sync only): then
  /// it takes `warps`, not one warp per 16 rows.
  bool warpsSplitColumns = false;
};

/// The tiles wgmma and mma.sync take 16-bit operands in: 128 x 256 x 64
/// on 8 warps (two warpgroups along M) was the best tile measured on the
/// H100 from 2048 to 8192, at 3 stages with wgmma (ahead of 4 stages and
/// of 128 x 128 and 256 x 128 tiles), and the best mma.sync tile at 2
/// (docs/benchmarks.md, "Matmul").
constexpr ProductTile kTensorCoreTile = {128, 256, 64, 8, 3};
constexpr int64_t kWarpProductStages = 2;
/// A tile that holds few rows (M <= 64): one warpgroup, and more programs
/// along N.
constexpr ProductTile kFewRowsTile = {64, 64, 64, 4, 3};
/// Few rows make a product that streams B from memory (1 x 4096 x 4096 is
/// a matrix-vector product): what bounds a program is the bytes its copies
/// have in flight, and where its programs leave SMs without a second one,
/// a deeper K step puts more in flight. On wgmma's rings: 256 deep where
/// the programs are at most the SMs (3 stages of A and B, 192 KiB: one CTA
/// an SM), 128 deep where at most twice (96 KiB: two an SM). The sweep on
/// the H100 (docs/benchmarks.md, "What the rules rest on", few rows).
constexpr int64_t kFewRowsDeepInner = 256, kFewRowsDeeperInner = 128;
/// f32 data and the CPU: f32 multiply-adds, 16 accumulators a thread.
constexpr ProductTile kScalarTile = {32, 64, 32, 4, 0};
/// f32 inputs a product takes as tf32, on mma.sync (m16n8k8; never wgmma):
/// 128 x 128 x 32 on 8 warps, the next K step's tiles loaded into
/// registers while this one multiplies (2 stages; 32-bit operands get no
/// cp.async rings): the best of the tiles measured on the H100 at 4096 and
/// 8192 (docs/benchmarks.md, "What the rules rest on", tf32). Not measured
/// at few rows, nor where its programs leave SMs idle (at 1000^3, 64
/// programs on 132 SMs, 64 x 128 on 4 warps at 3 stages was the faster;
/// autotune tries it).
constexpr ProductTile kTf32Tile = {128, 128, 32, 8, 2};

/// Bytes of the rings blk-pipeline-dot-operands copies a rows x cols x
/// inner tile's A and B into, at `stages` stages (wgmma's, sm_90a).
static int64_t getRingBytes(int64_t rows, int64_t cols, int64_t inner,
                            int64_t stages, const RowShape &shape) {
  return stages * (rows + cols) * inner * shape.elementBytes;
}

/// Whether those rings fit a CTA's shared memory (or it is not known).
static bool ringsFit(int64_t rows, int64_t cols, int64_t inner,
                     int64_t stages, const RowShape &shape,
                     const BindingOptions &options) {
  return options.maxSharedBytesPerCta <= 0 ||
         getRingBytes(rows, cols, inner, stages, shape) <=
             options.maxSharedBytesPerCta;
}

/// The few-rows tile's K step for the shape: deeper where its programs
/// (one a 64-column tile of C) leave SMs idle, and the K loop has a step
/// for each stage. Only the rules' own tile deepens: a caller's block,
/// rows or stages (BLOCK=128 256 deep needs 256 registers of mask a thread,
/// 4 stages 256 KiB of rings), or a program that covers N in one block (no
/// row_splits), keep 64 deep.
static int64_t fewRowsInner(const RowShape &shape,
                            const ProgramTraits &traits,
                            const BindingOptions &options) {
  int64_t multiprocessors = options.choices.multiprocessors;
  const std::map<std::string, int64_t> &given = options.choices.constants;
  bool rulesTile = !traits.rowSplits.empty() &&
                   !given.count(traits.rowBlock) &&
                   !given.count(traits.rowsPerProgram) &&
                   options.choices.numStages == 0;
  if (options.products != BindingOptions::Products::warpgroups ||
      multiprocessors <= 0 || !rulesTile)
    return kFewRowsTile.inner;
  int64_t programs = llvm::divideCeil(std::max<int64_t>(1, shape.cols),
                                      kFewRowsTile.cols);
  for (auto [programsPerSm, inner] :
       {std::pair{int64_t(1), kFewRowsDeepInner},
        {int64_t(2), kFewRowsDeeperInner}})
    if (programs <= programsPerSm * multiprocessors &&
        shape.inner >= inner * kFewRowsTile.stages &&
        ringsFit(kFewRowsTile.rows, kFewRowsTile.cols, inner,
                 kFewRowsTile.stages, shape, options))
      return inner;
  return kFewRowsTile.inner;
}

static bool onTensorCores(const RowShape &shape, const BindingOptions &options) {
  return options.products != BindingOptions::Products::scalar &&
         shape.elementBytes == 2;
}

/// Whether the product is one tf32 dot a loop on f32 data on mma.sync (a
/// chained or gradient loop keeps the scalar tile: not measured as tf32).
static bool multipliesAsTf32(const RowShape &shape, const ProgramTraits &traits,
                             const BindingOptions &options) {
  return options.products != BindingOptions::Products::scalar &&
         traits.multipliesTf32 && shape.elementBytes == 4 &&
         !traits.chainsProducts();
}

/// A loop that chains two products on wgmma (attention: S = Q K^T, then
/// O += P V, a row block of head_dim columns): 128 query rows on 8 warps,
/// 128 keys a step, the K and V tiles copied one step ahead into rings of
/// 2 (blk-pipeline-dot-operands; 3 were no faster and do not fit at 128):
/// the best of the sweeps on the H100 (docs/benchmarks.md, "What the rules
/// rest on", chained products). A row block of at most 64 columns takes
/// 64 keys a step: a step's softmax is then half as long, and the two
/// products of a step are too short for the tensor cores to wait on it
/// (measured at head_dim 64; 16 and 32 take it unmeasured).
/// Past head_dim 128 the rings do not fit (K and V of 128 x 256 bf16,
/// twice, are 256 KiB) and the tiles stay loads, 1 stage (no registers to
/// carry them in).
constexpr ProductTile kChainedProductTile = {128, 0, 128, 8, 2};
constexpr int64_t kChainedNarrowRowBlock = 64;
constexpr int64_t kChainedNarrowInner = 64;
constexpr int64_t kChainedRingsMaxRowBlock = 128;

/// A loop of more than two products: attention's gradients (@dkdv's S^T,
/// dP^T, dV and dK a query step), whose program holds two accumulators of
/// rows x head_dim and reads four operands a step (Q^T, Q, dO^T, dO).
/// 128 keys and 64 queries a step fit wgmma's rings of 2 in a CTA's shared
/// memory up to head_dim 128 (K, V and 4 x 2 operand tiles: 192 KiB;
/// 128 queries need 320 KiB); 64 keys on 8 warps would leave a warpgroup
/// idle (wgmma's warps lie along M). mma.sync's CTA has less (163 KiB on
/// sm_80):
/// 64 rows, 32 deep, on 8 warps that split the columns, the one tile of
/// those tried that ptxas fits without spilling at head_dim 64 and 128 (on
/// 4 warps, 11 KiB of spills at 128). Past head_dim 128, 64 x 32 on one
/// warpgroup with no rings.
constexpr ProductTile kGradientProductTile = {128, 0, 64, 8, 2};
constexpr ProductTile kGradientWarpTile = {64, 0, 32, 8, 2, true};
constexpr ProductTile kGradientWideTile = {64, 0, 32, 4, 1};
constexpr int64_t kGradientsPerLoop = 3;

/// `tile` narrowed to N where N is shorter than its columns: the next power
/// of two, at least the few-rows tile's 64.
static ProductTile fitColumns(ProductTile tile, const RowShape &shape) {
  if (tile.cols > kFewRowsTile.cols)
    tile.cols = std::clamp<int64_t>(llvm::PowerOf2Ceil(shape.cols),
                                    kFewRowsTile.cols, tile.cols);
  return tile;
}

/// The product rules' tile for the shape (Binding.h).
static ProductTile productTile(const RowShape &shape,
                               const ProgramTraits &traits,
                               const BindingOptions &options) {
  if (multipliesAsTf32(shape, traits, options))
    return fitColumns(kTf32Tile, shape);
  if (!onTensorCores(shape, options))
    return kScalarTile;
  if (traits.productsPerLoop >= kGradientsPerLoop) {
    if (shape.cols > kChainedRingsMaxRowBlock)
      return kGradientWideTile;
    return options.products == BindingOptions::Products::warps
               ? kGradientWarpTile
               : kGradientProductTile;
  }
  if (traits.chainsProducts() &&
      options.products == BindingOptions::Products::warpgroups) {
    ProductTile tile = kChainedProductTile;
    if (shape.cols <= kChainedNarrowRowBlock)
      tile.inner = kChainedNarrowInner;
    if (shape.cols > kChainedRingsMaxRowBlock)
      tile.stages = 1;
    return tile;
  }
  ProductTile tile = kTensorCoreTile;
  if (shape.rows <= kFewRowsTile.rows) {
    tile = kFewRowsTile;
    tile.inner = fewRowsInner(shape, traits, options);
  }
  tile = fitColumns(tile, shape);
  if (options.products == BindingOptions::Products::warps)
    tile.stages = kWarpProductStages;
  return tile;
}

/// Warps for a tile of `rows` rows of C: a warp per 16 rows, 4 to 8, on
/// tensor cores (wgmma's warps lie along M; tf32's mma.sync tiles were
/// measured so: 64 rows on 4, 128 on 8), else the tile's own.
static int64_t productWarps(int64_t rows, const ProductTile &tile,
                            bool tensorCores, const BindingOptions &options) {
  // mma.sync's warps may split the columns too: the gradients' tile asks 8.
  if (!tensorCores || (options.products == BindingOptions::Products::warps &&
                       tile.warpsSplitColumns))
    return tile.warps;
  return std::clamp<int64_t>(rows / 16, 4, 8);
}

/// The product's role constants cover C and size blocks (powers of two);
/// row_splits does not size a block, and any count that covers N without
/// a program past it will do.
static LogicalResult verifyProductConstants(ModuleOp program,
                                            const ProgramTraits &traits,
                                            const RowShape &shape,
                                            const Specialization &binding) {
  Operation *anchor = getProgramDiagnosticAnchor(program);
  for (const std::string *name :
       {&traits.rowsPerProgram, &traits.rowBlock, &traits.innerBlock}) {
    if (name->empty())
      continue;
    int64_t value = binding.constants.lookup(*name);
    if (value < 1 || !llvm::isPowerOf2_64(value))
      return anchor->emitError()
             << "constant " << *name << " = " << value
             << " sizes a block of a product's tile, so it must be a power "
                "of two";
  }
  if (traits.rowBlock.empty())
    return success();
  int64_t cols = std::max<int64_t>(1, shape.cols);
  int64_t block = binding.constants.lookup(traits.rowBlock);
  if (!traits.takesCols && block != cols)
    return anchor->emitError()
           << "row_block " << traits.rowBlock << " = " << block
           << " is the row length of the program, which takes no `cols` "
              "argument to mask a row of "
           << cols << " by: the row length must be " << traits.rowBlock
           << " (a power of two), or the program must take `cols`";
  if (traits.rowSplits.empty()) {
    if (block < cols)
      return anchor->emitError()
             << "row_block " << traits.rowBlock << " = " << block
             << " covers " << block << " of the " << cols
             << " columns of C; a program without row_splits must cover "
                "them";
    return success();
  }
  int64_t splits = binding.constants.lookup(traits.rowSplits);
  int64_t most = llvm::divideCeil(cols, block);
  if (splits < 1 || splits > most || block * splits < cols)
    return anchor->emitError()
           << "row_splits " << traits.rowSplits << " = " << splits
           << " x row_block " << traits.rowBlock << " = " << block
           << " must cover the " << cols << " columns of C with no program "
           << "past them: row_splits = " << most;
  return success();
}

static FailureOr<Specialization>
chooseProductSpecialization(ModuleOp program, const ProgramTraits &traits,
                            const RowShape &shape,
                            const BindingOptions &options) {
  ProductTile tile = productTile(shape, traits, options);
  // Without row_splits a program's block covers the row.
  if (traits.rowSplits.empty())
    tile.cols = llvm::PowerOf2Ceil(std::max<int64_t>(1, shape.cols));
  // The column tiles cover N in tiles of the caller's block, else the rule's.
  auto givenBlock = options.choices.constants.find(traits.rowBlock);
  int64_t block = givenBlock != options.choices.constants.end()
                      ? givenBlock->second
                      : tile.cols;
  int64_t splits = llvm::divideCeil(std::max<int64_t>(1, shape.cols),
                                    std::max<int64_t>(1, block));
  Specialization result;
  if (failed(bindConstants(program, traits, options,
                           {tile.cols, tile.rows, splits, tile.inner},
                           result)) ||
      failed(verifyProductConstants(program, traits, shape, result)))
    return failure();
  int64_t rows = traits.rowsPerProgram.empty()
                     ? 1
                     : result.constants.lookup(traits.rowsPerProgram);
  result.numWarps =
      options.choices.numWarps > 0
          ? options.choices.numWarps
          : productWarps(rows, tile,
                         onTensorCores(shape, options) ||
                             multipliesAsTf32(shape, traits, options),
                         options);
  result.numCtas = options.choices.numCtas;
  result.numStages =
      options.choices.numStages > 0 ? options.choices.numStages : tile.stages;
  result.minCtasPerSm = options.choices.minCtasPerSm;
  result.rowsPerProgram = rows;
  result.rowParts = traits.rowSplits.empty()
                        ? 1
                        : result.constants.lookup(traits.rowSplits);
  return result;
}

/// The tiles autotuning tries for a product (rows x cols x inner; warps
/// and stages from the rules).
static std::vector<ProductTile>
productCandidates(const RowShape &shape, const ProgramTraits &traits,
                  const BindingOptions &options) {
  if (multipliesAsTf32(shape, traits, options))
    return {kTf32Tile,
            {64, 128, 32, 4, 0},
            {128, 64, 32, 4, 0},
            {64, 64, 32, 4, 0}};
  if (!onTensorCores(shape, options))
    return {{32, 32, 32, 4, 0}, kScalarTile, {64, 64, 32, 4, 0}};
  std::vector<ProductTile> tiles = {kFewRowsTile, {128, 128, 64, 8, 0},
                                    {128, 128, 128, 8, 0}, kTensorCoreTile,
                                    {256, 128, 64, 8, 0}};
  // The deeper few-row K steps fill wgmma's rings; mma.sync's operands
  // pass through registers, where fewRowsInner keeps 64 too.
  if (shape.rows <= kFewRowsTile.rows &&
      options.products == BindingOptions::Products::warpgroups)
    for (int64_t inner : {kFewRowsDeeperInner, kFewRowsDeepInner})
      tiles.push_back({kFewRowsTile.rows, kFewRowsTile.cols, inner, 4, 0});
  return tiles;
}

static std::vector<Specialization>
candidateProductSpecializations(ModuleOp program, const ProgramTraits &traits,
                                const RowShape &shape,
                                const BindingOptions &options) {
  std::vector<int64_t> stages = {options.choices.numStages};
  if (options.choices.numStages == 0) {
    if (options.products == BindingOptions::Products::warpgroups &&
        onTensorCores(shape, options))
      stages = traits.chainsProducts() ? std::vector<int64_t>{2, 3}
                                     : std::vector<int64_t>{3, 4};
    // tf32's operands are carried in registers, a K step ahead at 2 stages
    // (the rules'), two at 3 (the faster for 64 x 128 at 1000^3).
    else if (multipliesAsTf32(shape, traits, options))
      stages = {2, 3};
    else if (traits.loadsInLoops)
      stages = {1, 2};
  }
  ScopedDiagnosticHandler quiet(program.getContext(),
                                [](Diagnostic &) { return success(); });
  std::vector<Specialization> candidates;
  std::set<std::string> seen;
  for (const ProductTile &tile : productCandidates(shape, traits, options)) {
    BindingOptions fixed = options;
    fixed.choices.numWarps = 0;
    for (auto [name, value] : {std::pair{&traits.rowsPerProgram, tile.rows},
                               {&traits.rowBlock, tile.cols},
                               {&traits.innerBlock, tile.inner}})
      if (!name->empty() && !options.choices.constants.count(*name))
        fixed.choices.constants[*name] = value;
    for (int64_t s : stages) {
      fixed.choices.numStages = s;
      FailureOr<Specialization> candidate =
          chooseProductSpecialization(program, traits, shape, fixed);
      if (failed(candidate) || !seen.insert(candidate->describe()).second)
        continue;
      // Rings past a CTA's shared memory are not made (the loads stay
      // loads): such a candidate only spills (64 x 64 x 256 at 4 stages,
      // 256 KiB).
      auto constant = [&](const std::string &name) {
        return name.empty() ? 1 : candidate->constants.lookup(name);
      };
      if (options.products == BindingOptions::Products::warpgroups &&
          !ringsFit(constant(traits.rowsPerProgram), constant(traits.rowBlock),
                    constant(traits.innerBlock), s, shape, options))
        continue;
      candidates.push_back(*candidate);
    }
  }
  return candidates;
}

FailureOr<Specialization>
mlir::blk::chooseSpecialization(ModuleOp program, const RowShape &shape,
                                const BindingOptions &options) {
  if (failed(verifyCallerConstants(program, options)))
    return failure();
  FailureOr<ProgramTraits> traits = ProgramTraits::get(program);
  if (failed(traits))
    return failure();
  if (traits->multiplies)
    return chooseProductSpecialization(program, *traits, shape, options);
  RuleConstants rules = ruleConstants(*traits, shape, options);
  Specialization result;
  result.numStages = options.choices.numStages;
  result.minCtasPerSm = options.choices.minCtasPerSm;
  if (failed(bindConstants(program, *traits, options, rules, result)))
    return failure();

  if (failed(verifyRoleConstants(program, *traits, shape, options.choices.maxTile,
                                 result)))
    return failure();

  auto bound = [&](const std::string &name) -> int64_t {
    return name.empty() ? 0 : result.constants.lookup(name);
  };
  int64_t rowsBound = bound(traits->rowsPerProgram);
  int64_t splitsBound = bound(traits->rowSplits);
  int64_t boundBlock = std::max<int64_t>(1, bound(traits->rowBlock));
  // A cluster spreads one row held in registers over several SMs.
  // Registers, in thirds of a row: a row held across a reduction counts 3,
  // a row read after it 2 in f32 and 1 in 16 bits (it stays packed until
  // used). A cluster from 3 x 65536, a softmax's 65536 columns. Measured
  // on an H100, 4096 x 32768 (docs/benchmarks.md, "What the rules rest on"):
  // softmax backward (y and dy held: 6) spills with 16 warps, 28% of a
  // copy, and runs at 101% on a cluster of 4; LayerNorm f32 (x held,
  // weight and bias after: 7) spills, 23%, and runs at 76% on a cluster of
  // 8; RMSNorm (5) runs at 93% without a cluster and 86% on one of 4;
  // LayerNorm bf16 (5) at 80% without and at most 68% on one.
  // Tiles walked in a loop and split rows are not held at once.
  bool holdsRow = !traits->loopsOverRow && traits->rowSplits.empty();
  int64_t held = holdsRow ? std::max<int64_t>(1, traits->heldRows) : 1;
  int64_t streamed = holdsRow ? traits->streamedRows : 0;
  int64_t registerThirds =
      3 * held + streamed * (shape.elementBytes >= 4 ? 2 : 1);
  // A row of 65536 or more is split over CTAs by the rows held across the
  // reduction, as a softmax's is (LayerNorm 1024 x 65536 f32: 67% of a
  // copy on 4 CTAs, 56% on 16); a shorter row put on a cluster for the
  // rows read besides it, by all of them (LayerNorm 4096 x 32768 f32: 8).
  int64_t clusterRows = boundBlock >= kClusterRow ? held : held + streamed;
  // One row a program, the only row its kernel reads (a softmax's), and
  // warps and CTAs left to the rules: where the cluster rules below refine
  // the binding.
  bool holdsOneRowAlone =
      holdsRow && rowsBound <= 1 && held == 1 && streamed == 0;
  bool rulesChooseThreads =
      options.tileRowBlocks && options.choices.numCtas == 0 && options.choices.numWarps == 0;
  bool wide =
      holdsWideRows(shape, held, streamed, options) ||
      holdsUnwrittenRows(shape, boundBlock, held, streamed, *traits, options);
  bool keepsRows =
      keepsRowsOnClusters(shape, held, streamed, wide, *traits, options);
  int64_t cols = std::max<int64_t>(1, shape.cols);
  int64_t roomyCols = cols + getShiftRoom(cols, shape.elementBytes);
  // Up to what 2 CTAs of 4 warps hold at 128 a thread (32768, a wide
  // cluster CTA's share) with the room.
  bool wideOnTwoCtas =
      wide && holdsRow && rowsBound <= 1 && roomyCols > kWideOneCtaRow &&
      roomyCols <= clusterElementsPerCta(shape, wide, keepsRows) &&
      options.maxCtas >= 2;
  // A kept row takes at most 8 CTAs, unless a thread would then hold more
  // than it can: on the caller's warps (bf16 151936 on 4 warps: 152 a
  // thread), or on the most warps a held row gets (bf16 1048576 on 16
  // warps: 256 a thread, a block the compiler refuses).
  int64_t ctaCap = keepsRows ? kKeptRowCtas : kRuleCtas;
  int64_t mostWarps = options.choices.numWarps > 0 ? options.choices.numWarps
                                                   : kMaxHeldRowWarps;
  if (keepsRows &&
      tiledElementsPerThread(cols, shape.elementBytes, mostWarps,
                             kKeptRowCtas) > clusterElementsPerThread(true))
    ctaCap = kRuleCtas;
  int64_t ctas = traits->numCtas;
  if (holdsRow && rowsBound <= 1 &&
      registerThirds * boundBlock >= 3 * kClusterRow)
    ctas = std::max(
        ctas, std::min({static_cast<int64_t>(llvm::PowerOf2Ceil(
                            clusterRows * boundBlock /
                            clusterElementsPerCta(shape, wide, keepsRows))),
                        ctaCap, options.maxCtas}));
  else if (wideOnTwoCtas)
    ctas = std::max<int64_t>(ctas, 2);
  if (options.choices.numCtas > 0)
    ctas = options.choices.numCtas;
  bool heldF32RowOnFourWarps =
      shape.elementBytes == 4 && holdsOneRowAlone && rulesChooseThreads &&
      boundBlock >= kClusterRow && !options.choices.constants.count(traits->rowBlock) &&
      ctas >= kHeldF32RowCtas && traits->numCtas <= kHeldF32RowCtas &&
      traits->numWarps <= kHeldF32RowWarps &&
      tiledElementsPerThread(cols, shape.elementBytes, kHeldF32RowWarps,
                             kHeldF32RowCtas) <= kHeldF32RowElements;
  if (heldF32RowOnFourWarps)
    ctas = kHeldF32RowCtas;
  bool heldPairOnFourWarps =
      shape.elementBytes < 4 && holdsRow && rowsBound <= 1 && held == 2 &&
      streamed == 0 && rulesChooseThreads &&
      !options.choices.constants.count(traits->rowBlock) &&
      !fillsVectors(cols, shape.elementBytes) && roomyCols > kWideOneCtaRow &&
      options.maxCtas >= kHeldPairCtas && traits->numCtas <= kHeldPairCtas &&
      traits->numWarps <= kHeldPairWarps &&
      tiledElementsPerThread(cols, shape.elementBytes, kHeldPairWarps,
                             kHeldPairCtas) <= kHeldPairElements;
  if (heldPairOnFourWarps)
    ctas = kHeldPairCtas;
  result.numCtas =
      ctas != traits->numCtas || options.choices.numCtas > 0 ? ctas : 0;
  // Warps by the rows held across the reduction; on a cluster, by the
  // rows its CTAs were counted for.
  int64_t heldBlock = boundBlock * (ctas > 1 ? clusterRows : held);
  int64_t blockElements = std::max<int64_t>(1, rowsBound) * heldBlock /
                          std::max<int64_t>(1, ctas);
  // Measured on an H200 (docs/benchmarks.md): a warp per 1024 elements of a
  // row held in registers (up to 16; 2048 on a cluster), a warp per 512 of a
  // tile walked in a loop (up to 32); never fewer than the kernel asks for.
  // An f32 row on the full cluster (16 CTAs: past 131072 columns), the
  // only row a kernel reads, holds up to 128 elements a thread on 4 warps
  // rather than 64 on 8. H100, % of a copy, 16 x 4 against 16 x 8: 256 x
  // 262144 84.6 / 82.1, 512 x 151936 88.7 / 83.6, 256 x 200000 90.5 /
  // 78.0, 256 x 180000 88.6 / 74.6, 512 x 140000 91.1 / 79.1
  // (docs/bench-data/padded-rows/sweep2-h100.txt).
  bool wideOnFullCluster =
      shape.elementBytes >= 4 && ctas == kRuleCtas && holdsOneRowAlone;
  int64_t perWarp =
      traits->loopsOverRow ? 512
      : ctas > 1
          ? kWarpSize * clusterElementsPerThread(wide || wideOnFullCluster)
          : kHeldRowElementsPerWarp;
  int64_t maxWarps = traits->loopsOverRow ? kMaxWarpsPerCta : kMaxHeldRowWarps;
  bool normOnEightWarps = holdsNormOnEightWarps(
      shape, *traits, held, streamed, rowsBound, ctas, boundBlock, options);
  int64_t warps =
      heldF32RowOnFourWarps ? kHeldF32RowWarps
      : heldPairOnFourWarps ? kHeldPairWarps
      : normOnEightWarps
          ? kNormOnEightWarps
          : llvm::PowerOf2Ceil(
                std::max(traits->numWarps,
                         std::min<int64_t>(maxWarps, blockElements / perWarp)));
  bool keepsF32Rows =
      keepsCopiedF32Rows(shape, held, streamed, *traits, options) &&
      !heldF32RowOnFourWarps;
  // Fitted only where the rules choose the block too (a caller's BLOCK may
  // be past what the fitted CTAs keep).
  if ((keepsRows || keepsF32Rows) && ctas > 1 && holdsOneRowAlone &&
      rulesChooseThreads && !options.choices.constants.count(traits->rowBlock) &&
      options.rows) {
    int64_t fittedWarps = warps, fittedCtas = ctas;
    fitKeptRow(shape, *traits, *options.rows, fittedWarps, fittedCtas);
    if (!leavesMultiprocessorsIdle(shape.rows, fittedCtas,
                                   options.choices.multiprocessors)) {
      warps = fittedWarps;
      ctas = fittedCtas;
      result.numCtas = ctas != traits->numCtas ? ctas : 0;
    }
  }
  result.numWarps = options.choices.numWarps > 0
                        ? options.choices.numWarps
                        : (warps != traits->numWarps ? warps : 0);
  bool tilesBlock = options.tileRowBlocks && !traits->rowBlock.empty() &&
                    !options.choices.constants.count(traits->rowBlock) &&
                    rowsBound <= 1 && !traits->loopsOverRow;
  int64_t parts = std::max<int64_t>(1, splitsBound);
  if (tilesBlock) {
    int64_t tiledWarps =
        options.choices.numWarps > 0 ? options.choices.numWarps : warps;
    int64_t tiled =
        tileRowBlock(cols, parts, shape.elementBytes, tiledWarps, ctas);
    // Smaller than the power of two, or larger where that has no room to
    // shift the row (64 x 1048573 bf16 in 128 parts: 10240, not 8192) and
    // the tiles at most double it (127 bf16 columns stay in 128, not in a
    // tile of 1024).
    int64_t room = getPeelRoom(cols, shape.elementBytes, tiled,
                               kWarpSize * tiledWarps * std::max<int64_t>(1, ctas));
    bool roomless = tiled <= 2 * boundBlock &&
                    llvm::divideCeilSigned(cols + room, parts) > boundBlock;
    if (tiled < boundBlock || roomless)
      result.constants[traits->rowBlock] = tiled;
  }
  // A thread on a cluster holds at most 128 elements; the shift's room
  // (65535 bf16 on 2 CTAs of 8 warps: 69632, 136 a thread; 262143 f32 on
  // 16 CTAs of 4 warps: 270336, 132; 1048573 bf16 on 16 CTAs of 16 warps:
  // 1114112, 136) or a caller's block may ask for more: twice the warps
  // then, where a CTA has them.
  int64_t boundWarps = result.numWarps ? result.numWarps : traits->numWarps;
  if (ctas > 1 && options.choices.numWarps == 0 && holdsRow &&
      !traits->rowBlock.empty() && 2 * boundWarps <= kMaxWarpsPerCta &&
      result.constants.lookup(traits->rowBlock) >
          kWarpSize * boundWarps * ctas * clusterElementsPerThread(true)) {
    result.numWarps = 2 * boundWarps;
    if (tilesBlock)
      result.constants[traits->rowBlock] =
          tileRowBlock(cols, parts, shape.elementBytes, result.numWarps, ctas);
  }
  if (asksForTwoCtasPerSm(shape, *traits, held, streamed, rowsBound, ctas,
                          result.numWarps ? result.numWarps : traits->numWarps,
                          result.constants.lookup(traits->rowBlock), options))
    result.minCtasPerSm = 2;
  result.rowsPerProgram = std::max<int64_t>(1, rowsBound);
  result.rowParts = std::max<int64_t>(1, splitsBound);
  return result;
}

std::vector<Specialization>
mlir::blk::candidateSpecializations(ModuleOp program, const RowShape &shape,
                                    const BindingOptions &options) {
  FailureOr<ProgramTraits> traits = ProgramTraits::get(program);
  if (failed(traits))
    return {};
  if (traits->multiplies) {
    if (failed(verifyCallerConstants(program, options)))
      return {};
    return candidateProductSpecializations(program, *traits, shape, options);
  }
  bool hasRows = !traits->rowsPerProgram.empty() &&
                 !options.choices.constants.count(traits->rowsPerProgram);
  int64_t maxTile = options.choices.maxTile;
  std::vector<int64_t> tiles = {maxTile};
  if (traits->loopsOverRow || !traits->rowSplits.empty())
    tiles = {maxTile / 2, maxTile, maxTile * 2};
  std::vector<int64_t> rowChoices = {0};
  if (hasRows)
    rowChoices = {1, 2, 4, 8, 16};

  // A candidate the rules cannot bind is left out, quietly.
  ScopedDiagnosticHandler quiet(program.getContext(),
                                [](Diagnostic &) { return success(); });
  std::vector<Specialization> candidates;
  std::set<std::string> seen;
  for (int64_t tile : tiles) {
    for (int64_t rows : rowChoices) {
      BindingOptions fixed = options;
      fixed.choices.maxTile = tile;
      fixed.choices.numWarps = fixed.choices.numCtas = 0;
      if (rows)
        fixed.choices.constants[traits->rowsPerProgram] = rows;
      FailureOr<Specialization> base =
          chooseSpecialization(program, shape, fixed);
      if (failed(base))
        continue;
      int64_t ctas = base->numCtas ? base->numCtas : traits->numCtas;
      for (int64_t c : {ctas / 2, ctas, ctas * 2}) {
        if (c < 1 || c > options.maxCtas)
          continue;
        fixed.choices.numCtas = c;
        FailureOr<Specialization> clustered =
            chooseSpecialization(program, shape, fixed);
        if (failed(clustered))
          continue;
        int64_t warps =
            clustered->numWarps ? clustered->numWarps : traits->numWarps;
        // Bound again for each warp count: a row block of whole layout
        // tiles depends on the warps (tileRowBlocks).
        for (int64_t w : {warps / 2, warps, warps * 2}) {
          if (w < 1 || w > kMaxWarpsPerCta)
            continue;
          BindingOptions warped = fixed;
          warped.choices.numWarps = w;
          FailureOr<Specialization> candidate =
              chooseSpecialization(program, shape, warped);
          if (failed(candidate))
            continue;
          // A loop's loads one iteration ahead, or not (no rule picks
          // either: docs/benchmarks.md, "Software pipelining").
          std::vector<int64_t> stages = {candidate->numStages};
          if (traits->loadsInLoops && options.choices.numStages == 0)
            stages = {1, 2};
          for (int64_t s : stages) {
            Specialization staged = *candidate;
            staged.numStages = s;
            if (seen.insert(staged.describe()).second)
              candidates.push_back(staged);
          }
        }
      }
    }
  }
  return candidates;
}
