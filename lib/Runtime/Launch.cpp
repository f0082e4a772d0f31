//===- Launch.cpp - binding a launch's arguments --------------------------===//
#include "blk/Runtime/Launch.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace blk::runtime;

template <typename Value>
static void setNamed(std::vector<std::pair<std::string, Value>> &entries,
                     const std::string &name, Value value) {
  for (auto &entry : entries)
    if (entry.first == name) {
      entry.second = std::move(value);
      return;
    }
  entries.emplace_back(name, std::move(value));
}

template <typename Value>
static const Value *
findNamed(const std::vector<std::pair<std::string, Value>> &entries,
          const std::string &name) {
  for (const auto &entry : entries)
    if (entry.first == name)
      return &entry.second;
  return nullptr;
}

LaunchArguments &LaunchArguments::tensor(const std::string &name,
                                         uint64_t address) {
  setNamed(tensors, name, address);
  return *this;
}

LaunchArguments &LaunchArguments::rowStride(const std::string &name,
                                            int64_t elements) {
  setNamed(shape.rowStrides, name, elements);
  return *this;
}

LaunchArguments &LaunchArguments::instances(int64_t batch, int64_t heads) {
  shape.batch = batch;
  shape.heads = heads;
  return *this;
}

LaunchArguments &LaunchArguments::batchStride(const std::string &name,
                                              int64_t elements) {
  setNamed(shape.batchStrides, name, elements);
  return *this;
}

LaunchArguments &LaunchArguments::headStride(const std::string &name,
                                             int64_t elements) {
  setNamed(shape.headStrides, name, elements);
  return *this;
}

LaunchArguments &LaunchArguments::param(const std::string &name,
                                        std::string value) {
  setNamed(params, name, std::move(value));
  return *this;
}

LaunchArguments &LaunchArguments::param(const std::string &name,
                                        double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return param(name, std::string(text));
}

uint64_t LaunchArguments::getTensor(const std::string &name) const {
  const uint64_t *address = findNamed(tensors, name);
  return address ? *address : 0;
}

const std::string *LaunchArguments::getParam(const std::string &name) const {
  return findNamed(params, name);
}

