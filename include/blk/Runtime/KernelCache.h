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

  /// A cache in `directory` (created at the first store); an empty
  /// directory is a cache that is off: nothing is found or kept.
  explicit KernelCache(std::string directory)
      : cacheDirectory(std::move(directory)) {}

  bool isEnabled() const { return !cacheDirectory.empty(); }
  const std::string &getDirectory() const { return cacheDirectory; }
  /// The file of `key` (a hex string).
  std::string getEntryPath(const std::string &key) const;

  /// The entry of `key` into `payload`: true if found whole and intact.
  /// `problem` says why an entry that exists was not used (corrupt,
  /// unreadable), empty otherwise.
  bool lookup(const std::string &key, std::string &payload,
              std::string &problem) const;
  /// Keeps `payload` under `key`, replacing any entry.
  Status store(const std::string &key, const std::string &payload) const;

private:
  std::string cacheDirectory;
};

} // namespace blk::runtime

#endif // BLK_RUNTIME_KERNELCACHE_H
