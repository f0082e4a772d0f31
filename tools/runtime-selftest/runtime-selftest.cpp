//===- runtime-selftest.cpp - checks of the BlkRuntime library ------------===//
//
// Exercises the runtime without a GPU: .npy reading and writing (including
// every error path), the fp16/bf16 conversions, the reference softmax on
// special rows, and the error statistics. Loading the CUDA driver is tried
// too: where there is none, the one-line reason is printed and nothing
// fails; where there is one, a small hand-written PTX kernel is run.
//
// Prints one line per check and exits non-zero if any check failed.
//
//===----------------------------------------------------------------------===//
#include "blk/Runtime/CudaDriver.h"
#include "blk/Runtime/Launch.h"
#include "blk/Runtime/Npy.h"
#include "blk/Runtime/Numerics.h"
#include "blk/Runtime/Program.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace blk::runtime;

namespace {

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

int checkCount = 0;
int failureCount = 0;

void check(bool passed, const std::string &what,
           const std::string &detail = "") {
  ++checkCount;
  if (!passed)
    ++failureCount;
  // One line per check: multi-line details (a JIT log) are joined.
  std::string oneLineDetail = detail;
  for (size_t newline;
       (newline = oneLineDetail.find('\n')) != std::string::npos;)
    oneLineDetail.replace(newline, 1, " | ");
  std::printf("%s %s%s%s\n", passed ? "PASS" : "FAIL", what.c_str(),
              detail.empty() ? "" : ": ", oneLineDetail.c_str());
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%04x", value);
  return text;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

//===----------------------------------------------------------------------===//
// fp16 and bf16 conversions
//===----------------------------------------------------------------------===//

void checkToHalf(float value, uint16_t expected, const std::string &what) {
  uint16_t bits = floatToHalfBits(value);
  check(bits == expected, "f32->f16 " + what,
        "got " + hex(bits) + ", expected " + hex(expected));
}

void checkToBf16(float value, uint16_t expected, const std::string &what) {
  uint16_t bits = floatToBf16Bits(value);
  check(bits == expected, "f32->bf16 " + what,
        "got " + hex(bits) + ", expected " + hex(expected));
}

bool isHalfNaN(uint16_t bits) {
  return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0;
}

bool isBf16NaN(uint16_t bits) {
  return (bits & 0x7f80u) == 0x7f80u && (bits & 0x7fu) != 0;
}

void checkHalfConversions() {
  checkToHalf(0.0f, 0x0000, "0");
  checkToHalf(-0.0f, 0x8000, "-0");
  checkToHalf(1.0f, 0x3c00, "1");
  checkToHalf(kInf, 0x7c00, "inf");
  checkToHalf(-kInf, 0xfc00, "-inf");
  checkToHalf(65504.0f, 0x7bff, "max 65504");
  checkToHalf(65519.0f, 0x7bff, "65519 rounds down to max");
  checkToHalf(65520.0f, 0x7c00, "65520 (tie) rounds to inf");
  checkToHalf(-1e6f, 0xfc00, "-1e6 overflows to -inf");
  checkToHalf(std::ldexp(1.0f, -14), 0x0400, "smallest normal 2^-14");
  checkToHalf(std::ldexp(1023.0f, -24), 0x03ff, "largest subnormal");
  checkToHalf(std::ldexp(1.0f, -24), 0x0001, "smallest subnormal 2^-24");
  checkToHalf(std::ldexp(1.0f, -25), 0x0000, "2^-25 (tie) rounds to even 0");
  checkToHalf(std::ldexp(3.0f, -26), 0x0001, "1.5*2^-25 rounds up");
  checkToHalf(std::ldexp(3.0f, -25), 0x0002, "3*2^-25 (tie) rounds to even 2");
  checkToHalf(std::ldexp(2047.0f, -25), 0x0400,
              "subnormal rounding carries into the smallest normal");
  checkToHalf(1.0f + std::ldexp(1.0f, -11), 0x3c00,
              "1+2^-11 (tie) rounds to even 1");
  checkToHalf(1.0f + std::ldexp(3.0f, -11), 0x3c02,
              "1+3*2^-11 (tie) rounds to even 0x3c02");
  checkToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20), 0x3c01,
              "just above a tie rounds up");
  checkToHalf(std::ldexp(1.0f, -30), 0x0000, "tiny value flushes to 0");

  uint16_t nanBits = floatToHalfBits(kNaN);
  check(isHalfNaN(nanBits), "f32->f16 NaN stays NaN", hex(nanBits));
  uint16_t lowPayloadNaN = floatToHalfBits(floatFromBits(0x7f800001u));
  check(isHalfNaN(lowPayloadNaN),
        "f32->f16 NaN with only low payload bits stays NaN",
        hex(lowPayloadNaN));
  check(std::signbit(halfBitsToFloat(0x8000)) &&
            halfBitsToFloat(0x8000) == 0.0f,
        "f16->f32 -0");
  check(halfBitsToFloat(0x0001) == std::ldexp(1.0f, -24),
        "f16->f32 smallest subnormal");
  check(halfBitsToFloat(0x7bff) == 65504.0f, "f16->f32 max");
  check(halfBitsToFloat(0xfc00) == -kInf, "f16->f32 -inf");
  check(std::isnan(halfBitsToFloat(0x7e00)), "f16->f32 NaN");

