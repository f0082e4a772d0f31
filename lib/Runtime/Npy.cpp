//===- Npy.cpp - read and write NumPy .npy files --------------------------===//
//
// Layout (numpy/lib/format.py): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (uint16 LE in 1.0, uint32 LE in 2.0 and
// 3.0), then the header: a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and ended by '\n', then the raw array data.
//
//===----------------------------------------------------------------------===//
#include "blk/Runtime/Npy.h"
#include "blk/Runtime/Files.h"

#include "blk/Runtime/Numerics.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>

namespace blk::runtime {

namespace {

constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr size_t kMagicSize = sizeof(kMagic);
// Magic, two version bytes, and the header length field.
constexpr size_t kPreambleSizeV1 = kMagicSize + 2 + 2;
constexpr size_t kPreambleSizeV2 = kMagicSize + 2 + 4;
// numpy aligns the data to 64 bytes so it can be memory-mapped efficiently.
constexpr size_t kDataAlignment = 64;
// The longest header read (a version 1.0 header's most): numpy writes a
// few dozen bytes, and refuses past 10000 by default when it reads.
constexpr size_t kMaxHeaderBytes = 65535;

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<size_t> shape;
};

/// Recursive-descent parser for the header's dict literal: string keys,
/// values that are strings, True/False, or tuples of integers.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  Status parse(NpyHeader &header) {
    bool sawDescr = false, sawFortranOrder = false, sawShape = false;
    if (Status status = expect('{', "'{' opening the dict"); !status)
      return status;
    while (!consume('}')) {
      std::string key;
      if (Status status = parseString(key); !status)
        return status;
      if (Status status = expect(':', "':' after key '" + key + "'"); !status)
        return status;
      Status valueStatus = Status::success();
      if (key == "descr") {
        valueStatus = parseDescr(header.descr);
        sawDescr = true;
      } else if (key == "fortran_order") {
        valueStatus = parseBool(header.fortranOrder);
        sawFortranOrder = true;
      } else if (key == "shape") {
        valueStatus = parseShape(header.shape);
        sawShape = true;
      } else {
        return failure("unexpected key '" + key + "'");
      }
      if (!valueStatus)
        return valueStatus;
      if (!consume(',') && !peekIs('}'))
        return failure("expected ',' or '}' after the value of '" + key + "'");
    }
    if (!sawDescr)
      return missingKey("descr");
    if (!sawFortranOrder)
      return missingKey("fortran_order");
    if (!sawShape)
      return missingKey("shape");
    return Status::success();
  }

private:
  Status failure(const std::string &what) const {
    return Status::failure("malformed header: " + what + " at offset " +
                           std::to_string(position) + " of " + quotedText());
  }

  Status missingKey(const char *key) const {
    return Status::failure(std::string("malformed header: missing key '") +
                           key + "' in " + quotedText());
  }

  std::string quotedText() const {
    // The header's padding and final '\n' would break the one-line message.
    size_t shownLength = text.find_last_not_of(" \n") + 1;
    return "\"" + text.substr(0, shownLength) + "\"";
  }

  void skipSpaces() {
    while (position < text.size() &&
           (text[position] == ' ' || text[position] == '\n'))
      ++position;
  }

  bool peekIs(char expected) {
    skipSpaces();
    return position < text.size() && text[position] == expected;
  }

  bool consume(char expected) {
    if (!peekIs(expected))
      return false;
    ++position;
    return true;
  }

  Status expect(char expected, const std::string &what) {
    return consume(expected) ? Status::success() : failure("expected " + what);
  }

  Status parseString(std::string &value) {
    skipSpaces();
    if (position >= text.size() ||
        (text[position] != '\'' && text[position] != '"'))
      return failure("expected a quoted string");
    char quote = text[position++];
    size_t end = text.find(quote, position);
    if (end == std::string::npos)
      return failure("unterminated string");
    value = text.substr(position, end - position);
    position = end + 1;
    return Status::success();
  }

  Status parseDescr(std::string &descr) {
    // A list here describes a structured (record) dtype.
    if (peekIs('['))
      return Status::failure("unsupported dtype: structured dtypes are not "
                             "supported (only '<f4' and '<f2')");
    return parseString(descr);
  }

  Status parseBool(bool &value) {
    skipSpaces();
    for (bool candidate : {true, false}) {
      const char *word = candidate ? "True" : "False";
      if (text.compare(position, std::strlen(word), word) == 0) {
        position += std::strlen(word);
        value = candidate;
        return Status::success();
      }
    }
    return failure("expected True or False");
  }

  Status parseDimension(size_t &dimension) {
    skipSpaces();
    size_t start = position;
    dimension = 0;
    while (position < text.size() && text[position] >= '0' &&
           text[position] <= '9') {
      size_t digit = static_cast<size_t>(text[position] - '0');
      if (dimension > (SIZE_MAX - digit) / 10)
        return failure("dimension too large");
      dimension = dimension * 10 + digit;
      ++position;
    }
    if (position == start)
      return failure("expected a non-negative integer dimension");
    // Python 2 era files may write long integers as "3L".
    if (position < text.size() && text[position] == 'L')
      ++position;
    return Status::success();
  }

  Status parseShape(std::vector<size_t> &shape) {
    shape.clear();
    if (Status status = expect('(', "'(' opening the shape"); !status)
      return status;
    while (!consume(')')) {
      size_t dimension;
      if (Status status = parseDimension(dimension); !status)
        return status;
      shape.push_back(dimension);
      if (!consume(',') && !peekIs(')'))
        return failure("expected ',' or ')' in the shape");
    }
    return Status::success();
  }

  const std::string &text;
  size_t position = 0;
};

