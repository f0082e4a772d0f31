//===- Status.h - success or a one-line error message -----------*- C++ -*-===//
//
// The runtime builds with -fno-exceptions, so every operation that can fail
// returns a Status: either success, or failure with a human-readable message
// that names what failed, on one line (only a PTX JIT failure appends the
// JIT log on further lines). Callers test `ok()` (or the bool conversion)
// and print `message()`. Nothing in the runtime aborts or throws.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_STATUS_H
#define BLK_RUNTIME_STATUS_H

#include <string>
#include <utility>

namespace blk::runtime {

class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  static Status failure(std::string message) {
    return Status(std::move(message));
  }

  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }
  /// Empty on success.
  const std::string &message() const { return errorMessage; }

private:
  Status() = default;
  explicit Status(std::string message)
      : failed(true), errorMessage(std::move(message)) {}

  bool failed = false;
  std::string errorMessage;
};

} // namespace blk::runtime

#endif // BLK_RUNTIME_STATUS_H
