//===- KernelCache.cpp - compiled programs kept on disk -------------------===//
#include "blk/Runtime/KernelCache.h"

#include "blk/Runtime/Files.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace blk::runtime;

/// Version 2 writes the entry's key into it: an entry copied under another
/// key's name (compiled with other options, say without bounds checks) is
/// not that key's.
static const char kEntryMagic[] = "blk-kernel-cache 2";
/// Larger entries are not read (a program's PTX or object is well under).
static constexpr long long kMaxEntryBytes = 256ll << 20;

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

/// "blk-kernel-cache 2 KEY ": what an entry of `key` starts with.
static std::string entryPrefix(const std::string &key) {
  return std::string(kEntryMagic) + " " + key + " ";
}

static std::string entryHeader(const std::string &key,
                               const std::string &payload) {
  char sizes[48];
  std::snprintf(sizes, sizeof(sizes), "%zu %016" PRIx64 "\n", payload.size(),
                checksum(payload));
  return entryPrefix(key) + sizes;
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

bool KernelCache::parseSize(const std::string &text, uint64_t &bytes) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  if (digits == 0 || digits > 19 || text.size() > digits + 1)
    return false;
  unsigned shift = 0;
  if (text.size() == digits + 1) {
    switch (text.back()) {
    case 'K':
      shift = 10;
      break;
    case 'M':
      shift = 20;
      break;
    case 'G':
      shift = 30;
      break;
    default:
      return false;
    }
  }
  uint64_t value = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  if (value == 0 || value > (UINT64_MAX >> shift))
    return false;
  bytes = value << shift;
  return true;
}

Status KernelCache::getDefaultSizeLimit(uint64_t &bytes) {
  bytes = kDefaultSizeLimit;
  const char *text = std::getenv("BLK_CACHE_SIZE");
  if (!text || parseSize(text, bytes))
    return Status::success();
  bytes = kDefaultSizeLimit;
  return Status::failure(std::string("BLK_CACHE_SIZE='") + text +
                         "' is not a size (bytes, or a number with K, M or "
                         "G, more than 0)");
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
  // Not opened blocking: a fifo put in its place must not hang the run.
  int descriptor = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) {
    if (errno != ENOENT)
      problem = describeIOError("read", path);
    return false;
  }
  // Only a regular file of a plausible size is read (a device such as
  // /dev/zero would never end).
  struct stat status;
  if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode) ||
      status.st_size > kMaxEntryBytes) {
    close(descriptor);
    problem = "damaged entry " + path + " (not a regular file of at most " +
              std::to_string(kMaxEntryBytes >> 20) + " MiB)";
    return false;
  }
  std::string bytes(static_cast<size_t>(status.st_size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t got = read(descriptor, &bytes[done], bytes.size() - done);
    if (got <= 0)
      break;
    done += static_cast<size_t>(got);
  }
  close(descriptor);
  if (done != bytes.size()) {
    problem = describeIOError("read", path);
    return false;
  }
  size_t newline = bytes.find('\n');
  std::string body =
      newline == std::string::npos ? "" : bytes.substr(newline + 1);
  std::string prefix = entryPrefix(key);
  if (newline != std::string::npos &&
      bytes.compare(0, std::string(kEntryMagic).size(), kEntryMagic) == 0 &&
      bytes.compare(0, prefix.size(), prefix) != 0) {
    problem = "entry " + path + " was stored under another key";
    return false;
  }
  if (newline == std::string::npos ||
      bytes.compare(0, newline + 1, entryHeader(key, body)) != 0) {
    problem = "damaged entry " + path + " (length or checksum differ)";
    return false;
  }
  payload = std::move(body);
  // Used now: the last entry trim() would remove.
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
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
  // writeFileWhole writes into what is no regular file (a device, a fifo)
  // in place; an entry is always replaced, so such a thing goes first.
  std::string path = getEntryPath(key);
  struct stat status;
  if (lstat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode) &&
      !S_ISDIR(status.st_mode))
    unlink(path.c_str());
  if (Status status = writeFileWhole(path, entryHeader(key, payload),
                                     payload.data(), payload.size());
      !status)
    return status;
  trim(path);
  return Status::success();
}

void KernelCache::trim(const std::string &kept) const {
  struct Entry {
    std::string path;
    uint64_t bytes;
    struct timespec used;
  };
  DIR *directory = opendir(cacheDirectory.c_str());
  if (!directory)
    return;
  std::vector<Entry> entries;
  uint64_t total = 0;
  while (const struct dirent *item = readdir(directory)) {
    std::string name = item->d_name;
    struct stat status;
    std::string path = cacheDirectory + "/" + name;
    if (name.size() < 5 || name.compare(name.size() - 5, 5, ".blkc") != 0 ||
        lstat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
      continue;
    total += static_cast<uint64_t>(status.st_size);
    if (path != kept)
      entries.push_back(
          {path, static_cast<uint64_t>(status.st_size), status.st_mtim});
  }
  closedir(directory);
  if (total <= sizeLimit)
    return;
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec
                                          : a.used.tv_nsec < b.used.tv_nsec;
  });
  for (const Entry &entry : entries) {
    if (total <= sizeLimit)
      break;
    // Another process may have removed it already: then it is gone anyway.
    if (unlink(entry.path.c_str()) == 0 || errno == ENOENT)
      total -= entry.bytes;
  }
}
