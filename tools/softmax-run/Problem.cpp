//===- Problem.cpp - binding rules for block programs ---------------------===//
#include "Problem.h"

#include "blk/IR/BlkDialect.h"
#include "blk/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <set>

using namespace softmax_run;

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
largestOverKernels(mlir::ModuleOp program,
                   llvm::function_ref<int64_t(mlir::blk::KernelAttr)> setting) {
  int64_t largest = 1;
  for (auto func : program.getOps<mlir::func::FuncOp>())
    if (auto kernel = mlir::blk::getKernelAttr(func))
      largest = std::max(largest, setting(kernel));
  return largest;
}

static int64_t kernelWarps(mlir::ModuleOp program) {
  return largestOverKernels(
      program, [](mlir::blk::KernelAttr kernel) { return kernel.getNumWarps(); });
}

static int64_t kernelCtas(mlir::ModuleOp program) {
  return largestOverKernels(
      program, [](mlir::blk::KernelAttr kernel) { return kernel.getNumCtas(); });
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

static int64_t clusterElementsPerCta(const Problem &problem) {
  return problem.type == blk::runtime::ElementType::F32 ? 16384 : 8192;
}

bool softmax_run::chooseSpecialization(
    mlir::ModuleOp program, const Problem &problem,
    const llvm::StringMap<int64_t> &overrides, int64_t maxTile,
    int64_t forcedWarps, int64_t forcedCtas, int64_t maxCtas,
    Specialization &result, std::string &error) {
  // A program loops over the row when a loop runs up to n_cols (the last
  // kernel argument); a persistent loop over rows does not count.
  bool loopsOverRow = false;
  program.walk([&](mlir::scf::ForOp loop) {
    auto bound = mlir::dyn_cast<mlir::BlockArgument>(loop.getUpperBound());
    if (bound && bound.getArgNumber() == 5 &&
        mlir::isa<mlir::func::FuncOp>(bound.getOwner()->getParentOp()))
      loopsOverRow = true;
  });

  std::vector<std::string> names = mlir::blk::getConstantNames(program);
  bool splitsRows = llvm::is_contained(names, "SPLITS");
  int64_t cols = std::max<int64_t>(1, problem.cols);
  int64_t splits =
      splitsRows ? llvm::PowerOf2Ceil(llvm::divideCeil(cols, maxTile)) : 1;
  int64_t block = llvm::PowerOf2Ceil(llvm::divideCeil(cols, splits));
  if (loopsOverRow)
    block = std::min(block, maxTile);
  // Measured on an H200 (docs/benchmarks.md): short rows want a few rows
  // per program and many programs, not big programs.
  int64_t rowsPerProgram = std::max<int64_t>(2, 512 / block);
  rowsPerProgram = std::min<int64_t>(
      rowsPerProgram, llvm::PowerOf2Ceil(std::max<int64_t>(1, problem.rows)));

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
                    std::min({boundBlock / clusterElementsPerCta(problem),
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
  result.grid = rowsBound > 0 ? llvm::divideCeil(problem.rows, rowsBound)
                              : problem.rows;
  if (int64_t splitsBound = result.constants.lookup("SPLITS"))
    result.grid *= splitsBound;
  return true;
}

/// As Triton does for integer arguments: a value divisible by 16 is compiled
/// as such, which lets masks on row ends cover whole vector runs.
constexpr int64_t kSpecializedDivisibility = 16;

static void specializeDivisibility(mlir::ModuleOp program,
                                   const Problem &problem) {
  // The softmax kernel ABI: (out, in, in_row_stride, out_row_stride,
  // n_rows, n_cols).
  const int64_t values[] = {problem.inStride, problem.outStride, problem.rows,
                            problem.cols};
  auto name = mlir::blk::BlkDialect::getDivisibilityAttrName();
  for (auto func : program.getOps<mlir::func::FuncOp>()) {
    if (!mlir::blk::isKernel(func) || func.getNumArguments() < 6)
      continue;
    for (unsigned i = 0; i < 4; ++i) {
      auto divisibility = func.getArgAttrOfType<mlir::IntegerAttr>(2 + i, name);
      if (divisibility && values[i] % divisibility.getInt() != 0)
        func.removeArgAttr(2 + i, name);
      else if (!divisibility && values[i] % kSpecializedDivisibility == 0)
        func.setArgAttr(2 + i, name,
                        mlir::IntegerAttr::get(
                            mlir::IntegerType::get(func.getContext(), 64),
                            kSpecializedDivisibility));
    }
  }
}

mlir::OwningOpRef<mlir::ModuleOp>
softmax_run::fitToProblem(mlir::ModuleOp program, const Problem &problem) {
  mlir::OwningOpRef<mlir::ModuleOp> fitted = program.clone();
  specializeDivisibility(*fitted, problem);
  if (problem.type == blk::runtime::ElementType::F32)
    return fitted;
  mlir::PassManager pm(program.getContext());
  pm.addPass(mlir::blk::createBlkStorageType(mlir::blk::BlkStorageTypeOptions{
      blk::runtime::elementTypeName(problem.type)}));
  if (mlir::failed(pm.run(*fitted)))
    return nullptr;
  return fitted;
}

std::vector<uint8_t> softmax_run::stageInput(const Problem &problem) {
  size_t elementBytes = blk::runtime::elementSize(problem.type);
  std::vector<uint8_t> staged(problem.input.size() * elementBytes);
  for (size_t i = 0; i < problem.input.size(); ++i) {
    float value = problem.input[i];
    uint16_t bits = 0;
    switch (problem.type) {
    case blk::runtime::ElementType::F32:
      std::memcpy(&staged[i * 4], &value, 4);
      continue;
    case blk::runtime::ElementType::F16:
      bits = blk::runtime::floatToHalfBits(value);
      break;
    case blk::runtime::ElementType::BF16:
      bits = blk::runtime::floatToBf16Bits(value);
      break;
    }
    std::memcpy(&staged[i * 2], &bits, 2);
  }
  return staged;
}

bool KernelABI::read(mlir::ModuleOp program, const Problem &problem,
                     KernelABI &abi, std::string &error) {
  mlir::MLIRContext *context = program.getContext();
  mlir::Type pointer = mlir::blk::PtrType::get(
      context, problem.type == blk::runtime::ElementType::F32
                   ? mlir::Type(mlir::Float32Type::get(context))
               : problem.type == blk::runtime::ElementType::F16
                   ? mlir::Type(mlir::Float16Type::get(context))
                   : mlir::Type(mlir::BFloat16Type::get(context)));
  mlir::Type i32 = mlir::IntegerType::get(context, 32);
  bool first = true;
  for (auto func : program.getOps<mlir::func::FuncOp>()) {
    if (!mlir::blk::isKernel(func))
      continue;
    auto types = func.getArgumentTypes();
    bool fixedPart = types.size() >= 6 && types[0] == pointer &&
                     types[1] == pointer &&
                     llvm::all_of(types.slice(2, 4),
                                  [&](mlir::Type t) { return t == i32; });
    std::vector<std::string> kinds;
    for (unsigned i = 6; fixedPart && i < types.size(); ++i) {
      auto kind = func.getArgAttrOfType<mlir::StringAttr>(
          i, mlir::blk::BlkDialect::getScratchAttrName());
      if (types[i] != pointer || !kind) {
        fixedPart = false;
        break;
      }
      kinds.push_back(kind.str());
    }
    if (!fixedPart) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "kernel @" << func.getSymName() << " takes " << func.getFunctionType()
         << "; softmax-run runs kernels taking (out: " << pointer
         << ", in: " << pointer
         << ", in_row_stride: i32, out_row_stride: i32, n_rows: i32, "
            "n_cols: i32) followed by scratch pointers marked blk.scratch";
      error = text;
      return false;
    }
    if (first)
      abi.scratchKinds = kinds;
    else if (kinds != abi.scratchKinds) {
      error = "kernel @" + func.getSymName().str() +
              " declares other scratch buffers than the program's first "
              "kernel; the k-th scratch argument of every kernel is the same "
              "buffer";
      return false;
    }
    first = false;
  }
  return true;
}

size_t KernelABI::scratchBytes(size_t index, const Problem &problem) const {
  size_t elements = scratchKinds[index] == "rows"
                        ? problem.rows
                        : problem.rows * problem.cols;
  return elements * blk::runtime::elementSize(problem.type);
}

KernelArguments::KernelArguments(uint64_t out, uint64_t in,
                                 const Problem &problem,
                                 const std::vector<uint64_t> &scratch)
    : scalars{static_cast<int32_t>(problem.inStride),
              static_cast<int32_t>(problem.outStride),
              static_cast<int32_t>(problem.rows),
              static_cast<int32_t>(problem.cols)} {
  pointers = {out, in};
  pointers.insert(pointers.end(), scratch.begin(), scratch.end());
  slots = {&pointers[0], &pointers[1], &scalars[0],
           &scalars[1],  &scalars[2],  &scalars[3]};
  for (size_t i = 2; i < pointers.size(); ++i)
    slots.push_back(&pointers[i]);
}

std::vector<Specialization> softmax_run::candidateSpecializations(
    mlir::ModuleOp program, const Problem &problem,
    const llvm::StringMap<int64_t> &overrides, int64_t maxTile,
    int64_t maxCtas) {
  std::vector<std::string> names = mlir::blk::getConstantNames(program);
  bool hasRows = llvm::is_contained(names, "ROWS") && !overrides.count("ROWS");
  std::vector<int64_t> tiles = {maxTile};
  bool tiled = false;
  program.walk([&](mlir::scf::ForOp) { tiled = true; });
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
      if (!chooseSpecialization(program, problem, bound, tile, 0, 0, maxCtas,
                                base, error))
        continue;
      int64_t ctas = base.numCtas ? base.numCtas : kernelCtas(program);
      for (int64_t c : {ctas / 2, ctas, ctas * 2}) {
        if (c < 1 || c > maxCtas)
          continue;
        Specialization clustered;
        if (!chooseSpecialization(program, problem, bound, tile, 0, c,
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