  int roundTripFailures = 0;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    uint16_t half = static_cast<uint16_t>(bits);
    uint16_t back = floatToHalfBits(halfBitsToFloat(half));
    bool ok = isHalfNaN(half) ? isHalfNaN(back) : back == half;
    roundTripFailures += !ok;
  }
  check(roundTripFailures == 0, "f16->f32->f16 exact for all 65536 patterns",
        std::to_string(roundTripFailures) + " mismatches");
}

void checkBf16Conversions() {
  checkToBf16(0.0f, 0x0000, "0");
  checkToBf16(-0.0f, 0x8000, "-0");
  checkToBf16(1.0f, 0x3f80, "1");
  checkToBf16(kInf, 0x7f80, "inf");
  checkToBf16(-kInf, 0xff80, "-inf");
  checkToBf16(bf16BitsToFloat(0x7f7f), 0x7f7f, "max finite");
  checkToBf16(std::numeric_limits<float>::max(), 0x7f80,
              "f32 max rounds to inf");
  checkToBf16(1.0f + std::ldexp(1.0f, -8), 0x3f80,
              "1+2^-8 (tie) rounds to even 1");
  checkToBf16(1.0f + std::ldexp(3.0f, -8), 0x3f82,
              "1+3*2^-8 (tie) rounds to even 0x3f82");
  checkToBf16(floatFromBits(0x00010000u), 0x0001, "smallest subnormal");
  checkToBf16(floatFromBits(0x00008000u), 0x0000,
              "half the smallest subnormal (tie) rounds to even 0");
  checkToBf16(floatFromBits(0x00018000u), 0x0002,
              "1.5 smallest subnormals (tie) rounds to even 2");
  uint16_t nanBits = floatToBf16Bits(kNaN);
  check(isBf16NaN(nanBits), "f32->bf16 NaN stays NaN", hex(nanBits));
  uint16_t lowPayloadNaN = floatToBf16Bits(floatFromBits(0x7f800001u));
  check(isBf16NaN(lowPayloadNaN),
        "f32->bf16 NaN with only low payload bits stays NaN",
        hex(lowPayloadNaN));

  int roundTripFailures = 0;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    uint16_t bf16 = static_cast<uint16_t>(bits);
    uint16_t back = floatToBf16Bits(bf16BitsToFloat(bf16));
    bool ok = isBf16NaN(bf16) ? isBf16NaN(back) : back == bf16;
    roundTripFailures += !ok;
  }
  check(roundTripFailures == 0, "bf16->f32->bf16 exact for all 65536 patterns",
        std::to_string(roundTripFailures) + " mismatches");
}

//===----------------------------------------------------------------------===//
// Reference softmax
//===----------------------------------------------------------------------===//

/// Softmax of one row, compared element by element (NaN must match NaN).
void checkSoftmaxRow(const std::vector<float> &row,
                     const std::vector<double> &expected,
                     const std::string &what) {
  std::vector<double> output(row.size());
  referenceSoftmax(row.data(), 1, row.size(), row.size(), output.data());
  std::string detail;
  bool matches = true;
  for (size_t i = 0; i < row.size(); ++i) {
    bool same = std::isnan(expected[i])
                    ? std::isnan(output[i])
                    : std::fabs(output[i] - expected[i]) <= 1e-15;
    matches &= same;
    detail += (i ? " " : "got ") + number(output[i]);
  }
  check(matches, "softmax " + what, detail);
}

void checkReferenceSoftmax() {
  double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
  double sum = e1 + e2 + e3;
  checkSoftmaxRow({1, 2, 3}, {e1 / sum, e2 / sum, e3 / sum}, "[1 2 3]");
  checkSoftmaxRow({5}, {1.0}, "N=1 gives 1");
  checkSoftmaxRow({-kInf, -kInf, -kInf}, {kNaN, kNaN, kNaN},
                  "all -inf gives NaN row");
  checkSoftmaxRow({-kInf}, {kNaN}, "N=1 of -inf gives NaN");
  checkSoftmaxRow({1, kNaN, 3}, {kNaN, kNaN, kNaN}, "a NaN gives NaN row");
  checkSoftmaxRow({kNaN, 1}, {kNaN, kNaN}, "a leading NaN gives NaN row");
  checkSoftmaxRow({-kInf, 0, -kInf, 0}, {0, 0.5, 0, 0.5},
                  "-inf elements give 0");
  checkSoftmaxRow({1, kInf}, {kNaN, kNaN}, "+inf gives NaN row (as torch)");
  checkSoftmaxRow({3e38f, -3e38f}, {1, 0}, "[3e38 -3e38]");
  checkSoftmaxRow({3e38f, 3e38f}, {0.5, 0.5}, "[3e38 3e38]");
  checkSoftmaxRow({-3e38f, -3e38f}, {0.5, 0.5}, "[-3e38 -3e38]");

  // Two rows of 2 columns, stored with a row stride of 3 (the padding is
  // garbage that must be ignored).
  std::vector<float> strided = {0, 0, kNaN, 1, 1, kNaN};
  std::vector<double> output(4);
  referenceSoftmax(strided.data(), 2, 2, 3, output.data());
  check(output[0] == 0.5 && output[1] == 0.5 && output[2] == 0.5 &&
            output[3] == 0.5,
        "softmax honours the input row stride");
}