uint32_t readLittleEndian(const unsigned char *bytes, size_t count) {
  uint32_t value = 0;
  for (size_t i = 0; i < count; ++i)
    value |= static_cast<uint32_t>(bytes[i]) << (8 * i);
  return value;
}

std::string shapeToString(const std::vector<size_t> &shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// How much of a file's preamble and header its first bytes hold.
enum class HeaderExtent {
  /// The bytes end before the header does.
  partial,
  /// The whole header is there.
  whole,
  /// The bytes already show the file is no .npy file this reader takes.
  refused,
};

/// Splits a file into its header text and the data after it; `extent`
/// says whether more bytes of the file could help.
Status splitFile(const unsigned char *bytes, size_t size,
                 std::string &headerText, size_t &dataOffset,
                 HeaderExtent &extent) {
  extent = HeaderExtent::refused;
  if (std::memcmp(bytes, kMagic, std::min(size, kMagicSize)) != 0)
    return Status::failure(
        "not a .npy file: bad magic (expected \"\\x93NUMPY\")");
  extent = HeaderExtent::partial;
  if (size < kMagicSize)
    return Status::failure(
        size ? "not a .npy file: it ends inside the magic \"\\x93NUMPY\""
             : "not a .npy file: it is empty");
  if (size < kMagicSize + 2)
    return Status::failure("malformed header: file ends inside the version");
  extent = HeaderExtent::refused;
  unsigned major = bytes[kMagicSize], minor = bytes[kMagicSize + 1];
  if (major < 1 || major > 3 || minor != 0)
    return Status::failure("unsupported .npy version " + std::to_string(major) +
                           "." + std::to_string(minor) +
                           " (supported: 1.0, 2.0, 3.0)");
  size_t preambleSize = major == 1 ? kPreambleSizeV1 : kPreambleSizeV2;
  extent = HeaderExtent::partial;
  if (size < preambleSize)
    return Status::failure(
        "malformed header: file ends inside the header length");
  size_t headerLength =
      readLittleEndian(bytes + kMagicSize + 2, preambleSize - kMagicSize - 2);
  extent = HeaderExtent::refused;
  if (headerLength > kMaxHeaderBytes)
    return Status::failure("malformed header: a header of " +
                           std::to_string(headerLength) +
                           " bytes, past the " +
                           std::to_string(kMaxHeaderBytes) + " this reader takes");
  extent = HeaderExtent::partial;
  if (size - preambleSize < headerLength)
    return Status::failure("malformed header: the header length is " +
                           std::to_string(headerLength) + " bytes but only " +
                           std::to_string(size - preambleSize) +
                           " follow the preamble");
  headerText.assign(reinterpret_cast<const char *>(bytes) + preambleSize,
                    headerLength);
  dataOffset = preambleSize + headerLength;
  extent = HeaderExtent::whole;
  return Status::success();
}

/// Checks the parsed header against what this reader supports and fills in
/// everything of `array` but the values.
Status interpretHeader(const NpyHeader &header, NpyArray &array) {
  bool known = false;
  for (NpyDtype dtype : {NpyDtype::Float32, NpyDtype::Float16, NpyDtype::Int32,
                         NpyDtype::Int64})
    if (header.descr == npyDescr(dtype)) {
      array.storedDtype = dtype;
      known = true;
    }
  if (!known)
    return Status::failure("unsupported dtype '" + header.descr +
                           "' (supported: '<f4' float32, '<f2' float16, '<i4' "
                           "int32, '<i8' int64)");
  if (header.fortranOrder)
    return Status::failure(
        "fortran_order is True: only C-order arrays are supported");
  if (header.shape.empty() || header.shape.size() > 4)
    return Status::failure("wrong number of dimensions: expected 1 to 4, "
                           "got " +
                           std::to_string(header.shape.size()) + " (shape " +
                           shapeToString(header.shape) + ")");
  // Rows: every dimension but the last (a batch's instances one after
  // another); a 1-D array is one row.
  array.rows = 1;
  for (size_t d = 0; d + 1 < header.shape.size(); ++d)
    if (__builtin_mul_overflow(array.rows, header.shape[d], &array.rows))
      return Status::failure("shape " + shapeToString(header.shape) +
                             " is too large to address");
  array.cols = header.shape.back();
  array.shape = header.shape;
  array.fileDimensions = static_cast<unsigned>(header.shape.size());
  return Status::success();
}

size_t storedElementSize(NpyDtype dtype) {
  switch (dtype) {
  case NpyDtype::Float16:
    return 2;
  case NpyDtype::Float32:
  case NpyDtype::Int32:
    return 4;
  case NpyDtype::Int64:
    return 8;
  }
  return 4;
}

/// Integer element `index`, widened to int64.
int64_t loadInteger(const unsigned char *data, NpyDtype dtype, size_t index) {
  if (dtype == NpyDtype::Int32) {
    int32_t value;
    std::memcpy(&value, data + index * 4, 4);
    return value;
  }
  int64_t value;
  std::memcpy(&value, data + index * 8, 8);
  return value;
}

Status decodeValues(const unsigned char *data, NpyArray &array) {
  size_t count = array.rows * array.cols;
  array.values.resize(count);
  // The file is little-endian, as is every host this runtime targets.
  if (array.storedDtype == NpyDtype::Int32 ||
      array.storedDtype == NpyDtype::Int64) {
    for (size_t i = 0; i < count; ++i) {
      int64_t value = loadInteger(data, array.storedDtype, i);
      if (value > (int64_t(1) << 24) || value < -(int64_t(1) << 24))
        return Status::failure("element " + std::to_string(i) + " (" +
                               std::to_string(value) +
                               ") is beyond 2^24, which float32 does not "
                               "hold exactly");
      array.values[i] = float(value);
    }
    return Status::success();
  }
  ElementType type = array.storedDtype == NpyDtype::Float32 ? ElementType::F32
                                                            : ElementType::F16;
  for (size_t i = 0; i < count; ++i)
    array.values[i] = loadAsFloat(data, type, i);
  return Status::success();
}

/// The preamble and header of a version 1.0 file, padded so that the data
/// starts on a kDataAlignment boundary.
std::string encodeHeader(NpyDtype dtype, size_t rows, size_t cols,
                         unsigned dimensions = 2,
                         const std::vector<size_t> &leading = {}) {
  std::string shape = dimensions == 1 ? std::to_string(cols) + ","
                                      : std::to_string(rows) + ", " +
                                            std::to_string(cols);
  if (!leading.empty()) {
    shape.clear();
    for (size_t dimension : leading)
      shape += std::to_string(dimension) + ", ";
    shape += std::to_string(cols);
  }
  std::string dict = std::string("{'descr': '") + npyDescr(dtype) +
                     "', 'fortran_order': False, 'shape': (" + shape + "), }";
  size_t unpadded = kPreambleSizeV1 + dict.size() + 1; // +1 for '\n'
  size_t padding =
      (kDataAlignment - unpadded % kDataAlignment) % kDataAlignment;
  std::string headerText = dict + std::string(padding, ' ') + "\n";
  std::string file(reinterpret_cast<const char *>(kMagic), kMagicSize);
  file += '\x01';
  file += '\x00';
  file += static_cast<char>(headerText.size() & 0xff);
  file += static_cast<char>(headerText.size() >> 8);
  return file + headerText;
}

} // namespace

