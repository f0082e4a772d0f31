//===- Files.cpp - files written whole or not at all ----------------------===//
#include "blk/Runtime/Files.h"

#include <cerrno>
#include <cstdio>
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

Status blk::runtime::writeFileWhole(const std::string &path,
                                    const std::string &header,
                                    const void *data, size_t dataSize) {
  if (path == "-")
    return writeInPlace(stdout, "-", header, data, dataSize);
  struct stat existing;
  if (stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    std::FILE *file = std::fopen(path.c_str(), "wb");
    if (!file)
      return Status::failure(describeIOError("write", path));
    return writeInPlace(file, path, header, data, dataSize);
  }
  std::string temporary = path + ".tmp-XXXXXX";
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
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    Status failure = Status::failure(describeIOError("write", path));
    unlink(temporary.c_str());
    return failure;
  }
  return Status::success();
}