//===----------------------------------------------------------------------===//
// Error statistics
//===----------------------------------------------------------------------===//

void checkErrorStatistics() {
  // A 2x3 reference; the output is stored with a row stride of 4.
  const std::vector<double> reference = {0.25, 0.25, 0.5, 0.1, 0.2, 0.7};
  // The stride padding holds the poison, as a run leaves it.
  std::vector<float> output(8, floatFromBits(kPoisonBitsF32));
  for (size_t row = 0; row < 2; ++row)
    for (size_t col = 0; col < 3; ++col)
      output[row * 4 + col] = static_cast<float>(reference[row * 3 + col]);

  ErrorStats exact = compareToReference(output.data(), ElementType::F32, 2, 3,
                                        4, reference.data());
  check(exact.comparedCount == 6 && exact.maxAbsError < 1e-7 &&
            exact.maxRelError < 1e-7 && exact.relL2Error < 1e-7 &&
            exact.nanPatternAndCoverageMatch(),
        "stats: float rounding of the reference is within 1e-7",
        exact.summary());

  output[1 * 4 + 2] = 0.7f + 0.01f;
  ErrorStats perturbed = compareToReference(output.data(), ElementType::F32, 2,
                                            3, 4, reference.data());
  check(std::fabs(perturbed.maxAbsError - 0.01) < 1e-6 &&
            perturbed.worstRow == 1 && perturbed.worstCol == 2 &&
            std::fabs(perturbed.maxRelError - 0.01 / 0.7) < 1e-6,
        "stats: max abs/rel error and its position", perturbed.summary());

  output[0] = kNaN;                          // NaN where ref is 0.25
  output[1] = floatFromBits(kPoisonBitsF32); // never written
  ErrorStats broken = compareToReference(output.data(), ElementType::F32, 2, 3,
                                         4, reference.data());
  check(broken.nanMismatchCount == 1 && broken.unwrittenCount == 1 &&
            broken.comparedCount == 4 && !broken.nanPatternAndCoverageMatch(),
        "stats: NaN mismatch and unwritten element counted apart",
        broken.summary());

  // A write between the rows (row 0's padding) is a stray write; the last
  // row's padding may lie past the buffer and is not read.
  std::vector<float> stray = output;
  stray[3] = 0.5f;
  ErrorStats strayStats = compareToReference(stray.data(), ElementType::F32, 2,
                                             3, 4, reference.data());
  check(strayStats.strayCount == 1 &&
            !strayStats.nanPatternAndCoverageMatch() &&
            strayStats.summary().find("stray_writes=1") != std::string::npos,
        "stats: a write between rows counted", strayStats.summary());

  // NaN where the reference is NaN matches; a number there does not.
  const std::vector<double> nanReference = {kNaN, kNaN, 3, 4};
  const std::vector<float> nanOutput = {kNaN, 0.5f, 3, 4.5f};
  ErrorStats nanStats = compareToReference(nanOutput.data(), ElementType::F32,
                                           1, 4, 4, nanReference.data());
  check(nanStats.nanMismatchCount == 1 && nanStats.comparedCount == 2 &&
            std::fabs(nanStats.relL2Error - 0.1) < 1e-12 &&
            std::fabs(nanStats.maxRelError - 0.125) < 1e-12,
        "stats: NaN positions and relative L2 (0.5 / ||(3,4)|| = 0.1)",
        nanStats.summary());

  const std::vector<double> zeroReference = {0.0};
  const std::vector<float> tinyOutput = {1e-31f};
  ErrorStats floorStats = compareToReference(
      tinyOutput.data(), ElementType::F32, 1, 1, 1, zeroReference.data());
  check(std::fabs(floorStats.maxRelError - 0.1) < 1e-6 &&
            std::isinf(floorStats.relL2Error),
        "stats: relative error floor 1e-30 where the reference is 0",
        floorStats.summary());

  const std::vector<double> halfReference = {0.25, 0.75, 1.0};
  const std::vector<uint16_t> halfOutput = {
      floatToHalfBits(0.25f), kPoisonBitsF16, floatToHalfBits(1.0f)};
  ErrorStats halfStats = compareToReference(halfOutput.data(), ElementType::F16,
                                            1, 3, 3, halfReference.data());
  check(halfStats.unwrittenCount == 1 && halfStats.comparedCount == 2 &&
            halfStats.maxAbsError == 0,
        "stats: f16 output with an unwritten element", halfStats.summary());

  const std::vector<uint16_t> bf16Output = {
      floatToBf16Bits(0.25f), floatToBf16Bits(0.75f), kPoisonBitsBF16};
  ErrorStats bf16Stats = compareToReference(
      bf16Output.data(), ElementType::BF16, 1, 3, 3, halfReference.data());
  check(bf16Stats.unwrittenCount == 1 && bf16Stats.comparedCount == 2 &&
            bf16Stats.maxAbsError == 0,
        "stats: bf16 output with an unwritten element", bf16Stats.summary());

  check(std::isnan(floatFromBits(kPoisonBitsF32)) &&
            isHalfNaN(kPoisonBitsF16) && isBf16NaN(kPoisonBitsBF16) &&
            poisonBits(ElementType::F16) == kPoisonBitsF16,
        "poison patterns are NaNs");
}

