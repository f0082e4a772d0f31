//===- Autotune.cpp - remembered best specializations ---------------------===//
#include "Autotune.h"

#include "llvm/ADT/StringExtras.h"
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
         "|" + std::to_string(problem.inStride()) + "," +
         std::to_string(problem.outStride());
}

/// Lines are `key <TAB> NAME=V,NAME=V <TAB> warps <TAB> ctas` (lines
/// written before clusters have no ctas field).
std::optional<AutotuneCache::Entry>
AutotuneCache::lookup(const std::string &key) const {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return std::nullopt;
  std::optional<Entry> found;
  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> fields;
    line.split(fields, '\t');
    Entry entry;
    if ((fields.size() != 3 && fields.size() != 4) || fields[0] != key ||
        fields[2].getAsInteger(10, entry.numWarps) ||
        (fields.size() == 4 && fields[3].getAsInteger(10, entry.numCtas)))
      continue;
    llvm::StringMap<int64_t> &constants = entry.constants;
    llvm::SmallVector<llvm::StringRef> bindings;
    fields[1].split(bindings, ',', -1, false);
    bool valid = true;
    for (llvm::StringRef binding : bindings) {
      auto [name, value] = binding.split('=');
      int64_t number = 0;
      valid &= !value.getAsInteger(10, number);
      constants[name] = number;
    }
    if (valid)
      found = std::move(entry);
  }
  return found;
}

bool AutotuneCache::store(const std::string &key, const Specialization &best,
                          std::string &error) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(
          llvm::sys::path::parent_path(path))) {
    error = path + ": " + ec.message();
    return false;
  }
  std::error_code ec;
  llvm::raw_fd_ostream file(path, ec, llvm::sys::fs::OF_Append);
  if (ec) {
    error = path + ": " + ec.message();
    return false;
  }
  std::string bindings;
  for (const auto &entry : best.constants)
    bindings += (bindings.empty() ? "" : ",") + entry.getKey().str() + "=" +
                std::to_string(entry.getValue());
  file << key << "\t" << bindings << "\t" << best.numWarps << "\t"
       << best.numCtas << "\n";
  return true;
}
