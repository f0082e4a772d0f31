//===- Binding.cpp - binding rules for block programs ---------------------===//
#include "blk/Programs/Binding.h"

#include "blk/IR/BlkDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

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
    text += "ctas=" + std::to_string(numCtas);
  return llvm::StringRef(text).rtrim().str();
}

/// The largest value of one setting (warps, CTAs) over the kernels.
static int64_t
largestOverKernels(ModuleOp program,
                   llvm::function_ref<int64_t(KernelAttr)> setting) {
  int64_t largest = 1;
  for (auto func : program.getOps<func::FuncOp>())
    if (auto kernel = getKernelAttr(func))
      largest = std::max(largest, setting(kernel));
  return largest;
}

static int64_t kernelWarps(ModuleOp program) {
  return largestOverKernels(
      program, [](KernelAttr kernel) { return kernel.getNumWarps(); });
}

static int64_t kernelCtas(ModuleOp program) {
  return largestOverKernels(
      program, [](KernelAttr kernel) { return kernel.getNumCtas(); });
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

static int64_t clusterElementsPerCta(const SoftmaxShape &shape) {
  return shape.elementBytes >= 4 ? 16384 : 8192;
}

bool mlir::blk::chooseSpecialization(
    ModuleOp program, const SoftmaxShape &shape,
    const llvm::StringMap<int64_t> &overrides, int64_t maxTile,
    int64_t forcedWarps, int64_t forcedCtas, int64_t maxCtas,
    Specialization &result, std::string &error) {
  // A program loops over the row when a loop runs up to n_cols (the last
  // kernel argument); a persistent loop over rows does not count.
  bool loopsOverRow = false;
  program.walk([&](scf::ForOp loop) {
    auto bound = dyn_cast<BlockArgument>(loop.getUpperBound());
    if (bound && bound.getArgNumber() == 5 &&
        isa<func::FuncOp>(bound.getOwner()->getParentOp()))
      loopsOverRow = true;
  });

  std::vector<std::string> names = getConstantNames(program);
  bool splitsRows = llvm::is_contained(names, "SPLITS");
  int64_t cols = std::max<int64_t>(1, shape.cols);
  int64_t splits =
      splitsRows ? llvm::PowerOf2Ceil(llvm::divideCeil(cols, maxTile)) : 1;
  int64_t block = llvm::PowerOf2Ceil(llvm::divideCeil(cols, splits));
  if (loopsOverRow)
    block = std::min(block, maxTile);
  // Measured on an H200 (docs/benchmarks.md): short rows want a few rows
  // per program and many programs, not big programs.
  int64_t rowsPerProgram = std::max<int64_t>(2, 512 / block);
  rowsPerProgram = std::min<int64_t>(
      rowsPerProgram, llvm::PowerOf2Ceil(std::max<int64_t>(1, shape.rows)));

  for (const std::string &name : names) {
    if (overrides.count(name))
      result.constants[name] = overrides.lookup(name);
    else if (name == "BLOCK")
      result.constants[name] = block;
    else if (name == "SPLITS")
      result.constants[name] = splits;
    else if (name == "ROWS")
      result.constants[name] = rowsPerProgram;
    else {
      error = "the program uses compile-time constant '" + name +
              "', which softmax-run cannot derive from the shape; give it "
              "with --const " + name + "=<value>";
      return false;
    }
  }

  int64_t rowsBound = result.constants.lookup("ROWS");
  int64_t boundBlock = std::max<int64_t>(1, result.constants.lookup("BLOCK"));
  // A cluster spreads one row held in registers over several SMs.
  int64_t ownCtas = kernelCtas(program);
  int64_t ctas = ownCtas;
  if (!loopsOverRow && !splitsRows && rowsBound <= 1 &&
      boundBlock >= kClusterRow)
    ctas = std::max(ownCtas,
                    std::min({boundBlock / clusterElementsPerCta(shape),
                              kRuleCtas, maxCtas}));
  if (forcedCtas > 0)
    ctas = forcedCtas;
  result.numCtas = ctas != ownCtas || forcedCtas > 0 ? ctas : 0;
  int64_t blockElements = std::max<int64_t>(1, rowsBound) * boundBlock / ctas;
  // Measured on an H200 (docs/benchmarks.md): a warp per 1024 elements of a
  // row held in registers (up to 16; 2048 on a cluster), a warp per 512 of a
  // tile walked in a loop (up to 32); never fewer than the kernel asks for.
  int64_t ownWarps = kernelWarps(program);
  int64_t perWarp = loopsOverRow ? 512
                    : ctas > 1   ? 32 * kClusterElementsPerThread
                                 : 1024;
  int64_t maxWarps = loopsOverRow ? 32 : 16;
  int64_t warps = std::max(
      ownWarps, std::min<int64_t>(maxWarps, blockElements / perWarp));
  warps = llvm::PowerOf2Ceil(warps);
  result.numWarps = forcedWarps > 0 ? forcedWarps : (warps != ownWarps ? warps : 0);
  result.grid = rowsBound > 0 ? llvm::divideCeil(shape.rows, rowsBound)
                              : shape.rows;
  if (int64_t splitsBound = result.constants.lookup("SPLITS"))
    result.grid *= splitsBound;
  return true;
}

std::vector<Specialization> mlir::blk::candidateSpecializations(
    ModuleOp program, const SoftmaxShape &shape,
    const llvm::StringMap<int64_t> &overrides, int64_t maxTile,
    int64_t maxCtas) {
  std::vector<std::string> names = getConstantNames(program);
  bool hasRows = llvm::is_contained(names, "ROWS") && !overrides.count("ROWS");
  std::vector<int64_t> tiles = {maxTile};
  bool tiled = false;
  program.walk([&](scf::ForOp) { tiled = true; });
  if (tiled || llvm::is_contained(names, "SPLITS"))
    tiles = {maxTile / 2, maxTile, maxTile * 2};
  std::vector<int64_t> rowChoices = {0};
  if (hasRows)
    rowChoices = {1, 2, 4, 8, 16};

  std::vector<Specialization> candidates;
  std::set<std::string> seen;
  for (int64_t tile : tiles) {
    for (int64_t rows : rowChoices) {
      llvm::StringMap<int64_t> bound = overrides;
      if (rows)
        bound["ROWS"] = rows;
      Specialization base;
      std::string error;
      if (!chooseSpecialization(program, shape, bound, tile, 0, 0, maxCtas,
                                base, error))
        continue;
      int64_t ctas = base.numCtas ? base.numCtas : kernelCtas(program);
      for (int64_t c : {ctas / 2, ctas, ctas * 2}) {
        if (c < 1 || c > maxCtas)
          continue;
        Specialization clustered;
        if (!chooseSpecialization(program, shape, bound, tile, 0, c,
                                  maxCtas, clustered, error))
          continue;
        int64_t warps =
            clustered.numWarps ? clustered.numWarps : kernelWarps(program);
        for (int64_t w : {warps / 2, warps, warps * 2}) {
          if (w < 1 || w > 32)
            continue;
          Specialization candidate = clustered;
          candidate.numWarps = w;
          if (seen.insert(candidate.describe()).second)
            candidates.push_back(candidate);
        }
      }
    }
  }
  return candidates;
}
