//===- KernelCache.cpp - compiled programs kept on disk -------------------===//
#include "blk/Runtime/KernelCache.h"

#include "blk/Runtime/Files.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

using namespace blk::runtime;

static const char kEntryMagic[] = "blk-kernel-cache 1";

/// FNV-1a: enough to tell a damaged entry from an intact one (the key,
/// a cryptographic hash, is the driver's).
static uint64_t checksum(const std::string &bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char byte : bytes) {
    hash ^= byte;
    hash *= 1099511628211ull;
  }
  return hash;
}

static std::string entryHeader(const std::string &payload) {
  char header[96];
  std::snprintf(header, sizeof(header), "%s %zu %016" PRIx64 "\n", kEntryMagic,
                payload.size(), checksum(payload));
  return header;
}

std::string KernelCache::getDefaultDirectory() {
  if (const char *directory = std::getenv("BLK_CACHE_DIR"))
    return directory; // "" turns the cache off
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/blk/kernels";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/blk/kernels";
  return "";
}

std::string KernelCache::getEntryPath(const std::string &key) const {
  return cacheDirectory + "/" + key + ".blkc";
}

bool KernelCache::lookup(const std::string &key, std::string &payload,
                         std::string &problem) const {
  problem.clear();
  if (!isEnabled())
    return false;
  std::string path = getEntryPath(key);
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    if (errno != ENOENT)
      problem = describeIOError("read", path);
    return false;
  }
  std::string bytes;
  char buffer[1 << 16];
  size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    bytes.append(buffer, read);
  bool failed = std::ferror(file);
  std::fclose(file);
  if (failed) {
    problem = describeIOError("read", path);
    return false;
  }
  size_t newline = bytes.find('\n');
  std::string body =
      newline == std::string::npos ? "" : bytes.substr(newline + 1);
  if (newline == std::string::npos ||
      bytes.compare(0, newline + 1, entryHeader(body)) != 0) {
    problem = "damaged entry " + path + " (length or checksum differ)";
    return false;
  }
  payload = std::move(body);
  return true;
}

/// mkdir -p.
static bool makeDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return false;
    if (slash == std::string::npos)
      return true;
  }
}

Status KernelCache::store(const std::string &key,
                          const std::string &payload) const {
  if (!isEnabled())
    return Status::success();
  if (!makeDirectories(cacheDirectory))
    return Status::failure(describeIOError("create", cacheDirectory));
  return writeFileWhole(getEntryPath(key), entryHeader(payload),
                        payload.data(), payload.size());
}