//===----------------------------------------------------------------------===//
// .npy files
//===----------------------------------------------------------------------===//

/// A scratch directory whose files are removed on destruction.
class TempDir {
public:
  TempDir() {
    char pattern[] = "/tmp/runtime-selftest-XXXXXX";
    if (mkdtemp(pattern))
      path = pattern;
  }
  ~TempDir() {
    for (const std::string &file : files)
      unlink(file.c_str());
    if (!path.empty())
      rmdir(path.c_str());
  }
  bool valid() const { return !path.empty(); }
  /// A path in the directory, remembered for removal.
  std::string file(const std::string &name) {
    files.push_back(path + "/" + name);
    return files.back();
  }

private:
  std::string path;
  std::vector<std::string> files;
};

bool writeBytes(const std::string &path, const std::string &bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return false;
  bool written =
      std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  return std::fclose(file) == 0 && written;
}

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

bool sameValues(const std::vector<float> &actual,
                const std::vector<float> &expected) {
  return actual.size() == expected.size() &&
         std::memcmp(actual.data(), expected.data(),
                     actual.size() * sizeof(float)) == 0;
}

void checkNpyWriteRoundTrips(TempDir &dir) {
  const std::vector<float> values = {1.0f, -2.5f, 0.0f, kInf, 1e-3f, 65504.0f};
  std::string path = dir.file("written-f32.npy");
  Status written = writeNpy(path, 2, 3, values.data(), NpyDtype::Float32);
  NpyArray array;
  Status read = written ? readNpy(path, array) : written;
  check(read.ok() && array.rows == 2 && array.cols == 3 &&
            array.fileDimensions == 2 &&
            array.storedDtype == NpyDtype::Float32 &&
            sameValues(array.values, values),
        "npy: f32 write/read round trip", read.message());

  std::string bytes = readBytes(path);
  size_t headerLength = bytes.size() > 10
                            ? static_cast<unsigned char>(bytes[8]) |
                                  static_cast<unsigned char>(bytes[9]) << 8
                            : 0;
  check((10 + headerLength) % 64 == 0 && bytes[6] == 1 && bytes[7] == 0 &&
            bytes.compare(10, 15, "{'descr': '<f4'") == 0 &&
            bytes[10 + headerLength - 1] == '\n',
        "npy: written header is version 1.0, 64-byte aligned, ends in \\n",
        "data offset " + std::to_string(10 + headerLength));

  std::vector<float> halfValues = {1.0f, 0.1f, -65504.0f, 1e-7f};
  std::vector<float> expectedHalf;
  for (float value : halfValues)
    expectedHalf.push_back(halfBitsToFloat(floatToHalfBits(value)));
  path = dir.file("written-f16.npy");
  written = writeNpy(path, 1, 4, halfValues.data(), NpyDtype::Float16);
  read = written ? readNpy(path, array) : written;
  check(read.ok() && array.rows == 1 && array.cols == 4 &&
            array.storedDtype == NpyDtype::Float16 &&
            sameValues(array.values, expectedHalf),
        "npy: f16 write/read round trip (values rounded to f16)",
        read.message());

  const std::vector<uint16_t> bits = {0x3c00, 0x7c00, 0x8001, 0x7bff};
  path = dir.file("written-f16-bits.npy");
  written = writeNpyFloat16Bits(path, 2, 2, bits.data());
  read = written ? readNpy(path, array) : written;
  bool bitsMatch = read.ok() && array.values.size() == 4;
  for (size_t i = 0; bitsMatch && i < 4; ++i)
    bitsMatch = floatToHalfBits(array.values[i]) == bits[i];
  check(bitsMatch, "npy: f16 raw bits write/read round trip", read.message());
}

