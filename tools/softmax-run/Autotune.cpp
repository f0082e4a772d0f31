//===- Autotune.cpp - remembered best specializations ---------------------===//
#include "Autotune.h"

#include "Report.h"

#include "blk/Driver/Version.h"
#include "blk/Runtime/Files.h"
#include "blk/Target/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>

using namespace softmax_run;

static std::string defaultCachePath() {
  llvm::SmallString<256> path;
  if (const char *cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
    path = cache;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(path, home, ".cache");
  else
    path = ".";
  llvm::sys::path::append(path, "blk-softmax", "autotune.tsv");
  return std::string(path);
}

AutotuneCache::AutotuneCache(std::string path)
    : path(path.empty() ? defaultCachePath() : std::move(path)) {}

std::string AutotuneCache::key(const std::string &device,
                               mlir::ModuleOp program,
                               const std::string &programName,
                               const Problem &problem,
                               const mlir::blk::CompileOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  program.print(os);
  std::string strides;
  for (const auto &[name, stride] : problem.desc.getProgramShape().rowStrides)
    strides += (strides.empty() ? "" : ",") + name + "=" +
               std::to_string(stride);
  return device + "|" + programName + "|" +
         llvm::utohexstr(llvm::xxh3_64bits(text)) + "|" +
         blk::runtime::elementTypeName(problem.type()) + "|" +
         std::to_string(problem.rows()) + "x" + std::to_string(problem.cols()) +
         (problem.desc.inner ? "x" + std::to_string(problem.desc.inner) : "") +
         "|" + strides + "|" +
         llvm::utohexstr(llvm::xxh3_64bits(
             options.print() + mlir::blk::getVersion() + " " +
             mlir::blk::getGitRevision()));
}

/// The entry of one line, `key <TAB> NAME=V,NAME=V <TAB> warps <TAB> ctas
/// <TAB> stages` (lines written before clusters have no ctas field, before
/// pipelining no stages), if it is well formed. The constants are checked
/// against the program when bound.
static std::optional<AutotuneCache::Entry> parseLine(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef> fields;
  line.split(fields, '\t');
  AutotuneCache::Entry entry;
  if (fields.size() < 3 || fields.size() > 5 ||
      fields[2].getAsInteger(10, entry.numWarps) ||
      (fields.size() >= 4 && fields[3].getAsInteger(10, entry.numCtas)) ||
      (fields.size() == 5 && fields[4].getAsInteger(10, entry.numStages)) ||
      !blk::chip::isLaunchCount(entry.numWarps, mlir::blk::kMaxWarpsPerCta) ||
      !blk::chip::isLaunchCount(entry.numCtas, mlir::blk::kMaxClusterCtas) ||
      entry.numStages < 0 || entry.numStages > mlir::blk::kMaxPipelineStages)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> bindings;
  fields[1].split(bindings, ',', -1, false);
  for (llvm::StringRef binding : bindings) {
    auto [name, value] = binding.split('=');
    int64_t number = 0;
    if (name.empty() || value.getAsInteger(10, number) || number < 1)
      return std::nullopt;
    entry.constants[name] = number;
  }
  return entry;
}

std::optional<AutotuneCache::Entry>
AutotuneCache::lookup(const std::string &key) const {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return std::nullopt;
  // Only whole lines count: a last line without its newline was cut short.
  llvm::StringRef text = (*file)->getBuffer();
  text = text.take_front(text.rfind('\n') + 1);
  std::optional<Entry> found;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines)
    if (line.starts_with(key + "\t"))
      if (std::optional<Entry> entry = parseLine(line))
        found = std::move(entry);
  return found;
}

