//===- Files.cpp - files written whole or not at all ----------------------===//
#include "blk/Runtime/Files.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace blk::runtime;

std::string blk::runtime::describeIOError(const char *action,
                                           const std::string &path) {
  return std::string("cannot ") + action + " '" + path +
         "': " + std::strerror(errno);
}

namespace {

bool writeAll(std::FILE *file, const std::string &header, const void *data,
              size_t dataSize) {
  return std::fwrite(header.data(), 1, header.size(), file) == header.size() &&
         std::fwrite(data, 1, dataSize, file) == dataSize;
}

/// Writes to a file as it is (standard output, a device, a pipe).
Status writeInPlace(std::FILE *file, const std::string &name,
                    const std::string &header, const void *data,
                    size_t dataSize) {
  bool written = writeAll(file, header, data, dataSize);
  written = (file == stdout ? std::fflush(file) : std::fclose(file)) == 0 &&
            written;
  if (written)
    return Status::success();
  if (file == stdout)
    return Status::failure(std::string("cannot write standard output: ") +
                           std::strerror(errno));
  return Status::failure(describeIOError("write", name));
}

/// The process's umask, read without setting it (umask(2) can only be read
/// by changing it, which races with threads creating files); 022 where
/// /proc does not say (Linux before 4.7).
mode_t getUmask() {
  mode_t mask = 022;
  if (std::FILE *status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned value = 0;
    while (std::fgets(line, sizeof(line), status))
      if (std::sscanf(line, "Umask: %o", &value) == 1) {
        mask = static_cast<mode_t>(value);
        break;
      }
    std::fclose(status);
  }
  return mask;
}

} // namespace

namespace {

/// Whether `path` is written as it is: standard output ("-"), or a path
/// that exists and is no regular file (renaming would replace it).
bool writesInPlace(const std::string &path) {
  struct stat existing;
  return path == "-" ||
         (stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode));
}

/// Writes to `path` as it is (writesInPlace).
Status writeInPlace(const std::string &path, const std::string &header,
                    const void *data = nullptr, size_t dataSize = 0) {
  if (path == "-")
    return writeInPlace(stdout, "-", header, data, dataSize);
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return Status::failure(describeIOError("write", path));
  return writeInPlace(file, path, header, data, dataSize);
}

/// Writes a new temporary file beside `path`, named in `temporary`; none
/// is left where this fails.
Status writeTemporary(const std::string &path, const std::string &header,
                      const void *data, size_t dataSize,
                      std::string &temporary) {
  temporary = path + ".tmp-XXXXXX";
  int descriptor = mkstemp(temporary.data());
  if (descriptor < 0)
    return Status::failure(describeIOError("write", path));
  // mkstemp makes the file private (0600); give it the mode a plain
  // create would have.
  fchmod(descriptor, 0666 & ~getUmask());
  std::FILE *file = fdopen(descriptor, "wb");
  if (!file) {
    Status failure = Status::failure(describeIOError("write", path));
    close(descriptor);
    unlink(temporary.c_str());
    return failure;
  }
  bool written = writeAll(file, header, data, dataSize);
  // fclose flushes, so its failure is a write failure too.
  written = std::fclose(file) == 0 && written;
  if (!written) {
    Status failure = Status::failure(describeIOError("write", path));
    unlink(temporary.c_str());
    return failure;
  }
  return Status::success();
}

/// Renames `temporary` over `path` (or removes it, where that fails).
Status renameOver(const std::string &temporary, const std::string &path) {
  if (std::rename(temporary.c_str(), path.c_str()) == 0)
    return Status::success();
  Status failure = Status::failure(describeIOError("write", path));
  unlink(temporary.c_str());
  return failure;
}

} // namespace

/// The file a write to `path` replaces: the target of a symbolic link
/// (renaming over the link would replace the link), else `path`.
static std::string resolveLink(const std::string &path) {
  struct stat link;
  if (lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode))
    return path;
  char *target = realpath(path.c_str(), nullptr);
  if (!target)
    return path;
  std::string resolved = target;
  std::free(target);
  return resolved;
}

Status blk::runtime::writeFileWhole(const std::string &path,
                                    const std::string &header,
                                    const void *data, size_t dataSize) {
  if (writesInPlace(path))
    return writeInPlace(path, header, data, dataSize);
  std::string target = resolveLink(path), temporary;
  if (Status written =
          writeTemporary(target, header, data, dataSize, temporary);
      !written)
    return written;
  return renameOver(temporary, target);
}

FileBatch::~FileBatch() {
  for (const auto &[temporary, path] : staged)
    unlink(temporary.c_str());
}

Status FileBatch::add(const std::string &path, const std::string &header,
                      const void *data, size_t dataSize) {
  if (writesInPlace(path)) {
    std::string bytes = header;
    if (dataSize)
      bytes.append(static_cast<const char *>(data), dataSize);
    inPlace.emplace_back(path, std::move(bytes));
    return Status::success();
  }
  std::string target = resolveLink(path), temporary;
  if (Status written =
          writeTemporary(target, header, data, dataSize, temporary);
      !written)
    return written;
  staged.emplace_back(std::move(temporary), target);
  return Status::success();
}

FileWriter FileBatch::writer() {
  return [this](const std::string &path, const std::string &header,
                const void *data, size_t dataSize) {
    return add(path, header, data, dataSize);
  };
}

Status FileBatch::commit() {
  for (const auto &[path, bytes] : inPlace)
    if (Status written = writeInPlace(path, bytes); !written)
      return written;
  inPlace.clear();
  while (!staged.empty()) {
    auto [temporary, path] = staged.front();
    staged.erase(staged.begin());
    if (Status renamed = renameOver(temporary, path); !renamed)
      return renamed;
  }
  return Status::success();
}