static std::string describeShape(int64_t rows, int64_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

Status blk::runtime::checkShape(const ProgramImage &image,
                                const LaunchArguments &arguments) {
  const ShapeClass &shapes = image.shapes;
  if (arguments.cols() != shapes.cols)
    return Status::failure("the program was compiled for rows of " +
                           std::to_string(shapes.cols) + " elements, not " +
                           std::to_string(arguments.cols()));
  if (arguments.inner() != shapes.inner)
    return Status::failure("the program was compiled for an inner dimension "
                           "of " + std::to_string(shapes.inner) + ", not " +
                           std::to_string(arguments.inner()));
  if (arguments.batch() < 1 || arguments.heads() < 1)
    return Status::failure("a batch of " + std::to_string(arguments.batch()) +
                           " x " + std::to_string(arguments.heads()) +
                           " problems; both counts must be at least 1");
  if (arguments.rows() < 1 || arguments.rows() > shapes.maxRows)
    return Status::failure(
        "the program serves 1 to " + std::to_string(shapes.maxRows) +
        " rows, not " + std::to_string(arguments.rows()) +
        (arguments.rows() > shapes.maxRows
             ? " (its row offsets are 32-bit; a compilation for that many rows "
               "makes them 64-bit)"
             : ""));
  // Every two-dimensional tensor: a kernel that takes no stride argument
  // has the compiled one built in.
  for (const KernelSignature &signature : image.signatures)
    for (const KernelArgument &argument : signature.arguments) {
      if (argument.role != ArgRole::row_stride &&
          !(isTensorRole(argument.role) && hasRowStride(argument.extent)))
        continue;
      int64_t compiled = shapes.withRows(1).getRowStride(argument);
      int64_t given = arguments.getRowStride(argument);
      if (compiled != given)
        return Status::failure("the program was compiled for a row stride of " +
                               std::to_string(compiled) + " elements in '" +
                               argument.name + "', not " +
                               std::to_string(given));
    }
  return Status::success();
}

/// Elements from one row of `tensor` to the next: its row stride, or for a
/// vector (per_row, per_col) its length, whatever stride is named for it.
static int64_t getRowStep(const KernelArgument &tensor,
                          const ProgramShape &shape) {
  return hasRowStride(tensor.extent) ? shape.getRowStride(tensor)
                                     : shape.getExtent(tensor.extent).cols;
}

Status blk::runtime::getTensorElements(const KernelArgument &tensor,
                                       const ProgramShape &shape,
                                       int64_t &elements) {
  TensorExtent extent = shape.getExtent(tensor.extent);
  int64_t span = 0, lastBatch = 0, lastHead = 0, batchStride = 0;
  int64_t stride = getRowStep(tensor, shape);
  int64_t headStride = shape.getHeadStride(tensor);
  if (shape.batch < 1 || shape.heads < 1 || stride < 0 || headStride < 0)
    return Status::failure("tensor '" + tensor.name + "': a batch of " +
                           std::to_string(shape.batch) + " x " +
                           std::to_string(shape.heads) +
                           " problems, or a negative stride: a batch has "
                           "at least 1 x 1 problems and strides of 0 or more");
  // The dense batch stride, heads x the head stride, checked before use.
  bool named = std::any_of(
      shape.batchStrides.begin(), shape.batchStrides.end(),
      [&](const auto &entry) { return entry.first == tensor.name; });
  if (named)
    batchStride = shape.getBatchStride(tensor);
  if (batchStride < 0 ||
      (!named &&
       __builtin_mul_overflow(shape.heads, headStride, &batchStride)) ||
      __builtin_mul_overflow(extent.rows, stride, &span) ||
      __builtin_mul_overflow(shape.batch - 1, batchStride, &lastBatch) ||
      __builtin_mul_overflow(shape.heads - 1, headStride, &lastHead) ||
      __builtin_add_overflow(lastBatch, lastHead, &elements) ||
      __builtin_add_overflow(elements, span, &elements))
    return Status::failure("tensor '" + tensor.name + "' of " +
                           std::to_string(shape.batch) + " x " +
                           std::to_string(shape.heads) + " x " +
                           describeShape(extent.rows, stride) +
                           " elements overflows 64 bits");
  return Status::success();
}

Status blk::runtime::getTensorBytes(const KernelArgument &tensor,
                                    const ProgramShape &shape, size_t &bytes) {
  int64_t elements = 0;
  if (Status status = getTensorElements(tensor, shape, elements); !status)
    return status;
  if (__builtin_mul_overflow(static_cast<size_t>(elements),
                             static_cast<size_t>(tensor.bytes), &bytes))
    return Status::failure("tensor '" + tensor.name + "' of " +
                           std::to_string(elements) +
                           " elements overflows a byte count");
  return Status::success();
}

/// "output 'y'", "input 'x'": a tensor argument, for messages.
static std::string describeTensor(const KernelArgument &tensor) {
  return std::string(tensor.role == ArgRole::output ? "output" : "input") +
         " '" + tensor.name + "'";
}

namespace {
/// The bytes a tensor argument covers on a problem, [first, end); for one
/// instance also its rows (0 for a batch: only the span is known), each
/// `rowBytes` long and `strideBytes` after the one before.
struct Footprint {
  unsigned __int128 first = 0, end = 0;
  int64_t rows = 0, rowBytes = 0, strideBytes = 0;
};
} // namespace

static Status getFootprint(const KernelArgument &tensor,
                           const ProgramShape &shape, uint64_t address,
                           Footprint &footprint) {
  size_t bytes = 0;
  if (Status status = getTensorBytes(tensor, shape, bytes); !status)
    return status;
  TensorExtent extent = shape.getExtent(tensor.extent);
  int64_t stride = getRowStep(tensor, shape);
  footprint.first = address;
  footprint.end = footprint.first + bytes;
  // getTensorBytes counts the last row's whole stride; the tensor ends
  // `cols` elements into it.
  if (bytes != 0 && stride > extent.cols)
    footprint.end -= static_cast<unsigned __int128>(stride - extent.cols) *
                     static_cast<uint64_t>(tensor.bytes);
  if (shape.getInstances() == 1) {
    footprint.rows = extent.rows;
    footprint.rowBytes = extent.cols * tensor.bytes;
    footprint.strideBytes = stride * tensor.bytes;
  }
  return Status::success();
}

/// Whether `a` and `b` share a byte.
static bool shareMemory(const Footprint &a, const Footprint &b) {
  if (a.first >= b.end || b.first >= a.end)
    return false;
  int64_t stride = a.strideBytes;
  if (a.rows == 0 || b.rows == 0 || b.strideBytes != stride ||
      stride < std::max(a.rowBytes, b.rowBytes))
    return true;
  // Row i of `a` starts d + k stride after row j of `b` (k = i - j); they
  // meet where -a.rowBytes < d + k stride < b.rowBytes. The least k past
  // the lower bound, among the pairs of rows there are, decides.
  __int128 d = static_cast<__int128>(a.first) - static_cast<__int128>(b.first);
  __int128 low = -static_cast<__int128>(a.rowBytes) - d;
  __int128 k = low / stride;
  if (low % stride != 0 && low < 0)
    --k; // floor
  k = std::max<__int128>(k + 1, -(b.rows - 1));
  return k <= a.rows - 1 && d + k * stride < b.rowBytes;
}

/// Whether the rows of `tensor` on `shape` provably never meet one another:
/// its dimensions (rows, heads, batch), taken by increasing stride, each
/// step at least as far as everything the ones before it cover (a dense
/// layout, or [B, M, H, D] with a row's heads side by side). A layout that
/// interleaves otherwise is not proven apart.
static bool rowsNest(const KernelArgument &tensor, const ProgramShape &shape) {
  TensorExtent extent = shape.getExtent(tensor.extent);
  std::array<std::pair<int64_t, int64_t>, 3> dimensions = {
      {{extent.rows, getRowStep(tensor, shape)},
       {shape.heads, shape.getHeadStride(tensor)},
       {shape.batch, shape.getBatchStride(tensor)}}};
  std::sort(dimensions.begin(), dimensions.end(),
            [](const auto &a, const auto &b) { return a.second < b.second; });
  __int128 covered = extent.cols;
  for (const auto &[count, stride] : dimensions) {
    if (count <= 1)
      continue;
    if (stride < covered)
      return false;
    covered += static_cast<__int128>(count - 1) * stride;
  }
  return true;
}

namespace {
/// A tensor checkTensorsApart has placed.
struct PlacedTensor {
  const KernelArgument *tensor;
  Footprint footprint;
};
} // namespace

/// Fails where `tensor`, at `footprint`, shares memory with one of `placed`
/// and one of the two is an output.
static Status checkApartFrom(const KernelArgument &tensor,
                             const Footprint &footprint,
                             const std::vector<PlacedTensor> &placed) {
  for (const PlacedTensor &other : placed) {
    // The output first: "output 'y' shares memory with input 'x'".
    bool outputFirst = tensor.role == ArgRole::output;
    if ((outputFirst || other.tensor->role == ArgRole::output) &&
        shareMemory(footprint, other.footprint))
      return Status::failure(
          describeTensor(outputFirst ? tensor : *other.tensor) +
          " shares memory with " +
          describeTensor(outputFirst ? *other.tensor : tensor) +
          ": compiled programs need every output apart from the inputs "
          "and the other outputs, not even in place (docs/writing-kernels.md)");
  }
  return Status::success();
}

Status blk::runtime::checkTensorsApart(const ProgramImage &image,
                                       const LaunchArguments &arguments) {
  // Run before every launch, so without copying the signatures
  // (getTensorArguments would); a tensor several kernels take is placed
  // once.
  const ProgramShape &shape = arguments.getShape();
  std::vector<PlacedTensor> placed;
  auto isPlaced = [&](const KernelArgument &tensor) {
    return std::any_of(placed.begin(), placed.end(),
                       [&](const PlacedTensor &entry) {
                         return entry.tensor->name == tensor.name;
                       });
  };
  for (const KernelSignature &signature : image.signatures)
    for (const KernelArgument &tensor : signature.arguments) {
      if ((tensor.role != ArgRole::input && tensor.role != ArgRole::output) ||
          isPlaced(tensor))
        continue;
      uint64_t address = arguments.getTensor(tensor.name);
      if (address == 0)
        continue;
      Footprint footprint;
      if (Status status =
              getFootprint(tensor, shape, address, footprint);
          !status)
        return status;
      if (footprint.first == footprint.end)
        continue; // empty: shares nothing
      // Inputs may repeat rows (a head stride of 0); an output's programs
      // would write the same memory.
      if (tensor.role == ArgRole::output && !rowsNest(tensor, shape))
        return Status::failure(
            describeTensor(tensor) + " overlaps itself: its rows (" +
            std::to_string(getRowStep(tensor, shape)) + " elements apart), " +
            std::to_string(shape.heads) + " heads (" +
            std::to_string(shape.getHeadStride(tensor)) + " apart) and " +
            std::to_string(shape.batch) + " batches (" +
            std::to_string(shape.getBatchStride(tensor)) +
            " apart) are not laid out one past another, and programs would "
            "write the same memory");
      if (Status status = checkApartFrom(tensor, footprint, placed); !status)
        return status;
      placed.push_back({&tensor, footprint});
    }
  return Status::success();
}

/// "row_stride of 'q'", "rows": an integer argument, for messages.
static std::string describeArgument(const KernelArgument &argument) {
  static const char *const roleNames[] = {
      "input",  "output", "scratch", "row_stride", "rows",         "cols",
      "param",  "inner",  "batch",   "heads",      "batch_stride", "head_stride",
      "tensor_map"};
  std::string role = roleNames[static_cast<int>(argument.role)];
  return argument.name.empty() ? role : role + " of '" + argument.name + "'";
}

/// Writes `text`, a value of the scalar type `type`, into the low bytes of
/// `slot` (little-endian).
static bool packScalar(const std::string &text, const std::string &type,
                       uint64_t &slot) {
  slot = 0;
  char *end = nullptr;
  errno = 0;
  // No leading spaces: strtoll and strtod would skip them.
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    return false;
  if (type.size() > 1 && type[0] == 'i') {
    int bits = std::atoi(type.c_str() + 1);
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
      return false;
    long long value = std::strtoll(text.c_str(), &end, 10);
    if (*end || errno)
      return false;
    if (bits < 64 && (value > (1LL << (bits - 1)) - 1 ||
                      value < -(1LL << (bits - 1))))
      return false;
    std::memcpy(&slot, &value, bits / 8);
    return true;
  }
  // "inf" and "nan" are values a caller may mean; hexadecimal, 1e400
  // (ERANGE) and a finite double that f32 cannot hold are mistakes.
  if (text.find_first_of("xX") != std::string::npos)
    return false;
  double value = std::strtod(text.c_str(), &end);
  if (*end || errno == ERANGE)
    return false;
  if (type == "f64") {
    std::memcpy(&slot, &value, 8);
    return true;
  }
  if (type != "f32")
    return false;
  float narrow = static_cast<float>(value);
  if ((std::isfinite(value) && !std::isfinite(narrow)) ||
      (value != 0 && narrow == 0))
    return false;
  std::memcpy(&slot, &narrow, 4);
  return true;
}

TensorMapLayout blk::runtime::getTensorMapLayout(const TensorMapRequest &request) {
  TensorMapLayout layout;
  uint64_t stride = static_cast<uint64_t>(request.rowStrideBytes);
  layout.dims[0] = static_cast<uint64_t>(request.cols);
  layout.dims[1] = static_cast<uint64_t>(request.rows);
  layout.strides[0] = stride;
  layout.box[0] = static_cast<uint32_t>(request.boxCols);
  layout.box[1] = static_cast<uint32_t>(request.boxRows);
  if (request.rotationBits == 0)
    return layout;
  int64_t group = int64_t(1) << request.rotationFirst;
  int64_t block = group << (request.rotationBits - 1);
  layout.rank = 4;
  layout.dims[1] = static_cast<uint64_t>(group);
  layout.dims[2] = static_cast<uint64_t>(std::max<int64_t>(1, request.rows / block));
  layout.dims[3] = static_cast<uint64_t>(block / group);
  layout.strides[1] = stride * static_cast<uint64_t>(block);
  layout.strides[2] = stride * static_cast<uint64_t>(group);
  layout.box[1] = static_cast<uint32_t>(group);
  layout.box[2] = static_cast<uint32_t>(request.boxRows / block);
  layout.box[3] = static_cast<uint32_t>(block / group);
  return layout;
}

/// The tensor map of `map` on these arguments: its matrix's address,
/// extent, row stride and element type, as the signature declares them.
static Status describeTensorMap(const KernelSignature &signature,
                                const LaunchArguments &arguments,
                                const TensorMapParam &map,
                                TensorMapRequest &request) {
  const KernelArgument *tensor = nullptr;
  for (const KernelArgument &argument : signature.arguments)
    if (isTensorRole(argument.role) && argument.name == map.tensor)
      tensor = &argument;
  if (!tensor || !hasRowStride(tensor->extent))
    return Status::failure("kernel @" + signature.name +
                           " takes a tensor map of '" + map.tensor +
                           "', which is not one of its matrices");
  if (arguments.getShape().getInstances() != 1)
    return Status::failure("kernel @" + signature.name +
                           " takes tensor maps, which describe one problem, "
                           "but the launch has a batch of them");
  TensorExtent extent = arguments.getShape().getExtent(tensor->extent);
  request.address = arguments.getTensor(map.tensor);
  request.elementType = tensor->type;
  request.rows = extent.rows;
  request.cols = extent.cols;
  int64_t stride = arguments.getRowStride(*tensor);
  if (stride > INT64_MAX / tensor->bytes)
    return Status::failure("the row stride of '" + map.tensor +
                           "' overflows a byte count");
  request.rowStrideBytes = stride * tensor->bytes;
  request.boxRows = map.boxRows;
  request.boxCols = map.boxCols;
  request.rotationFirst = map.rotationFirst;
  request.rotationBits = map.rotationBits;
  return Status::success();
}

Status blk::runtime::packArguments(const KernelSignature &signature,
                                   const LaunchArguments &arguments,
                                   PackedArguments &packed,
                                   const std::vector<TensorMapParam> &tensorMaps,
                                   const TensorMapEncoder &encoder) {
  packed.values.assign(signature.arguments.size(), 0);
  for (size_t index = 0; index < signature.arguments.size(); ++index) {
    const KernelArgument &argument = signature.arguments[index];
    uint64_t &slot = packed.values[index];
    std::string text;
    switch (argument.role) {
    case ArgRole::input:
    case ArgRole::output:
    case ArgRole::scratch:
      slot = arguments.getTensor(argument.name);
      if (!slot)
        return Status::failure("kernel @" + signature.name + " takes tensor '" +
                               argument.name + "', which was not given");
      continue;
    case ArgRole::row_stride:
      text = std::to_string(arguments.getRowStride(argument));
      break;
    case ArgRole::rows:
      text = std::to_string(arguments.rows());
      break;
    case ArgRole::cols:
      text = std::to_string(arguments.cols());
      break;
    case ArgRole::inner:
      text = std::to_string(arguments.inner());
      break;
    case ArgRole::batch:
      text = std::to_string(arguments.batch());
      break;
    case ArgRole::heads:
      text = std::to_string(arguments.heads());
      break;
    case ArgRole::batch_stride:
      text = std::to_string(arguments.getShape().getBatchStride(argument));
      break;
    case ArgRole::head_stride:
      text = std::to_string(arguments.getShape().getHeadStride(argument));
      break;
    case ArgRole::param:
      if (const std::string *value = arguments.getParam(argument.name)) {
        text = *value;
        break;
      }
      return Status::failure("kernel @" + signature.name +
                             " takes parameter '" + argument.name + "' (" +
                             argument.type + "), which was not given");
    case ArgRole::tensor_map:
      return Status::failure("kernel @" + signature.name + " argument #" +
                             std::to_string(index) +
                             " is a tensor map: the launch record lists "
                             "those, not the declared arguments");
    }
    if (!packScalar(text, argument.type, slot))
      return Status::failure("kernel @" + signature.name + " argument #" +
                             std::to_string(index) + " (" + argument.name +
                             ") is " + argument.type +
                             ", which cannot hold '" + text + "'");
    // The code was compiled on the promise (blk.divisibility).
    if (argument.divisibility > 1 &&
        std::strtoll(text.c_str(), nullptr, 10) % argument.divisibility != 0)
      return Status::failure(
          "kernel @" + signature.name + " argument #" + std::to_string(index) +
          " (" + describeArgument(argument) + ") is declared a multiple of " +
          std::to_string(argument.divisibility) + ", not " + text);
  }
  packed.tensorMaps.assign(tensorMaps.size(), TensorMapBytes());
  for (size_t m = 0; m < tensorMaps.size(); ++m) {
    if (!encoder)
      return Status::failure("kernel @" + signature.name +
                             " takes tensor maps, which only the GPU "
                             "runtime encodes");
    TensorMapRequest request;
    if (Status status =
            describeTensorMap(signature, arguments, tensorMaps[m], request);
        !status)
      return status;
    if (Status status = encoder(request, packed.tensorMaps[m]); !status)
      return Status::failure("kernel @" + signature.name +
                             ": the tensor map of '" + tensorMaps[m].tensor +
                             "': " + status.message());
  }
  packed.slots.clear();
  for (uint64_t &value : packed.values)
    packed.slots.push_back(&value);
  for (TensorMapBytes &map : packed.tensorMaps)
    packed.slots.push_back(&map);
  return Status::success();
}