const char *npyDescr(NpyDtype dtype) {
  switch (dtype) {
  case NpyDtype::Float32:
    return "<f4";
  case NpyDtype::Float16:
    return "<f2";
  case NpyDtype::Int32:
    return "<i4";
  case NpyDtype::Int64:
    return "<i8";
  }
  return "<f4";
}

namespace {

/// The header of a file and where its data starts and ends, from the
/// file's first `size` bytes.
Status parseHeader(const unsigned char *bytes, size_t size, NpyArray &array,
                   NpyHeader &header, size_t &dataOffset,
                   size_t &expectedBytes) {
  std::string headerText;
  HeaderExtent extent;
  if (Status status = splitFile(bytes, size, headerText, dataOffset, extent);
      !status)
    return status;
  if (Status status = HeaderParser(headerText).parse(header); !status)
    return status;
  if (Status status = interpretHeader(header, array); !status)
    return status;
  size_t elementSize = storedElementSize(array.storedDtype);
  if (__builtin_mul_overflow(array.rows, array.cols, &expectedBytes) ||
      __builtin_mul_overflow(expectedBytes, elementSize, &expectedBytes))
    return Status::failure("shape " + shapeToString(header.shape) +
                           " is too large to address");
  return Status::success();
}

/// Whether the first `size` bytes of a file hold its header, or enough to
/// know the file is bad (a bad magic or version, a header past
/// kMaxHeaderBytes).
bool holdsHeader(const unsigned char *bytes, size_t size) {
  std::string headerText;
  size_t dataOffset;
  HeaderExtent extent;
  (void)splitFile(bytes, size, headerText, dataOffset, extent);
  return extent != HeaderExtent::partial;
}

/// Whether the first `size` bytes of a file are all parseNpy needs: the
/// header and the data it announces, or enough to know the file is bad. A
/// reader stops there, so that /dev/zero or a file growing without end is
/// not read to its end.
bool holdsWholeArray(const unsigned char *bytes, size_t size) {
  if (!holdsHeader(bytes, size))
    return false;
  NpyArray array;
  NpyHeader header;
  size_t dataOffset, expectedBytes;
  if (!parseHeader(bytes, size, array, header, dataOffset, expectedBytes))
    return true; // parseNpy reports the bad file
  return size - dataOffset >= expectedBytes;
}

/// The first bytes of `path`, read in chunks of `chunkBytes` until
/// `enough` says they suffice or the file ends.
Status readPrefix(const std::string &path, size_t chunkBytes,
                  bool (*enough)(const unsigned char *, size_t),
                  std::vector<unsigned char> &bytes) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return Status::failure(describeIOError("open", path));
  std::vector<unsigned char> chunk(chunkBytes);
  size_t count;
  while (!enough(bytes.data(), bytes.size()) &&
         (count = std::fread(chunk.data(), 1, chunk.size(), file)) > 0)
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + count);
  bool readFailed = std::ferror(file) != 0;
  std::fclose(file);
  if (readFailed)
    return Status::failure(describeIOError("read", path));
  return Status::success();
}

} // namespace