void checkNpyHandWritten(TempDir &dir) {
  const std::vector<float> values = {0.5f, -1.0f, 3.0f, kInf};
  struct Case {
    const char *name;
    unsigned major;
    std::string dict;
    std::string data;
    size_t rows, cols;
    unsigned dimensions;
    NpyDtype dtype;
  } cases[] = {
      {"version 1.0, 1-D (4,) read as one row, double quotes, no trailing "
       "comma",
       1, "{\"shape\": (4,), \"fortran_order\": False, \"descr\": \"<f4\"}",
       floatBytes(values), 1, 4, 1, NpyDtype::Float32},
      {"version 2.0, f16 (2, 2)", 2,
       "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }",
       halfBytes(values), 2, 2, 2, NpyDtype::Float16},
      {"version 3.0, f32 (2, 2), extra bytes after the data ignored", 3,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
       floatBytes(values) + "tail", 2, 2, 2, NpyDtype::Float32},
      {"version 1.0, empty (0, 5)", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", "", 0, 5,
       2, NpyDtype::Float32},
  };
  for (const Case &testCase : cases) {
    std::string path = dir.file("hand-written.npy");
    NpyArray array;
    Status read = writeBytes(path, handWrittenNpy(testCase.major, testCase.dict,
                                                  testCase.data))
                      ? readNpy(path, array)
                      : Status::failure("cannot write " + path);
    bool valuesMatch = array.values.size() == testCase.rows * testCase.cols;
    for (size_t i = 0; valuesMatch && i < array.values.size(); ++i)
      valuesMatch = array.values[i] == values[i];
    check(read.ok() && array.rows == testCase.rows &&
              array.cols == testCase.cols &&
              array.fileDimensions == testCase.dimensions &&
              array.storedDtype == testCase.dtype && valuesMatch,
          std::string("npy: reads ") + testCase.name, read.message());
  }
}

/// Reads `bytes` as a .npy file and expects an error containing `expected`.
void checkNpyError(TempDir &dir, const std::string &what,
                   const std::string &bytes, const std::string &expected) {
  std::string path = dir.file("broken.npy");
  NpyArray array;
  Status read = writeBytes(path, bytes)
                    ? readNpy(path, array)
                    : Status::failure("cannot write " + path);
  bool mentions = read.message().find(expected) != std::string::npos;
  bool oneLine = read.message().find('\n') == std::string::npos;
  check(!read.ok() && mentions && oneLine, "npy error: " + what,
        read.ok() ? "unexpectedly read" : read.message());
}