/// The file is rewritten through a temporary file renamed over it: a
/// failed write (or two processes storing at once) leaves whole lines.
bool AutotuneCache::store(const std::string &key, const Specialization &best,
                          std::string &error) const {
  llvm::StringRef directory = llvm::sys::path::parent_path(path);
  if (std::error_code ec = directory.empty()
                               ? std::error_code()
                               : llvm::sys::fs::create_directories(directory)) {
    error = path + ": " + ec.message();
    return false;
  }
  std::string previous;
  if (llvm::sys::fs::exists(path)) {
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!llvm::sys::fs::is_regular_file(path) || !file) {
      error = path + ": not a readable regular file";
      return false;
    }
    previous = (*file)->getBuffer().str();
    previous = previous.substr(0, previous.rfind('\n') + 1);
  }
  std::string bindings;
  for (const auto &entry : best.constants)
    bindings += (bindings.empty() ? "" : ",") + entry.getKey().str() + "=" +
                std::to_string(entry.getValue());
  std::string line = key + "\t" + bindings + "\t" +
                     std::to_string(best.numWarps) + "\t" +
                     std::to_string(best.numCtas) + "\t" +
                     std::to_string(best.numStages) + "\n";
  blk::runtime::Status written =
      blk::runtime::writeFileWhole(path, previous + line);
  error = written.message();
  return written.ok();
}

namespace {

/// Times every candidate binding (20 runs each) and returns the fastest;
/// candidates that do not compile (too many registers...) are skipped
/// quietly.
bool tuneOnGPU(GpuExecution &gpu, blk::runtime::CudaDriver &driver,
               mlir::ModuleOp fitted, const Problem &problem,
               const std::vector<blk::runtime::HostTensor> &tensors,
               const mlir::blk::CompileOptions &options, Specialization &best) {
  auto candidates = mlir::blk::candidateBindings(fitted, problem.desc, options);
  if (mlir::failed(candidates))
    return false;
  double bestGBps = 0;
  int tried = 0;
  for (const Specialization &candidate : *candidates) {
    mlir::ScopedDiagnosticHandler quiet(
        fitted.getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    LoadedProgram loaded;
    BenchResult bench;
    if (!buildOnGPU(driver, fitted, problem, options, candidate, loaded) ||
        !gpu.bench(*loaded.program, problem, tensors, 20, bench))
      continue;
    ++tried;
    if (bench.kernelGBps > bestGBps) {
      bestGBps = bench.kernelGBps;
      best = candidate;
    }
  }
  report() << "  autotune: " << tried << " candidates timed, best "
               << best.describe() << " ("
               << llvm::format("%.1f", bestGBps) << " GB/s)\n";
  return tried > 0;
}

} // namespace

bool softmax_run::autotune(
    const RunOptions &runOptions, GpuExecution &gpu,
    blk::runtime::CudaDriver &driver, mlir::ModuleOp program,
    mlir::ModuleOp fitted, llvm::StringRef programName, const Problem &problem,
    const std::vector<blk::runtime::HostTensor> &tensors,
    const mlir::blk::CompileOptions &options, Specialization &binding) {
  AutotuneCache cache(runOptions.autotuneCache);
  // The fitted program: a row split (blk-split-rows) or not is another
  // program, whose bindings do not fit the other.
  std::string key = AutotuneCache::key(driver.device().name + " " + options.chip,
                                       fitted, programName.str(), problem,
                                       options);
  if (auto remembered = cache.lookup(key)) {
    mlir::blk::CompileOptions fixed = options;
    fixed.constants.clear();
    for (const auto &constant : remembered->constants)
      fixed.constants[constant.getKey().str()] = constant.getValue();
    fixed.numWarps = remembered->numWarps;
    fixed.numCtas = remembered->numCtas;
    fixed.numStages = remembered->numStages;
    auto chosen = mlir::blk::chooseBinding(fitted, problem.desc, fixed);
    if (mlir::succeeded(chosen)) {
      binding = std::move(*chosen);
      report() << "  autotune: remembered in " << cache.getPath() << "\n";
      return true;
    }
    llvm::errs() << "softmax-run: autotune: the binding remembered in "
                 << cache.getPath()
                 << " does not fit (see above); tuning again\n";
  }
  if (!tuneOnGPU(gpu, driver, fitted, problem, tensors, options, binding)) {
    llvm::errs() << "softmax-run: autotune: no candidate compiled and ran\n";
    return false;
  }
  std::string error;
  if (!cache.store(key, binding, error))
    llvm::errs() << "softmax-run: autotune cache: " << error << "\n";
  return true;
}
