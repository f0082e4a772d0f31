//===- Autotune.cpp - remembered best specializations ---------------------===//
#include "Autotune.h"

#include "blk/Runtime/Files.h"
#include "blk/Target/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FileSystem.h"
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
                               const Problem &problem) {
  std::string text;
  llvm::raw_string_ostream os(text);
  program.print(os);
  return device + "|" + programName + "|" +
         llvm::utohexstr(llvm::xxh3_64bits(text)) + "|" +
         blk::runtime::elementTypeName(problem.type()) + "|" +
         std::to_string(problem.rows()) + "x" + std::to_string(problem.cols()) +
         "|" + std::to_string(problem.desc.getRowStride(problem.input)) + "," +
         std::to_string(problem.desc.getRowStride(problem.output));
}

/// 0 (the kernel's own) or a power of two up to `most`.
static bool isLaunchCount(int64_t value, int64_t most) {
  return value == 0 || (value > 0 && value <= most && llvm::isPowerOf2_64(value));
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
      !isLaunchCount(entry.numWarps, mlir::blk::kMaxWarpsPerCta) ||
      !isLaunchCount(entry.numCtas, mlir::blk::kMaxClusterCtas) ||
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