void checkNpyErrors(TempDir &dir) {
  const std::string goodDict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  const std::string fourFloats = floatBytes({1, 2, 3, 4});
  checkNpyError(dir, "bad magic", "PK\x03\x04 not numpy at all",
                "not a .npy file: bad magic");
  checkNpyError(dir, "file shorter than the magic", "\x93NUM",
                "not a .npy file: bad magic");
  checkNpyError(dir, "version 4.0", handWrittenNpy(4, goodDict, fourFloats),
                "unsupported .npy version 4.0");
  std::string minorOne = handWrittenNpy(1, goodDict, fourFloats);
  minorOne[7] = 1;
  checkNpyError(dir, "version 1.1", minorOne, "unsupported .npy version 1.1");
  checkNpyError(dir, "header length beyond the end of the file",
                std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 18),
                "header length is 255 bytes but only 8 follow");
  checkNpyError(
      dir, "missing 'shape'",
      handWrittenNpy(1, "{'descr': '<f4', 'fortran_order': False}", fourFloats),
      "missing key 'shape'");
  checkNpyError(dir, "missing 'descr'",
                handWrittenNpy(1, "{'fortran_order': False, 'shape': (2, 2)}",
                               fourFloats),
                "missing key 'descr'");
  checkNpyError(
      dir, "missing 'fortran_order'",
      handWrittenNpy(1, "{'descr': '<f4', 'shape': (2, 2)}", fourFloats),
      "missing key 'fortran_order'");
  checkNpyError(dir, "not a dict",
                handWrittenNpy(1, "('descr', '<f4')", fourFloats),
                "malformed header: expected '{'");
  checkNpyError(dir, "unterminated string",
                handWrittenNpy(1, "{'descr': '<f4", fourFloats),
                "malformed header: unterminated string");
  checkNpyError(dir, "unexpected key",
                handWrittenNpy(1,
                               "{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (2, 2), 'order': 'C'}",
                               fourFloats),
                "unexpected key 'order'");
  checkNpyError(dir, "shape not a tuple",
                handWrittenNpy(1,
                               "{'descr': '<f4', 'fortran_order': False, "
                               "'shape': [2, 2]}",
                               fourFloats),
                "expected '(' opening the shape");
  checkNpyError(dir, "negative dimension",
                handWrittenNpy(1,
                               "{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (-2, 2)}",
                               fourFloats),
                "expected a non-negative integer dimension");
  checkNpyError(dir, "fortran_order True",
                handWrittenNpy(1,
                               "{'descr': '<f4', 'fortran_order': True, "
                               "'shape': (2, 2), }",
                               fourFloats),
                "fortran_order is True");
  checkNpyError(dir, "float64",
                handWrittenNpy(1,
                               "{'descr': '<f8', 'fortran_order': False, "
                               "'shape': (2, 2), }",
                               fourFloats + fourFloats),
                "unsupported dtype '<f8'");
  checkNpyError(dir, "big-endian float32",
                handWrittenNpy(1,
                               "{'descr': '>f4', 'fortran_order': False, "
                               "'shape': (2, 2), }",
                               fourFloats),
                "unsupported dtype '>f4'");
  checkNpyError(dir, "structured dtype",
                handWrittenNpy(1,
                               "{'descr': [('x', '<f4')], 'fortran_order': "
                               "False, 'shape': (2, 2), }",
                               fourFloats),
                "structured dtypes are not supported");
  checkNpyError(dir, "3 dimensions",
                handWrittenNpy(1,
                               "{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (1, 2, 2), }",
                               fourFloats),
                "expected 1 or 2, got 3 (shape (1, 2, 2))");
  checkNpyError(dir, "0 dimensions",
                handWrittenNpy(1,
                               "{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (), }",
                               fourFloats),
                "expected 1 or 2, got 0");
  checkNpyError(dir, "data shorter than the shape",
                handWrittenNpy(1, goodDict, fourFloats.substr(0, 10)),
                "needs 16 bytes, the file has 10");
  checkNpyError(dir, "f16 data shorter than the shape",
                handWrittenNpy(2,
                               "{'descr': '<f2', 'fortran_order': False, "
                               "'shape': (3,), }",
                               std::string("\x00\x3c", 2)),
                "needs 6 bytes, the file has 2");

  NpyArray array;
  Status missing = readNpy(dir.file("does-not-exist.npy"), array);
  check(!missing.ok() &&
            missing.message().find("cannot open") != std::string::npos,
        "npy error: missing file", missing.message());
}

//===----------------------------------------------------------------------===//
// CUDA driver
//===----------------------------------------------------------------------===//

// out[i] = in[i] + 1 for i < n.
constexpr const char *kAddOnePtx = R"(
.version 6.0
.target sm_50
.address_size 64

.visible .entry add_one(.param .u64 out_param, .param .u64 in_param,
                        .param .u32 n_param)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<8>;

  ld.param.u64 %rd1, [out_param];
  ld.param.u64 %rd2, [in_param];
  ld.param.u32 %r1, [n_param];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.s32 %rd5, %r5, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  add.f32 %f2, %f1, 0f3F800000;
  add.s64 %rd7, %rd3, %rd5;
  st.global.f32 [%rd7], %f2;
DONE:
  ret;
}
)";

/// Runs add_one on 1000 of 1024 poisoned elements and checks values, the
/// untouched poison tail, timing, attributes and the error paths.
void checkKernelRun(const CudaDriver &cuda) {
  constexpr unsigned kElements = 1024, kWritten = 1000, kBlock = 128;
  std::vector<float> input(kElements);
  for (unsigned i = 0; i < kElements; ++i)
    input[i] = static_cast<float>(i) * 0.5f;

  DeviceBuffer inputBuffer, outputBuffer;
  KernelModule module;
  Kernel kernel;
  EventTimer timer;
  Status status = cuda.allocate(kElements * 4, inputBuffer);
  if (status)
    status = cuda.allocate(kElements * 4, outputBuffer);
  if (status)
    status = inputBuffer.copyFromHost(input.data(), kElements * 4);
  if (status)
    status = outputBuffer.fill32(kPoisonBitsF32);
  if (status)
    status = cuda.loadModule(kAddOnePtx, module);
  if (status)
    status = module.getKernel("add_one", kernel);
  if (status)
    status = cuda.createTimer(timer);
  check(status.ok(), "cuda: allocate, copy, poison, JIT-load PTX",
        status.message());
  if (!status)
    return;

  KernelAttributes attributes;
  int blocksPerSM = 0;
  status = kernel.attributes(attributes);
  if (status)
    status = kernel.maxActiveBlocksPerMultiprocessor(kBlock, 0, blocksPerSM);
  check(status.ok() && attributes.registersPerThread > 0 && blocksPerSM > 0,
        "cuda: kernel attributes and occupancy",
        status ? std::to_string(attributes.registersPerThread) +
                     " registers, " + std::to_string(blocksPerSM) + " blocks/SM"
               : status.message());

  CUdeviceptr outputPointer = outputBuffer.devicePointer();
  CUdeviceptr inputPointer = inputBuffer.devicePointer();
  unsigned count = kWritten;
  void *arguments[] = {&outputPointer, &inputPointer, &count};
  LaunchConfig config;
  config.grid.x = (kWritten + kBlock - 1) / kBlock;
  config.block.x = kBlock;
  float milliseconds = -1;
  std::vector<float> output(kElements);
  status = timer.start();
  if (status)
    status = kernel.launch(config, arguments);
  if (status)
    status = timer.stop(milliseconds);
  if (status)
    status = outputBuffer.copyToHost(output.data(), kElements * 4);
  check(status.ok() && milliseconds >= 0, "cuda: timed launch",
        status ? number(milliseconds) + " ms" : status.message());

  ErrorStats stats;
  std::vector<double> expected(kElements);
  for (unsigned i = 0; i < kElements; ++i)
    expected[i] = input[i] + 1.0;
  stats = compareToReference(output.data(), ElementType::F32, 1, kElements,
                             kElements, expected.data());
  check(status.ok() && stats.maxAbsError == 0 &&
            stats.unwrittenCount == kElements - kWritten &&
            stats.nanMismatchCount == 0,
        "cuda: results correct, poison tail detected as unwritten",
        stats.summary());
}

