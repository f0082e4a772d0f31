//===- Files.h - files written whole or not at all --------------*- C++ -*-===//
#ifndef BLK_RUNTIME_FILES_H
#define BLK_RUNTIME_FILES_H

#include "blk/Runtime/Status.h"

#include <cstddef>
#include <string>

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

/// "cannot ACTION 'PATH': <strerror(errno)>".
std::string describeIOError(const char *action, const std::string &path);

} // namespace blk::runtime

#endif // BLK_RUNTIME_FILES_H
