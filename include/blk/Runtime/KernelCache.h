//===- KernelCache.h - compiled programs kept on disk -----------*- C++ -*-===//
//
// A directory of entries, one file per key (the compile driver's hash of
// everything a compilation depends on). An entry is written to a temporary
// file in the directory and renamed into place, so processes filling the
// cache at once never see half an entry; each carries its length and a
// checksum, and one that does not match is a miss (it is recompiled and
// replaced), never trusted.
//
// Where: $BLK_CACHE_DIR; else $XDG_CACHE_HOME/blk/kernels; else
// $HOME/.cache/blk/kernels. BLK_CACHE_DIR set to the empty string turns the
// cache off (as TRITON_CACHE_DIR relocates Triton's).
//
// How large: $BLK_CACHE_SIZE bytes ("512M", "2G"; default 1G). A lookup
// that finds an entry marks it used (its modification time); a store that
// takes the entries past the limit removes the least recently used ones
// until they fit again, never the entry it stored.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_KERNELCACHE_H
#define BLK_RUNTIME_KERNELCACHE_H

#include "blk/Runtime/Status.h"

#include <string>

namespace blk::runtime {

class KernelCache {
public:
  /// The directory the environment chooses; empty when the cache is off.
  static std::string getDefaultDirectory();

  /// 1 GiB: about a thousand programs of the family's largest PTX.
  static constexpr uint64_t kDefaultSizeLimit = uint64_t(1) << 30;
  /// $BLK_CACHE_SIZE if set, else kDefaultSizeLimit; a value that is not a
  /// size is an error, saying so.
  static Status getDefaultSizeLimit(uint64_t &bytes);
  /// "123", "512K", "64M", "2G" (powers of 1024) as bytes; false on
  /// anything else, on 0 and on overflow.
  static bool parseSize(const std::string &text, uint64_t &bytes);

  /// A cache in `directory` (created at the first store) of at most
  /// `sizeLimit` bytes; an empty directory is a cache that is off: nothing
  /// is found or kept.
  explicit KernelCache(std::string directory,
                       uint64_t sizeLimit = kDefaultSizeLimit)
      : cacheDirectory(std::move(directory)), sizeLimit(sizeLimit) {}

  bool isEnabled() const { return !cacheDirectory.empty(); }
  const std::string &getDirectory() const { return cacheDirectory; }
  /// The file of `key` (a hex string).
  std::string getEntryPath(const std::string &key) const;

  /// The entry of `key` into `payload`: true if found whole and intact.
  /// `problem` says why an entry that exists was not used (corrupt,
  /// unreadable), empty otherwise.
  bool lookup(const std::string &key, std::string &payload,
              std::string &problem) const;
  /// Keeps `payload` under `key`, replacing any entry, then trims the
  /// cache to its size limit.
  Status store(const std::string &key, const std::string &payload) const;

  /// Removes least recently used entries, other than `kept`'s, until the
  /// entries take at most the size limit. Entries other processes remove
  /// meanwhile are skipped.
  void trim(const std::string &kept) const;

private:
  std::string cacheDirectory;
  uint64_t sizeLimit;
};

} // namespace blk::runtime

#endif // BLK_RUNTIME_KERNELCACHE_H