void checkCudaErrors(const CudaDriver &cuda) {
  KernelModule module;
  Status badPtx = cuda.loadModule(".version 6.0\n.target sm_50\n"
                                  ".address_size 64\nthis is not ptx\n",
                                  module);
  check(!badPtx.ok() &&
            badPtx.message().find("cuModuleLoadDataEx failed") == 0 &&
            badPtx.message().find("JIT log") != std::string::npos,
        "cuda: bad PTX reports the JIT log", badPtx.message());

  Kernel kernel;
  Status missingKernel = cuda.loadModule(kAddOnePtx, module);
  if (missingKernel)
    missingKernel = module.getKernel("no_such_kernel", kernel);
  check(missingKernel.message().find("cuModuleGetFunction failed: "
                                     "CUDA_ERROR_NOT_FOUND") == 0,
        "cuda: unknown kernel name", missingKernel.message());

  Status badLaunch = module.getKernel("add_one", kernel);
  if (badLaunch) {
    LaunchConfig tooManyThreads;
    tooManyThreads.block.x = 4096;
    CUdeviceptr null = 0;
    unsigned count = 0;
    void *arguments[] = {&null, &null, &count};
    badLaunch = kernel.launch(tooManyThreads, arguments);
  }
  check(badLaunch.message().find("cuLaunchKernel failed: "
                                 "CUDA_ERROR_INVALID_VALUE") == 0,
        "cuda: a 4096-thread block is rejected", badLaunch.message());
}

void checkCudaDriver() {
  std::unique_ptr<CudaDriver> cuda;
  Status loaded = CudaDriver::load(cuda);
  if (!loaded) {
    const std::string &error = loaded.message();
    bool oneLine = !error.empty() && error.find('\n') == std::string::npos;
    std::printf("SKIP cuda: driver not available: %s\n", error.c_str());
    check(oneLine, "cuda: load failure is reported in one line");
    return;
  }
  std::printf("INFO cuda: %s\n", cuda->device().summary().c_str());
  check(cuda->device().multiprocessorCount > 0 &&
            cuda->device().computeCapabilityMajor > 0,
        "cuda: device info", cuda->device().smArch());
  checkKernelRun(*cuda);
  checkCudaErrors(*cuda);
}

//===----------------------------------------------------------------------===//
// Compiled programs and launch arguments
//===----------------------------------------------------------------------===//

blk::runtime::ProgramImage sampleImage() {
  using namespace blk::runtime;
  ProgramImage image;
  image.target = "gpu sm_90";
  image.shape = {8, 100, ElementType::BF16, {{"x", 128}}};
  image.binding = "BLOCK=128";
  image.grid = 8;
  image.signatures = {{"softmax",
                       {{ArgRole::output, "y", ArgExtent::matrix, "bf16", 2},
                        {ArgRole::input, "x", ArgExtent::matrix, "bf16", 2},
                        {ArgRole::row_stride, "x", ArgExtent::matrix, "i32", 4},
                        {ArgRole::param, "scale", ArgExtent::matrix, "f32", 4},
                        {ArgRole::cols, "", ArgExtent::matrix, "i64", 8}}}};
  image.launches = {{128, 1, 0, 0, GridKind::rows, false}};
  image.ptx = std::string("// ptx with spaces, colons: and\nnewlines\0", 40);
  return image;
}

