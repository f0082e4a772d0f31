//===- Program.cpp - compiled programs and their byte form ----------------===//
//
// The byte form is a header line, then fields in a fixed order: integers
// in decimal, strings as "<length>:<bytes>", each followed by one space.
// Lengths let PTX, object code and any tensor name pass unescaped; the
// reader checks every length against what is left, so a truncated file is
// an error.
//
//===----------------------------------------------------------------------===//
#include "blk/Runtime/Program.h"
#include "blk/Target/ChipFacts.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

using namespace blk::runtime;
namespace chip = blk::chip;

static const char kImageHeader[] = "blk-program-image 6\n";

bool blk::runtime::isTensorRole(ArgRole role) {
  return role == ArgRole::input || role == ArgRole::output ||
         role == ArgRole::scratch;
}

std::vector<KernelArgument> blk::runtime::getTensorArguments(
    const std::vector<KernelSignature> &signatures) {
  std::vector<KernelArgument> tensors;
  for (const KernelSignature &signature : signatures)
    for (const KernelArgument &argument : signature.arguments)
      if (isTensorRole(argument.role) &&
          std::none_of(tensors.begin(), tensors.end(),
                       [&](const KernelArgument &seen) {
                         return seen.name == argument.name;
                       }))
        tensors.push_back(argument);
  return tensors;
}

bool blk::runtime::hasRowStride(ArgExtent extent) {
  return extent != ArgExtent::per_row && extent != ArgExtent::per_col;
}

TensorExtent ProgramShape::getExtent(ArgExtent extent) const {
  switch (extent) {
  case ArgExtent::matrix:
    return {rows, cols};
  case ArgExtent::per_row:
    return {rows, 1};
  case ArgExtent::per_col:
    return {1, cols};
  case ArgExtent::rows_by_inner:
    return {rows, inner};
  case ArgExtent::inner_by_cols:
    return {inner, cols};
  }
  return {};
}

/// The stride named `tensor` in `strides`, if one is.
static const int64_t *
findStride(const std::vector<std::pair<std::string, int64_t>> &strides,
           const std::string &tensor) {
  for (const auto &[name, stride] : strides)
    if (name == tensor)
      return &stride;
  return nullptr;
}

int64_t ProgramShape::getRowStride(const KernelArgument &tensor) const {
  const int64_t *stride = findStride(rowStrides, tensor.name);
  return stride ? *stride : getExtent(tensor.extent).cols;
}

int64_t ProgramShape::getInstanceSpan(const KernelArgument &tensor) const {
  TensorExtent extent = getExtent(tensor.extent);
  return hasRowStride(tensor.extent) ? extent.rows * getRowStride(tensor)
                                     : extent.rows * extent.cols;
}

int64_t ProgramShape::getHeadStride(const KernelArgument &tensor) const {
  const int64_t *stride = findStride(headStrides, tensor.name);
  return stride ? *stride : getInstanceSpan(tensor);
}

int64_t ProgramShape::getBatchStride(const KernelArgument &tensor) const {
  const int64_t *stride = findStride(batchStrides, tensor.name);
  return stride ? *stride : heads * getHeadStride(tensor);
}

int64_t ProgramImage::getGrid(int64_t rows) const {
  int64_t grid = 0;
  // INT64_MAX, past every grid a launch can have, where it overflows.
  if (__builtin_mul_overflow(rows / rowsPerProgram +
                                 (rows % rowsPerProgram != 0),
                             rowParts, &grid))
    return INT64_MAX;
  return grid;
}

namespace {

class Writer {
public:
  void integer(int64_t value) { bytes += std::to_string(value) + " "; }
  void string(const std::string &value) {
    bytes += std::to_string(value.size()) + ":" + value + " ";
  }
  std::string bytes = kImageHeader;
};

class Reader {
public:
  explicit Reader(const std::string &bytes) : bytes(bytes) {}