Status parseNpy(const unsigned char *bytes, size_t size, NpyArray &array) {
  NpyHeader header;
  size_t dataOffset, expectedBytes;
  if (Status status =
          parseHeader(bytes, size, array, header, dataOffset, expectedBytes);
      !status)
    return status;
  size_t actualBytes = size - dataOffset;
  if (actualBytes < expectedBytes)
    return Status::failure("data is shorter than the header says: shape " +
                           shapeToString(header.shape) + " of " + header.descr +
                           " needs " + std::to_string(expectedBytes) +
                           " bytes, the file has " +
                           std::to_string(actualBytes));
  return decodeValues(bytes + dataOffset, array);
}

Status readNpy(const std::string &path, NpyArray &array) {
  std::vector<unsigned char> bytes;
  if (Status status = readPrefix(path, 1 << 16, holdsWholeArray, bytes);
      !status)
    return status;
  Status status = parseNpy(bytes.data(), bytes.size(), array);
  if (!status)
    return Status::failure(path + ": " + status.message());
  return status;
}

Status readNpyHeader(const std::string &path, NpyArray &array) {
  array.values.clear();
  std::vector<unsigned char> bytes;
  if (Status status = readPrefix(path, 4096, holdsHeader, bytes); !status)
    return status;
  NpyHeader header;
  size_t dataOffset, expectedBytes;
  if (Status status = parseHeader(bytes.data(), bytes.size(), array, header,
                                  dataOffset, expectedBytes);
      !status)
    return Status::failure(path + ": " + status.message());
  return Status::success();
}