void checkProgramImages() {
  using namespace blk::runtime;
  ProgramImage image = sampleImage();
  std::string bytes = image.serialize();
  ProgramImage read;
  Status status = ProgramImage::deserialize(bytes, read);
  check(status.ok() && read.serialize() == bytes &&
            read.shape.getRowStride("x") == 128 &&
            read.shape.getRowStride("y") == 100 && read.ptx == image.ptx,
        "image: serialize/deserialize round trip", status.message());
  // Every truncation, and a byte changed in each number, is refused.
  int accepted = 0;
  for (size_t length = 0; length < bytes.size(); ++length)
    accepted += ProgramImage::deserialize(bytes.substr(0, length), read).ok();
  check(accepted == 0, "image: every truncation refused",
        std::to_string(accepted) + " accepted");
  for (const char *bad : {"+8 ", "08 ", " 8 "}) {
    std::string altered = bytes;
    size_t at = altered.find(" 8 ");
    altered.replace(at + 1, 2, bad);
    check(!ProgramImage::deserialize(altered, read).ok(),
          std::string("image: non-canonical number '") + bad + "' refused");
  }
}

void checkLaunchArguments() {
  using namespace blk::runtime;
  ProgramImage image = sampleImage();
  int dummy = 0;
  LaunchArguments arguments(8, 100);
  arguments.tensor("x", &dummy).tensor("y", &dummy).rowStride("x", 128);
  PackedArguments packed;
  Status missing = packArguments(image.signatures[0], arguments, packed);
  check(!missing.ok() &&
            missing.message().find("parameter 'scale'") != std::string::npos,
        "launch: a parameter not given is an error", missing.message());
  arguments.param("scale", 0.5);
  Status ok = packArguments(image.signatures[0], arguments, packed);
  float scale = 0;
  std::memcpy(&scale, &packed.values[3], sizeof(scale));
  check(ok.ok() && packed.values[2] == 128 && packed.values[4] == 100 &&
            scale == 0.5f && packed.slots.size() == 5,
        "launch: arguments packed by name", ok.message());
  check(checkShape(image, arguments).ok(), "launch: the compiled shape");
  check(!checkShape(image, LaunchArguments(arguments).rowStride("y", 200))
             .ok(),
        "launch: another row stride of a matrix is refused");
  check(!checkShape(image, LaunchArguments(9, 100)).ok(),
        "launch: another shape is refused");
  for (const char *bad : {"1e39", " 1", "1x", ""}) {
    arguments.param("scale", std::string(bad));
    check(!packArguments(image.signatures[0], arguments, packed).ok(),
          std::string("launch: f32 parameter '") + bad + "' refused");
  }
}

void checkReferenceLogSoftmax() {
  using namespace blk::runtime;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Rows: two equal values, a -inf element, a NaN, a +inf, only -inf.
  std::vector<float> input = {0, 0, 1, -inf, nan, 1, inf, 1, -inf, -inf};
  std::vector<double> output(input.size());
  referenceLogSoftmax(input.data(), 5, 2, 2, output.data());
  check(std::fabs(output[0] + std::log(2.0)) < 1e-15 &&
            std::fabs(output[1] + std::log(2.0)) < 1e-15,
        "log_softmax: equal values give -log(2)");
  check(output[2] == 0 && output[3] == -INFINITY,
        "log_softmax: a -inf element gives -inf, the rest 0");
  bool nanRows = true;
  for (size_t i = 4; i < output.size(); ++i)
    nanRows &= std::isnan(output[i]);
  check(nanRows, "log_softmax: rows with NaN, +inf or only -inf are NaN");
  // Equal infinities match; an infinity where the reference is finite does
  // not, and no infinity reaches the relative L2 error.
  std::vector<float> good = {-0.6931472f, -0.6931472f, 0, -inf};
  ErrorStats exact =
      compareToReference(good.data(), ElementType::F32, 2, 2, 2, output.data());
  check(exact.nanPatternAndCoverageMatch() && exact.comparedCount == 4 &&
            exact.relL2Error < 1e-7,
        "log_softmax: -inf matches -inf", exact.summary());
  std::vector<float> bad = {-0.6931472f, -inf, 0, -inf};
  ErrorStats wrong =
      compareToReference(bad.data(), ElementType::F32, 2, 2, 2, output.data());
  check(!wrong.nanPatternAndCoverageMatch() && wrong.infMismatchCount == 1,
        "log_softmax: -inf where the reference is finite is a mismatch",
        wrong.summary());
}

} // namespace

int main() {
  checkReferenceLogSoftmax();
  checkProgramImages();
  checkLaunchArguments();
  checkHalfConversions();
  checkBf16Conversions();
  checkReferenceSoftmax();
  checkErrorStatistics();
  TempDir dir;
  check(dir.valid(), "temporary directory for .npy files");
  if (dir.valid()) {
    checkNpyWriteRoundTrips(dir);
    checkNpyHandWritten(dir);
    checkNpyErrors(dir);
  }
  checkCudaDriver();
  std::printf("runtime-selftest: %d checks, %d failed\n", checkCount,
              failureCount);
  return failureCount == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