  bool header() {
    position = sizeof(kImageHeader) - 1;
    return bytes.compare(0, position, kImageHeader) == 0;
  }
  /// Only what Writer writes: "-?[0-9]+", canonical (no "+", no spaces,
  /// no leading zeros), so that one value has one byte form.
  bool integer(int64_t &value) {
    size_t end = bytes.find(' ', position);
    if (end == std::string::npos || end == position || end - position > 20)
      return false;
    std::string text = bytes.substr(position, end - position);
    char *parsedEnd = nullptr;
    errno = 0;
    long long parsed = std::strtoll(text.c_str(), &parsedEnd, 10);
    if (errno || *parsedEnd || std::to_string(parsed) != text)
      return false;
    value = parsed;
    position = end + 1;
    return true;
  }
  /// An integer in [low, high].
  bool bounded(int64_t low, int64_t high, int64_t &value) {
    return integer(value) && value >= low && value <= high;
  }
  template <typename Enum> bool enumeration(Enum last, Enum &value) {
    int64_t raw = 0;
    if (!bounded(0, static_cast<int64_t>(last), raw))
      return false;
    value = static_cast<Enum>(raw);
    return true;
  }
  bool string(std::string &value) {
    size_t colon = bytes.find(':', position);
    if (colon == std::string::npos || colon == position ||
        colon - position > 20)
      return false;
    std::string text = bytes.substr(position, colon - position);
    char *parsedEnd = nullptr;
    errno = 0;
    unsigned long long length = std::strtoull(text.c_str(), &parsedEnd, 10);
    if (errno || *parsedEnd || std::to_string(length) != text ||
        length >= bytes.size() - colon || bytes[colon + 1 + length] != ' ')
      return false;
    value = bytes.substr(colon + 1, length);
    position = colon + 2 + length;
    return true;
  }
  /// A count of items still to read, each at least two bytes long.
  bool count(int64_t &value) {
    return bounded(0, static_cast<int64_t>(bytes.size() - position) / 2,
                   value);
  }
  bool atEnd() const { return position == bytes.size(); }

private:
  const std::string &bytes;
  size_t position = 0;
};

bool readImage(Reader &in, ProgramImage &image) {
  int64_t count = 0;
  if (!in.header() || !in.string(image.target) ||
      !in.bounded(1, INT64_MAX, image.shapes.maxRows) ||
      !in.bounded(1, INT64_MAX, image.shapes.cols) ||
      !in.bounded(0, INT64_MAX, image.shapes.inner) ||
      !in.enumeration(ElementType::BF16, image.shapes.elementType) ||
      !in.count(count))
    return false;
  for (int64_t i = 0; i < count; ++i) {
    std::pair<std::string, int64_t> stride;
    if (!in.string(stride.first) || !in.bounded(1, INT64_MAX, stride.second))
      return false;
    image.shapes.rowStrides.push_back(std::move(stride));
  }
  if (!in.string(image.binding) ||
      !in.bounded(1, chip::kMaxThreadsPerCta, image.rowsPerProgram) ||
      !in.bounded(1, INT32_MAX, image.rowParts) || !in.count(count))
    return false;
  for (int64_t k = 0; k < count; ++k) {
    KernelSignature signature;
    int64_t arguments = 0;
    if (!in.string(signature.name) || !in.count(arguments))
      return false;
    for (int64_t a = 0; a < arguments; ++a) {
      KernelArgument argument;
      if (!in.enumeration(ArgRole::tensor_map, argument.role) ||
          !in.string(argument.name) ||
          !in.enumeration(ArgExtent::inner_by_cols, argument.extent) ||
          !in.string(argument.type) || !in.bounded(1, 16, argument.bytes) ||
          !in.bounded(1, INT64_MAX, argument.divisibility))
        return false;
      signature.arguments.push_back(std::move(argument));
    }
    image.signatures.push_back(std::move(signature));
  }
  if (!in.count(count))
    return false;
  for (int64_t k = 0; k < count; ++k) {
    KernelLaunch launch;
    int64_t nonPortable = 0, optIn = 0, maps = 0;
    if (!in.bounded(1, chip::kMaxThreadsPerCta, launch.threads) ||
        !in.bounded(1, chip::kMaxClusterCtas, launch.ctas) ||
        !in.bounded(0, INT32_MAX, launch.staticSharedBytes) ||
        !in.bounded(0, INT32_MAX, launch.dynamicSharedBytes) ||
        !in.enumeration(GridKind::persistent, launch.grid) ||
        !in.bounded(0, 1, nonPortable) || !in.bounded(0, 1, optIn) ||
        !in.bounded(0, INT32_MAX, launch.residentPrograms) ||
        !in.count(maps))
      return false;
    for (int64_t m = 0; m < maps; ++m) {
      TensorMapParam map;
      if (!in.string(map.tensor) || !in.bounded(1, 256, map.boxRows) ||
          !in.bounded(1, 256, map.boxCols) ||
          !in.bounded(0, 8, map.rotationFirst) ||
          !in.bounded(0, 8, map.rotationBits))
        return false;
      launch.tensorMaps.push_back(std::move(map));
    }
    launch.nonPortableCluster = nonPortable;
    launch.sharedMemoryOptIn = optIn;
    image.launches.push_back(launch);
  }
  if (!in.string(image.ptx) || !in.string(image.object) || !in.count(count))
    return false;
  for (int64_t i = 0; i < count; ++i) {
    std::string name;
    if (!in.string(name))
      return false;
    image.accessNames.push_back(std::move(name));
  }
  return in.atEnd() && !image.signatures.empty() &&
         (!image.isGPU() ||
          image.launches.size() == image.signatures.size());
}

} // namespace