/// A 1-D file holds one row; leading dimensions multiply to the rows.
static Status checkDimensions(const std::string &path, size_t rows,
                              unsigned dimensions,
                              const std::vector<size_t> &leading) {
  if (dimensions == 1 && rows != 1)
    return Status::failure("cannot write " + std::to_string(rows) +
                           " rows as a 1-D array to '" + path + "'");
  size_t product = 1;
  for (size_t dimension : leading)
    product *= dimension;
  if (!leading.empty() && product != rows)
    return Status::failure("cannot write " + std::to_string(rows) +
                           " rows with leading dimensions of " +
                           std::to_string(product) + " elements to '" + path +
                           "'");
  return Status::success();
}

Status writeNpy(const std::string &path, size_t rows, size_t cols,
                const float *values, NpyDtype storedDtype,
                unsigned dimensions, const std::vector<size_t> &leading,
                const FileWriter &write) {
  if (Status status = checkDimensions(path, rows, dimensions, leading);
      !status)
    return status;
  if (storedDtype != NpyDtype::Float32 && storedDtype != NpyDtype::Float16)
    return Status::failure("writes float32 or float16 arrays only, not '" +
                           std::string(npyDescr(storedDtype)) + "'");
  size_t count = rows * cols;
  std::string header =
      encodeHeader(storedDtype, rows, cols, dimensions, leading);
  if (storedDtype == NpyDtype::Float32)
    return write(path, header, values, count * sizeof(float));
  std::vector<uint16_t> bits(count);
  for (size_t i = 0; i < count; ++i)
    bits[i] = floatToHalfBits(values[i]);
  return write(path, header, bits.data(), count * sizeof(uint16_t));
}

Status writeNpyIntegers(const std::string &path, size_t rows, size_t cols,
                        const int64_t *values, NpyDtype storedDtype,
                        unsigned dimensions, const std::vector<size_t> &leading,
                        const FileWriter &write) {
  if (Status status = checkDimensions(path, rows, dimensions, leading);
      !status)
    return status;
  if (storedDtype != NpyDtype::Int32 && storedDtype != NpyDtype::Int64)
    return Status::failure("writes int32 or int64 integers only, not '" +
                           std::string(npyDescr(storedDtype)) + "'");
  size_t count = rows * cols;
  std::string header =
      encodeHeader(storedDtype, rows, cols, dimensions, leading);
  if (storedDtype == NpyDtype::Int64)
    return write(path, header, values, count * sizeof(int64_t));
  std::vector<int32_t> narrow(count);
  for (size_t i = 0; i < count; ++i) {
    if (values[i] < INT32_MIN || values[i] > INT32_MAX)
      return Status::failure("element " + std::to_string(i) + " (" +
                             std::to_string(values[i]) +
                             ") does not fit the int32 file '" + path + "'");
    narrow[i] = int32_t(values[i]);
  }
  return write(path, header, narrow.data(), count * sizeof(int32_t));
}

Status writeNpyFloat16Bits(const std::string &path, size_t rows, size_t cols,
                           const uint16_t *bits) {
  return writeFileWhole(path, encodeHeader(NpyDtype::Float16, rows, cols), bits,
                   rows * cols * sizeof(uint16_t));
}

} // namespace blk::runtime
