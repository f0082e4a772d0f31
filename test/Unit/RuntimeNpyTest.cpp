//===- RuntimeNpyTest.cpp - reading and writing .npy files ----------------===//
//
// blk/Runtime/Npy.h on files it wrote and on files written here byte by
// byte: format versions 1.0 to 3.0, float32 and float16, 1-D and empty
// arrays, and every way a file can be refused, each with a one-line message
// that says what is wrong.
//
//===----------------------------------------------------------------------===//
#include "blk/Runtime/Npy.h"
#include "blk/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

using namespace blk::runtime;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::string readBytes(const std::string &path) {
  std::string bytes;
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return bytes;
  char chunk[4096];
  size_t count;
  while ((count = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
    bytes.append(chunk, count);
  std::fclose(file);
  return bytes;
}

/// A .npy file written by hand: magic, version `major`.0, the header length
/// field (2 bytes for 1.0, 4 for 2.0 and 3.0), the dict padded to 64 bytes.
std::string handWrittenNpy(unsigned major, const std::string &dict,
                           const std::string &data) {
  size_t lengthBytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((8 + lengthBytes + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::string file = "\x93NUMPY";
  file += static_cast<char>(major);
  file += '\0';
  for (size_t i = 0; i < lengthBytes; ++i)
    file += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return file + header + data;
}

std::string floatBytes(const std::vector<float> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(float));
}

std::string halfBytes(const std::vector<float> &values) {
  std::string bytes;
  for (float value : values) {
    uint16_t bits = floatToHalfBits(value);
    bytes += static_cast<char>(bits & 0xff);
    bytes += static_cast<char>(bits >> 8);
  }
  return bytes;
}

/// Floats compared bit for bit: 0 and -0 differ, as they do in the file.
std::vector<uint32_t> bitsOf(const std::vector<float> &values) {
  std::vector<uint32_t> bits(values.size());
  std::memcpy(bits.data(), values.data(), values.size() * sizeof(float));
  return bits;
}

/// A file the reader must accept, and what it must read from it.
struct Accepted {
  const char *what;
  std::string bytes;
  size_t rows, cols;
  unsigned dimensions;
  NpyDtype dtype;
};

/// A file the reader must refuse, and what the message must contain.
struct Refused {
  const char *what;
  std::string bytes;
  const char *expected;
};

/// A fresh temporary directory per test, removed with everything in it
/// after the test.
class RuntimeNpyTest : public testing::Test {
protected:
  void SetUp() override {
    std::string pattern = testing::TempDir() + "blk-runtime-npy-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr)
        << "mkdtemp " << pattern << ": " << std::strerror(errno);
    directory = pattern;
  }

  void TearDown() override {
    if (directory.empty())
      return;
    std::error_code error;
    std::filesystem::remove_all(directory, error);
    EXPECT_FALSE(error) << "removing " << directory << ": " << error.message();
  }

  std::string path(const std::string &name) const {
    return directory + "/" + name;
  }

  /// Writes `bytes` to the file `name` of the test's directory.
  Status writeFile(const std::string &name, const std::string &bytes) const {
    std::string file = path(name);
    std::FILE *stream = std::fopen(file.c_str(), "wb");
    if (!stream)
      return Status::failure("cannot write " + file);
    bool written =
        std::fwrite(bytes.data(), 1, bytes.size(), stream) == bytes.size();
    if (std::fclose(stream) != 0 || !written)
      return Status::failure("cannot write " + file);
    return Status::success();
  }

  /// Writes `bytes` to a file and reads it as a .npy file.
  Status readAsNpy(const std::string &bytes, NpyArray &array) const {
    if (Status status = writeFile("hand-written.npy", bytes); !status)
      return status;
    return readNpy(path("hand-written.npy"), array);
  }

  /// `file` reads as its shape and dtype say, holding the first rows * cols
  /// of `values`.
  void expectAccepted(const Accepted &file, const std::vector<float> &values) {
    SCOPED_TRACE(file.what);
    NpyArray array;
    Status read = readAsNpy(file.bytes, array);
    ASSERT_TRUE(read.ok()) << read.message();
    EXPECT_EQ(array.rows, file.rows);
    EXPECT_EQ(array.cols, file.cols);
    EXPECT_EQ(array.fileDimensions, file.dimensions);
    EXPECT_EQ(array.storedDtype, file.dtype);
    EXPECT_EQ(array.values,
              std::vector<float>(values.begin(),
                                 values.begin() + file.rows * file.cols));
  }

  /// `file` is refused with a one-line message naming the problem.
  void expectRefused(const Refused &file) {
    SCOPED_TRACE(file.what);
    NpyArray array;
    Status read = readAsNpy(file.bytes, array);
    ASSERT_FALSE(read.ok()) << "unexpectedly read";
    EXPECT_NE(read.message().find(file.expected), std::string::npos)
        << read.message();
    EXPECT_EQ(read.message().find('\n'), std::string::npos) << read.message();
  }

  std::string directory;
};

//===----------------------------------------------------------------------===//
// Files the runtime wrote
//===----------------------------------------------------------------------===//

std::vector<float> writtenValues() {
  return {1.0f, -2.5f, 0.0f, kInf, 1e-3f, 65504.0f};
}

TEST_F(RuntimeNpyTest, F32WriteReadRoundTrip) {
  const std::vector<float> values = writtenValues();
  std::string file = path("written-f32.npy");
  Status written = writeNpy(file, 2, 3, values.data(), NpyDtype::Float32);
  ASSERT_TRUE(written.ok()) << written.message();
  NpyArray array;
  Status read = readNpy(file, array);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(array.rows, 2u);
  EXPECT_EQ(array.cols, 3u);
  EXPECT_EQ(array.fileDimensions, 2u);
  EXPECT_EQ(array.storedDtype, NpyDtype::Float32);
  EXPECT_EQ(bitsOf(array.values), bitsOf(values));
}

TEST_F(RuntimeNpyTest, WrittenHeaderIsVersion1Aligned64EndingInNewline) {
  const std::vector<float> values = writtenValues();
  std::string file = path("written-f32.npy");
  Status written = writeNpy(file, 2, 3, values.data(), NpyDtype::Float32);
  ASSERT_TRUE(written.ok()) << written.message();
  std::string bytes = readBytes(file);
  ASSERT_GT(bytes.size(), 10u) << "no header length field";
  size_t headerLength = static_cast<unsigned char>(bytes[8]) |
                        static_cast<unsigned char>(bytes[9]) << 8;
  size_t dataOffset = 10 + headerLength;
  ASSERT_LE(dataOffset, bytes.size()) << "header length " << headerLength;
  EXPECT_EQ(dataOffset % 64, 0u) << "data offset " << dataOffset;
  EXPECT_EQ(bytes[6], 1) << "major version";
  EXPECT_EQ(bytes[7], 0) << "minor version";
  EXPECT_EQ(bytes.substr(10, 15), "{'descr': '<f4'");
  EXPECT_EQ(bytes[dataOffset - 1], '\n');
}

TEST_F(RuntimeNpyTest, F16WriteReadRoundTripRoundsValuesToF16) {
  const std::vector<float> values = {1.0f, 0.1f, -65504.0f, 1e-7f};
  std::vector<float> rounded;
  for (float value : values)
    rounded.push_back(halfBitsToFloat(floatToHalfBits(value)));
  std::string file = path("written-f16.npy");
  Status written = writeNpy(file, 1, 4, values.data(), NpyDtype::Float16);
  ASSERT_TRUE(written.ok()) << written.message();
  NpyArray array;
  Status read = readNpy(file, array);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(array.rows, 1u);
  EXPECT_EQ(array.cols, 4u);
  EXPECT_EQ(array.storedDtype, NpyDtype::Float16);
  EXPECT_EQ(bitsOf(array.values), bitsOf(rounded));
}

TEST_F(RuntimeNpyTest, F16RawBitsWriteReadRoundTrip) {
  const std::vector<uint16_t> bits = {0x3c00, 0x7c00, 0x8001, 0x7bff};
  std::string file = path("written-f16-bits.npy");
  Status written = writeNpyFloat16Bits(file, 2, 2, bits.data());
  ASSERT_TRUE(written.ok()) << written.message();
  NpyArray array;
  Status read = readNpy(file, array);
  ASSERT_TRUE(read.ok()) << read.message();
  ASSERT_EQ(array.values.size(), bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    EXPECT_EQ(floatToHalfBits(array.values[i]), bits[i]) << "element " << i;
}

//===----------------------------------------------------------------------===//
// Files written by hand
//===----------------------------------------------------------------------===//

TEST_F(RuntimeNpyTest, ReadsHandWrittenVersionsDtypesAndShapes) {
  // Every case holds (a prefix of) these values.
  const std::vector<float> values = {0.5f, -1.0f, 3.0f, kInf};
  const Accepted files[] = {
      {"version 1.0, 1-D (4,) read as one row, double quotes, no trailing "
       "comma",
       handWrittenNpy(
           1, "{\"shape\": (4,), \"fortran_order\": False, \"descr\": \"<f4\"}",
           floatBytes(values)),
       1, 4, 1, NpyDtype::Float32},
      {"version 2.0, f16 (2, 2)",
       handWrittenNpy(
           2, "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }",
           halfBytes(values)),
       2, 2, 2, NpyDtype::Float16},
      {"version 3.0, f32 (2, 2), extra bytes after the data ignored",
       handWrittenNpy(
           3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
           floatBytes(values) + "tail"),
       2, 2, 2, NpyDtype::Float32},
      {"version 1.0, empty (0, 5)",
       handWrittenNpy(
           1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }",
           ""),
       0, 5, 2, NpyDtype::Float32},
      {"4-D (1, 2, 1, 2) of a batch: the leading dimensions count rows",
       handWrittenNpy(1,
                      "{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (1, 2, 1, 2), }",
                      floatBytes(values)),
       2, 2, 4, NpyDtype::Float32},
  };
  for (const Accepted &file : files)
    expectAccepted(file, values);
}

constexpr const char *kGoodDict =
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";

/// The data of kGoodDict's (2, 2) float32 array.
std::string fourFloatBytes() { return floatBytes({1, 2, 3, 4}); }

TEST_F(RuntimeNpyTest, RefusesBadMagicVersionOrHeaderLength) {
  const std::string fourFloats = fourFloatBytes();
  std::string minorOne = handWrittenNpy(1, kGoodDict, fourFloats);
  minorOne[7] = 1;
  const Refused files[] = {
      {"bad magic", "PK\x03\x04 not numpy at all",
       "not a .npy file: bad magic"},
      {"file shorter than the magic", "\x93NUM",
       "not a .npy file: it ends inside the magic"},
      {"empty file", "", "not a .npy file: it is empty"},
      {"version 4.0", handWrittenNpy(4, kGoodDict, fourFloats),
       "unsupported .npy version 4.0"},
      {"version 1.1", minorOne, "unsupported .npy version 1.1"},
      {"header length beyond the end of the file",
       std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 18),
       "header length is 255 bytes but only 8 follow"},
      {"a version 2.0 header of 4 GiB",
       std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{'descr'", 20),
       "a header of 4294967295 bytes, past the 65535 this reader takes"},
  };
  for (const Refused &file : files)
    expectRefused(file);
}

TEST_F(RuntimeNpyTest, RefusesMalformedHeaderDicts) {
  const std::string fourFloats = fourFloatBytes();
  const Refused files[] = {
      {"missing 'shape'",
       handWrittenNpy(1, "{'descr': '<f4', 'fortran_order': False}",
                      fourFloats),
       "missing key 'shape'"},
      {"missing 'descr'",
       handWrittenNpy(1, "{'fortran_order': False, 'shape': (2, 2)}",
                      fourFloats),
       "missing key 'descr'"},
      {"missing 'fortran_order'",
       handWrittenNpy(1, "{'descr': '<f4', 'shape': (2, 2)}", fourFloats),
       "missing key 'fortran_order'"},
      {"not a dict", handWrittenNpy(1, "('descr', '<f4')", fourFloats),
       "malformed header: expected '{'"},
      {"unterminated string", handWrittenNpy(1, "{'descr': '<f4", fourFloats),
       "malformed header: unterminated string"},
      {"unexpected key",
       handWrittenNpy(1,
                      "{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (2, 2), 'order': 'C'}",
                      fourFloats),
       "unexpected key 'order'"},
      {"shape not a tuple",
       handWrittenNpy(1,
                      "{'descr': '<f4', 'fortran_order': False, "
                      "'shape': [2, 2]}",
                      fourFloats),
       "expected '(' opening the shape"},
      {"negative dimension",
       handWrittenNpy(1,
                      "{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (-2, 2)}",
                      fourFloats),
       "expected a non-negative integer dimension"},
  };
  for (const Refused &file : files)
    expectRefused(file);
}

TEST_F(RuntimeNpyTest, RefusesUnsupportedOrderDtypesAndDimensions) {
  const std::string fourFloats = fourFloatBytes();
  const Refused files[] = {
      {"fortran_order True",
       handWrittenNpy(1,
                      "{'descr': '<f4', 'fortran_order': True, "
                      "'shape': (2, 2), }",
                      fourFloats),
       "fortran_order is True"},
      {"float64",
       handWrittenNpy(1,
                      "{'descr': '<f8', 'fortran_order': False, "
                      "'shape': (2, 2), }",
                      fourFloats + fourFloats),
       "unsupported dtype '<f8'"},
      {"big-endian float32",
       handWrittenNpy(1,
                      "{'descr': '>f4', 'fortran_order': False, "
                      "'shape': (2, 2), }",
                      fourFloats),
       "unsupported dtype '>f4'"},
      {"structured dtype",
       handWrittenNpy(1,
                      "{'descr': [('x', '<f4')], 'fortran_order': "
                      "False, 'shape': (2, 2), }",
                      fourFloats),
       "structured dtypes are not supported"},
      {"5 dimensions",
       handWrittenNpy(1,
                      "{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (1, 1, 1, 2, 2), }",
                      fourFloats),
       "expected 1 to 4, got 5 (shape (1, 1, 1, 2, 2))"},
      {"0 dimensions",
       handWrittenNpy(1,
                      "{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (), }",
                      fourFloats),
       "expected 1 to 4, got 0"},
  };
  for (const Refused &file : files)
    expectRefused(file);
}

TEST_F(RuntimeNpyTest, RefusesDataShorterThanTheShape) {
  const std::string fourFloats = fourFloatBytes();
  const Refused files[] = {
      {"f32", handWrittenNpy(1, kGoodDict, fourFloats.substr(0, 10)),
       "needs 16 bytes, the file has 10"},
      {"f16",
       handWrittenNpy(2,
                      "{'descr': '<f2', 'fortran_order': False, "
                      "'shape': (3,), }",
                      std::string("\x00\x3c", 2)),
       "needs 6 bytes, the file has 2"},
  };
  for (const Refused &file : files)
    expectRefused(file);
}

// A header alone gives the shape and dtype: the data is neither read nor
// checked (a file whose data is short still tells its shape), and a bad
// header is refused as readNpy refuses it.
TEST_F(RuntimeNpyTest, ReadsAHeaderWithoutItsData) {
  std::vector<float> values(3 * 5000, 1.0f);
  ASSERT_TRUE(
      writeNpy(path("header.npy"), 3, 5000, values.data(), NpyDtype::Float16)
          .ok());
  NpyArray array;
  Status read = readNpyHeader(path("header.npy"), array);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(std::make_pair(array.rows, array.cols),
            std::make_pair(3ul, 5000ul));
  EXPECT_EQ(array.storedDtype, NpyDtype::Float16);
  EXPECT_TRUE(array.values.empty());

  ASSERT_TRUE(
      writeFile("short.npy",
                handWrittenNpy(1, kGoodDict, fourFloatBytes().substr(0, 10)))
          .ok());
  NpyArray shortArray;
  EXPECT_TRUE(readNpyHeader(path("short.npy"), shortArray).ok());
  EXPECT_FALSE(readNpy(path("short.npy"), shortArray).ok());

  ASSERT_TRUE(writeFile("bad.npy", "not a numpy file at all").ok());
  Status refused = readNpyHeader(path("bad.npy"), array);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("bad magic"), std::string::npos)
      << refused.message();
  EXPECT_FALSE(readNpyHeader(path("does-not-exist.npy"), array).ok());
  EXPECT_FALSE(readNpyHeader(directory, array).ok());
  // A bad version is refused from its first bytes, whatever follows.
  ASSERT_TRUE(writeFile("version9.npy",
                        std::string("\x93NUMPY\x09\x00", 8) +
                            std::string(1 << 20, 'x'))
                  .ok());
  Status version = readNpyHeader(path("version9.npy"), array);
  EXPECT_NE(version.message().find("unsupported .npy version 9.0"),
            std::string::npos)
      << version.message();
}

TEST_F(RuntimeNpyTest, RefusesAMissingFile) {
  NpyArray array;
  Status missing = readNpy(path("does-not-exist.npy"), array);
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("cannot open"), std::string::npos)
      << missing.message();
}

} // namespace
