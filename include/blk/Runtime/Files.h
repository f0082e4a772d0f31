//===- Files.h - files written whole or not at all --------------*- C++ -*-===//
#ifndef BLK_RUNTIME_FILES_H
#define BLK_RUNTIME_FILES_H

#include "blk/Runtime/Status.h"

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace blk::runtime {

/// Writes `header` then `dataSize` bytes at `data` to `path`, whole or not
/// at all: into a temporary file beside it, renamed over it once complete,
/// so that a full disk, a size limit or a kill leaves the previous file
/// (which may be the input) as it was. "-" is standard output; a path that
/// exists and is no regular file (/dev/full, a pipe) is written as it is,
/// since renaming would replace it. A failure reads "cannot write 'PATH':
/// <reason>".
Status writeFileWhole(const std::string &path, const std::string &header,
                      const void *data = nullptr, size_t dataSize = 0);

/// What writes a file's `header` and data to its path: writeFileWhole, or
/// a FileBatch's writer.
using FileWriter = std::function<Status(const std::string &path,
                                        const std::string &header,
                                        const void *data, size_t dataSize)>;

/// Files a run writes together (softmax-run's --output of several
/// tensors), all or none: each is written into a temporary file beside its
/// path as it comes, and none replaces its path before every one is
/// written (commit). A failure, or a batch destroyed uncommitted, leaves
/// every path as it was. A path written as it is (standard output, a
/// device: writeFileWhole) keeps its bytes until commit, which writes them
/// before it renames anything.
class FileBatch {
public:
  FileBatch() = default;
  FileBatch(const FileBatch &) = delete;
  FileBatch &operator=(const FileBatch &) = delete;
  /// Removes the temporaries of an uncommitted batch.
  ~FileBatch();

  /// Stages `path`; fails as writeFileWhole does.
  Status add(const std::string &path, const std::string &header,
             const void *data = nullptr, size_t dataSize = 0);
  /// add, as a FileWriter.
  FileWriter writer();
  /// Writes the paths written as they are, then renames each temporary
  /// over its path.
  Status commit();

private:
  /// (temporary, path) of each regular file.
  std::vector<std::pair<std::string, std::string>> staged;
  /// (path, bytes) of each path written as it is.
  std::vector<std::pair<std::string, std::string>> inPlace;
};

/// "cannot ACTION 'PATH': <strerror(errno)>".
std::string describeIOError(const char *action, const std::string &path);

} // namespace blk::runtime

#endif // BLK_RUNTIME_FILES_H