std::string ProgramImage::serialize() const {
  Writer out;
  out.string(target);
  out.integer(shapes.maxRows);
  out.integer(shapes.cols);
  out.integer(shapes.inner);
  out.integer(static_cast<int64_t>(shapes.elementType));
  out.integer(static_cast<int64_t>(shapes.rowStrides.size()));
  for (const auto &[name, stride] : shapes.rowStrides) {
    out.string(name);
    out.integer(stride);
  }
  out.string(binding);
  out.integer(rowsPerProgram);
  out.integer(rowParts);
  out.integer(static_cast<int64_t>(signatures.size()));
  for (const KernelSignature &signature : signatures) {
    out.string(signature.name);
    out.integer(static_cast<int64_t>(signature.arguments.size()));
    for (const KernelArgument &argument : signature.arguments) {
      out.integer(static_cast<int64_t>(argument.role));
      out.string(argument.name);
      out.integer(static_cast<int64_t>(argument.extent));
      out.string(argument.type);
      out.integer(argument.bytes);
      out.integer(argument.divisibility);
    }
  }
  out.integer(static_cast<int64_t>(launches.size()));
  for (const KernelLaunch &launch : launches) {
    out.integer(launch.threads);
    out.integer(launch.ctas);
    out.integer(launch.staticSharedBytes);
    out.integer(launch.dynamicSharedBytes);
    out.integer(static_cast<int64_t>(launch.grid));
    out.integer(launch.nonPortableCluster);
    out.integer(launch.sharedMemoryOptIn);
    out.integer(launch.residentPrograms);
    out.integer(static_cast<int64_t>(launch.tensorMaps.size()));
    for (const TensorMapParam &map : launch.tensorMaps) {
      out.string(map.tensor);
      out.integer(map.boxRows);
      out.integer(map.boxCols);
      out.integer(map.rotationFirst);
      out.integer(map.rotationBits);
    }
  }
  out.string(ptx);
  out.string(object);
  out.integer(static_cast<int64_t>(accessNames.size()));
  for (const std::string &name : accessNames)
    out.string(name);
  return std::move(out.bytes);
}

Status ProgramImage::deserialize(const std::string &bytes,
                                 ProgramImage &image) {
  ProgramImage read;
  Reader in(bytes);
  if (!readImage(in, read))
    return Status::failure("not a compiled program (malformed or truncated)");
  image = std::move(read);
  return Status::success();
}
