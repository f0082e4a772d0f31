//===- RuntimeNumericsTest.cpp - 16-bit floats, references, error stats ---===//
//
// The runtime's host numerics (blk/Runtime/Numerics.h): the bit-exact fp16
// and bf16 conversions, the float64 softmax and log-softmax references on
// special rows, the error statistics that check a run's output, including
// the poison that marks elements a kernel never wrote, and the integers
// (labels, ignore_index) the references compare exactly.
//
//===----------------------------------------------------------------------===//
#include "blk/Runtime/Numerics.h"
#include "blk/Runtime/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

using namespace blk::runtime;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// 16-bit patterns read best in hex, as the formats' tables give them.
std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%04x", value);
  return text;
}

bool isHalfNaN(uint16_t bits) {
  return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0;
}

bool isBf16NaN(uint16_t bits) {
  return (bits & 0x7f80u) == 0x7f80u && (bits & 0x7fu) != 0;
}

/// A float and the 16-bit pattern it must convert to.
struct Conversion {
  float value;
  uint16_t bits;
  const char *what;
};

void expectConversions(uint16_t (*convert)(float),
                       std::initializer_list<Conversion> conversions) {
  for (const Conversion &conversion : conversions) {
    uint16_t bits = convert(conversion.value);
    EXPECT_EQ(bits, conversion.bits) << conversion.what << ": got " << hex(bits)
                                     << ", expected " << hex(conversion.bits);
  }
}

//===----------------------------------------------------------------------===//
// fp16
//===----------------------------------------------------------------------===//

TEST(RuntimeNumericsTest, FloatToHalfExactValues) {
  expectConversions(floatToHalfBits, {{0.0f, 0x0000, "0"},
                                      {-0.0f, 0x8000, "-0"},
                                      {1.0f, 0x3c00, "1"},
                                      {kInf, 0x7c00, "inf"},
                                      {-kInf, 0xfc00, "-inf"},
                                      {65504.0f, 0x7bff, "max 65504"}});
}

TEST(RuntimeNumericsTest, FloatToHalfOverflowsAtTheHalfwayPointAboveMax) {
  expectConversions(floatToHalfBits,
                    {{65519.0f, 0x7bff, "65519 rounds down to max"},
                     {65520.0f, 0x7c00, "65520 (tie) rounds to inf"},
                     {-1e6f, 0xfc00, "-1e6 overflows to -inf"}});
}

TEST(RuntimeNumericsTest, FloatToHalfSubnormalsRoundToNearestEven) {
  expectConversions(
      floatToHalfBits,
      {{std::ldexp(1.0f, -14), 0x0400, "smallest normal 2^-14"},
       {std::ldexp(1023.0f, -24), 0x03ff, "largest subnormal"},
       {std::ldexp(1.0f, -24), 0x0001, "smallest subnormal 2^-24"},
       {std::ldexp(1.0f, -25), 0x0000, "2^-25 (tie) rounds to even 0"},
       {std::ldexp(3.0f, -26), 0x0001, "1.5*2^-25 rounds up"},
       {std::ldexp(3.0f, -25), 0x0002, "3*2^-25 (tie) rounds to even 2"},
       {std::ldexp(2047.0f, -25), 0x0400,
        "subnormal rounding carries into the smallest normal"},
       {std::ldexp(1.0f, -30), 0x0000, "tiny value flushes to 0"}});
}

TEST(RuntimeNumericsTest, FloatToHalfNormalsRoundToNearestEven) {
  expectConversions(
      floatToHalfBits,
      {{1.0f + std::ldexp(1.0f, -11), 0x3c00, "1+2^-11 (tie) rounds to even 1"},
       {1.0f + std::ldexp(3.0f, -11), 0x3c02,
        "1+3*2^-11 (tie) rounds to even 0x3c02"},
       {1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20), 0x3c01,
        "just above a tie rounds up"}});
}

TEST(RuntimeNumericsTest, FloatToHalfKeepsNaN) {
  uint16_t nanBits = floatToHalfBits(kNaN);
  EXPECT_TRUE(isHalfNaN(nanBits)) << hex(nanBits);
  // Truncating the mantissa would drop these payload bits and leave inf.
  uint16_t lowPayloadNaN = floatToHalfBits(floatFromBits(0x7f800001u));
  EXPECT_TRUE(isHalfNaN(lowPayloadNaN))
      << "NaN with only low payload bits: " << hex(lowPayloadNaN);
}

TEST(RuntimeNumericsTest, HalfToFloatSpecialValues) {
  EXPECT_TRUE(std::signbit(halfBitsToFloat(0x8000))) << "-0";
  EXPECT_EQ(halfBitsToFloat(0x8000), 0.0f) << "-0";
  EXPECT_EQ(halfBitsToFloat(0x0001), std::ldexp(1.0f, -24))
      << "smallest subnormal";
  EXPECT_EQ(halfBitsToFloat(0x7bff), 65504.0f) << "max";
  EXPECT_EQ(halfBitsToFloat(0xfc00), -kInf) << "-inf";
  EXPECT_TRUE(std::isnan(halfBitsToFloat(0x7e00))) << "NaN";
}

TEST(RuntimeNumericsTest, HalfRoundTripsExactlyForAll65536Patterns) {
  int mismatches = 0;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    uint16_t half = static_cast<uint16_t>(bits);
    uint16_t back = floatToHalfBits(halfBitsToFloat(half));
    mismatches += !(isHalfNaN(half) ? isHalfNaN(back) : back == half);
  }
  EXPECT_EQ(mismatches, 0) << "f16->f32->f16 mismatches";
}

//===----------------------------------------------------------------------===//
// bf16
//===----------------------------------------------------------------------===//

TEST(RuntimeNumericsTest, FloatToBf16ExactValues) {
  expectConversions(floatToBf16Bits,
                    {{0.0f, 0x0000, "0"},
                     {-0.0f, 0x8000, "-0"},
                     {1.0f, 0x3f80, "1"},
                     {kInf, 0x7f80, "inf"},
                     {-kInf, 0xff80, "-inf"},
                     {bf16BitsToFloat(0x7f7f), 0x7f7f, "max finite"}});
}

TEST(RuntimeNumericsTest, FloatToBf16NormalsRoundToNearestEven) {
  expectConversions(
      floatToBf16Bits,
      {{std::numeric_limits<float>::max(), 0x7f80, "f32 max rounds to inf"},
       {1.0f + std::ldexp(1.0f, -8), 0x3f80, "1+2^-8 (tie) rounds to even 1"},
       {1.0f + std::ldexp(3.0f, -8), 0x3f82,
        "1+3*2^-8 (tie) rounds to even 0x3f82"}});
}

TEST(RuntimeNumericsTest, FloatToBf16SubnormalsRoundToNearestEven) {
  expectConversions(floatToBf16Bits,
                    {{floatFromBits(0x00010000u), 0x0001, "smallest subnormal"},
                     {floatFromBits(0x00008000u), 0x0000,
                      "half the smallest subnormal (tie) rounds to even 0"},
                     {floatFromBits(0x00018000u), 0x0002,
                      "1.5 smallest subnormals (tie) rounds to even 2"}});
}

TEST(RuntimeNumericsTest, FloatToBf16KeepsNaN) {
  uint16_t nanBits = floatToBf16Bits(kNaN);
  EXPECT_TRUE(isBf16NaN(nanBits)) << hex(nanBits);
  // Truncating the mantissa would drop these payload bits and leave inf.
  uint16_t lowPayloadNaN = floatToBf16Bits(floatFromBits(0x7f800001u));
  EXPECT_TRUE(isBf16NaN(lowPayloadNaN))
      << "NaN with only low payload bits: " << hex(lowPayloadNaN);
}

TEST(RuntimeNumericsTest, Bf16RoundTripsExactlyForAll65536Patterns) {
  int mismatches = 0;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    uint16_t bf16 = static_cast<uint16_t>(bits);
    uint16_t back = floatToBf16Bits(bf16BitsToFloat(bf16));
    mismatches += !(isBf16NaN(bf16) ? isBf16NaN(back) : back == bf16);
  }
  EXPECT_EQ(mismatches, 0) << "bf16->f32->bf16 mismatches";
}

//===----------------------------------------------------------------------===//
// Reference softmax and log-softmax
//===----------------------------------------------------------------------===//

/// The reference softmax of one row equals `expected` element by element
/// within 1e-15, NaN only where `expected` is NaN; a failure shows the row.
testing::AssertionResult softmaxOfRowIs(const std::vector<float> &row,
                                        const std::vector<double> &expected) {
  std::vector<double> output(row.size());
  referenceSoftmax(row.data(), 1, row.size(), row.size(), output.data());
  bool matches = true;
  for (size_t i = 0; i < row.size(); ++i)
    matches &= std::isnan(expected[i])
                   ? std::isnan(output[i])
                   : std::fabs(output[i] - expected[i]) <= 1e-15;
  if (matches)
    return testing::AssertionSuccess();
  testing::AssertionResult failure = testing::AssertionFailure() << "got";
  for (double value : output)
    failure << ' ' << testing::PrintToString(value);
  return failure;
}

TEST(RuntimeNumericsTest, ReferenceSoftmaxOfFiniteRows) {
  double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
  double sum = e1 + e2 + e3;
  EXPECT_TRUE(softmaxOfRowIs({1, 2, 3}, {e1 / sum, e2 / sum, e3 / sum}))
      << "[1 2 3]";
  EXPECT_TRUE(softmaxOfRowIs({5}, {1.0})) << "N=1 gives 1";
}

// torch.softmax's results, which the reference promises.
TEST(RuntimeNumericsTest, ReferenceSoftmaxOfSpecialRowsIsTorchs) {
  EXPECT_TRUE(softmaxOfRowIs({-kInf, -kInf, -kInf}, {kNaN, kNaN, kNaN}))
      << "all -inf gives NaN row";
  EXPECT_TRUE(softmaxOfRowIs({-kInf}, {kNaN})) << "N=1 of -inf gives NaN";
  EXPECT_TRUE(softmaxOfRowIs({1, kNaN, 3}, {kNaN, kNaN, kNaN}))
      << "a NaN gives NaN row";
  EXPECT_TRUE(softmaxOfRowIs({kNaN, 1}, {kNaN, kNaN}))
      << "a leading NaN gives NaN row";
  EXPECT_TRUE(softmaxOfRowIs({-kInf, 0, -kInf, 0}, {0, 0.5, 0, 0.5}))
      << "-inf elements give 0";
  EXPECT_TRUE(softmaxOfRowIs({1, kInf}, {kNaN, kNaN})) << "+inf gives NaN row";
}

// x - max(x) reaches twice the float range here: the reference must not
// overflow to inf or NaN.
TEST(RuntimeNumericsTest, ReferenceSoftmaxNearTheFloatLimits) {
  EXPECT_TRUE(softmaxOfRowIs({3e38f, -3e38f}, {1, 0})) << "[3e38 -3e38]";
  EXPECT_TRUE(softmaxOfRowIs({3e38f, 3e38f}, {0.5, 0.5})) << "[3e38 3e38]";
  EXPECT_TRUE(softmaxOfRowIs({-3e38f, -3e38f}, {0.5, 0.5})) << "[-3e38 -3e38]";
}

TEST(RuntimeNumericsTest, ReferenceSoftmaxHonoursTheInputRowStride) {
  // Two rows of 2 columns, stored with a row stride of 3: the padding is
  // NaN, so reading it would make a NaN row.
  std::vector<float> strided = {0, 0, kNaN, 1, 1, kNaN};
  std::vector<double> output(4);
  referenceSoftmax(strided.data(), 2, 2, 3, output.data());
  EXPECT_EQ(output, std::vector<double>(4, 0.5));
}

/// log_softmax of five rows of two: two equal values, a -inf element, a
/// NaN, a +inf, only -inf.
std::vector<double> logSoftmaxOfSpecialRows() {
  std::vector<float> input = {0, 0, 1, -kInf, kNaN, 1, kInf, 1, -kInf, -kInf};
  std::vector<double> output(input.size());
  referenceLogSoftmax(input.data(), 5, 2, 2, output.data());
  return output;
}

TEST(RuntimeNumericsTest, ReferenceLogSoftmaxOfSpecialRowsIsTorchs) {
  std::vector<double> output = logSoftmaxOfSpecialRows();
  EXPECT_LT(std::fabs(output[0] + std::log(2.0)), 1e-15)
      << "equal values give -log(2): " << output[0];
  EXPECT_LT(std::fabs(output[1] + std::log(2.0)), 1e-15)
      << "equal values give -log(2): " << output[1];
  EXPECT_EQ(output[2], 0) << "a -inf element leaves the rest 0";
  EXPECT_EQ(output[3], -std::numeric_limits<double>::infinity())
      << "a -inf element gives -inf";
  for (size_t i = 4; i < output.size(); ++i)
    EXPECT_TRUE(std::isnan(output[i]))
        << "rows with NaN, +inf or only -inf are NaN: element " << i << " is "
        << output[i];
}

// Equal infinities match; an infinity where the reference is finite does
// not, and no infinity reaches the relative L2 error.
TEST(RuntimeNumericsTest, ErrorStatsMatchEqualInfinities) {
  std::vector<double> reference = logSoftmaxOfSpecialRows();
  std::vector<float> good = {-0.6931472f, -0.6931472f, 0, -kInf};
  ErrorStats exact = compareToReference(good.data(), ElementType::F32, 2, 2, 2,
                                        reference.data());
  EXPECT_TRUE(exact.nanPatternAndCoverageMatch()) << exact.summary();
  EXPECT_EQ(exact.comparedCount, 4u) << exact.summary();
  EXPECT_LT(exact.relL2Error, 1e-7) << exact.summary();
}

TEST(RuntimeNumericsTest, ErrorStatsCountAnInfinityWhereTheReferenceIsFinite) {
  std::vector<double> reference = logSoftmaxOfSpecialRows();
  std::vector<float> bad = {-0.6931472f, -kInf, 0, -kInf};
  ErrorStats wrong = compareToReference(bad.data(), ElementType::F32, 2, 2, 2,
                                        reference.data());
  EXPECT_FALSE(wrong.nanPatternAndCoverageMatch()) << wrong.summary();
  EXPECT_EQ(wrong.infMismatchCount, 1u) << wrong.summary();
}

//===----------------------------------------------------------------------===//
// Error statistics
//===----------------------------------------------------------------------===//

/// A 2x3 reference and its float rounding stored with a row stride of 4,
/// the stride padding holding the poison as a run leaves it.
class RuntimeErrorStatsTest : public testing::Test {
protected:
  RuntimeErrorStatsTest() : output(8, floatFromBits(kPoisonBitsF32)) {
    for (size_t row = 0; row < 2; ++row)
      for (size_t col = 0; col < 3; ++col)
        output[row * 4 + col] = static_cast<float>(reference[row * 3 + col]);
  }

  ErrorStats compare(const std::vector<float> &values) const {
    return compareToReference(values.data(), ElementType::F32, 2, 3, 4,
                              reference.data());
  }

  const std::vector<double> reference = {0.25, 0.25, 0.5, 0.1, 0.2, 0.7};
  std::vector<float> output;
};

TEST_F(RuntimeErrorStatsTest, FloatRoundingOfTheReferenceIsWithin1e7) {
  ErrorStats exact = compare(output);
  EXPECT_EQ(exact.comparedCount, 6u) << exact.summary();
  EXPECT_LT(exact.maxAbsError, 1e-7) << exact.summary();
  EXPECT_LT(exact.maxRelError, 1e-7) << exact.summary();
  EXPECT_LT(exact.relL2Error, 1e-7) << exact.summary();
  EXPECT_TRUE(exact.nanPatternAndCoverageMatch()) << exact.summary();
}

TEST_F(RuntimeErrorStatsTest, MaxAbsAndRelErrorAndTheirPosition) {
  output[1 * 4 + 2] = 0.7f + 0.01f;
  ErrorStats perturbed = compare(output);
  EXPECT_LT(std::fabs(perturbed.maxAbsError - 0.01), 1e-6)
      << perturbed.summary();
  EXPECT_EQ(perturbed.worstRow, 1u) << perturbed.summary();
  EXPECT_EQ(perturbed.worstCol, 2u) << perturbed.summary();
  EXPECT_LT(std::fabs(perturbed.maxRelError - 0.01 / 0.7), 1e-6)
      << perturbed.summary();
}

TEST_F(RuntimeErrorStatsTest, NaNMismatchAndUnwrittenElementCountedApart) {
  output[0] = kNaN;                          // where the reference is 0.25
  output[1] = floatFromBits(kPoisonBitsF32); // never written
  ErrorStats broken = compare(output);
  EXPECT_EQ(broken.nanMismatchCount, 1u) << broken.summary();
  EXPECT_EQ(broken.unwrittenCount, 1u) << broken.summary();
  EXPECT_EQ(broken.comparedCount, 4u) << broken.summary();
  EXPECT_FALSE(broken.nanPatternAndCoverageMatch()) << broken.summary();
}

// A write between the rows (row 0's padding) is a stray write; the last
// row's padding may lie past the buffer and is not read.
TEST_F(RuntimeErrorStatsTest, WriteBetweenRowsIsStray) {
  output[3] = 0.5f;
  ErrorStats stray = compare(output);
  EXPECT_EQ(stray.strayCount, 1u) << stray.summary();
  EXPECT_FALSE(stray.nanPatternAndCoverageMatch()) << stray.summary();
  EXPECT_NE(stray.summary().find("stray_writes=1"), std::string::npos)
      << stray.summary();
}

// NaN where the reference is NaN matches; a number there does not.
TEST(RuntimeNumericsTest, ErrorStatsNaNPositionsAndRelativeL2) {
  const std::vector<double> reference = {kNaN, kNaN, 3, 4};
  const std::vector<float> output = {kNaN, 0.5f, 3, 4.5f};
  ErrorStats stats = compareToReference(output.data(), ElementType::F32, 1, 4,
                                        4, reference.data());
  EXPECT_EQ(stats.nanMismatchCount, 1u) << stats.summary();
  EXPECT_EQ(stats.comparedCount, 2u) << stats.summary();
  EXPECT_LT(std::fabs(stats.relL2Error - 0.1), 1e-12)
      << "0.5 / ||(3,4)|| = 0.1: " << stats.summary();
  EXPECT_LT(std::fabs(stats.maxRelError - 0.125), 1e-12) << stats.summary();
}

TEST(RuntimeNumericsTest, ErrorStatsRelativeErrorFloorWhereTheReferenceIs0) {
  const std::vector<double> reference = {0.0};
  const std::vector<float> output = {1e-31f};
  ErrorStats stats = compareToReference(output.data(), ElementType::F32, 1, 1,
                                        1, reference.data());
  EXPECT_LT(std::fabs(stats.maxRelError - 0.1), 1e-6)
      << "1e-31 / the floor 1e-30: " << stats.summary();
  EXPECT_TRUE(std::isinf(stats.relL2Error)) << stats.summary();
}

TEST(RuntimeNumericsTest, ErrorStatsOf16BitOutputsWithAnUnwrittenElement) {
  const std::vector<double> reference = {0.25, 0.75, 1.0};
  const std::vector<uint16_t> half = {floatToHalfBits(0.25f), kPoisonBitsF16,
                                      floatToHalfBits(1.0f)};
  ErrorStats halfStats = compareToReference(half.data(), ElementType::F16, 1, 3,
                                            3, reference.data());
  EXPECT_EQ(halfStats.unwrittenCount, 1u) << "f16: " << halfStats.summary();
  EXPECT_EQ(halfStats.comparedCount, 2u) << "f16: " << halfStats.summary();
  EXPECT_EQ(halfStats.maxAbsError, 0) << "f16: " << halfStats.summary();

  const std::vector<uint16_t> bf16 = {floatToBf16Bits(0.25f),
                                      floatToBf16Bits(0.75f), kPoisonBitsBF16};
  ErrorStats bf16Stats = compareToReference(bf16.data(), ElementType::BF16, 1,
                                            3, 3, reference.data());
  EXPECT_EQ(bf16Stats.unwrittenCount, 1u) << "bf16: " << bf16Stats.summary();
  EXPECT_EQ(bf16Stats.comparedCount, 2u) << "bf16: " << bf16Stats.summary();
  EXPECT_EQ(bf16Stats.maxAbsError, 0) << "bf16: " << bf16Stats.summary();
}

// The poison must be NaN so that no result a kernel computes, finite or
// infinite, can pass for it.
TEST(RuntimeNumericsTest, PoisonPatternsAreNaNs) {
  EXPECT_TRUE(std::isnan(floatFromBits(kPoisonBitsF32)));
  EXPECT_TRUE(isHalfNaN(kPoisonBitsF16));
  EXPECT_TRUE(isBf16NaN(kPoisonBitsBF16));
  EXPECT_EQ(poisonBits(ElementType::F16), kPoisonBitsF16);
}

// One rule for every checker: 1e-5 relative L2 and 1e-3 an element in
// f32, 1e-2 and 0.3 in 16 bits, the bounds included, and no pass with a
// NaN where the reference has none.
TEST(RuntimeNumericsTest, ChecksPassWithinTheirTypesTolerance) {
  EXPECT_EQ(getCheckTolerance(ElementType::F32).relativeL2, 1e-5);
  EXPECT_EQ(getCheckTolerance(ElementType::F32).element, 1e-3);
  EXPECT_EQ(getCheckTolerance(ElementType::BF16).relativeL2, 1e-2);
  EXPECT_EQ(getCheckTolerance(ElementType::F16).element, 0.3);
  ErrorStats stats;
  stats.relL2Error = 1e-5;
  stats.maxElementError = 1e-3;
  EXPECT_TRUE(stats.passes(ElementType::F32));
  stats.maxElementError = 2e-3;
  EXPECT_FALSE(stats.passes(ElementType::F32));
  stats.maxElementError = 0;
  stats.relL2Error = 2e-5;
  EXPECT_FALSE(stats.passes(ElementType::F32));
  EXPECT_TRUE(stats.passes(ElementType::BF16));
  // tf32 products' f32 outputs: 1.9e-5 at K = 8192 on tensor cores passes,
  // inputs not rounded to tf32 (2.9e-4) do not.
  EXPECT_EQ(getTf32CheckTolerance().relativeL2, 1e-4);
  EXPECT_TRUE(stats.passes(getTf32CheckTolerance()));
  stats.relL2Error = 2.9e-4;
  EXPECT_FALSE(stats.passes(getTf32CheckTolerance()));
  stats.nanMismatchCount = 1;
  stats.relL2Error = 0;
  EXPECT_FALSE(stats.passes(getTf32CheckTolerance()));
  EXPECT_FALSE(stats.passes(ElementType::BF16));
}

// One wrong element of a large output: its share of the L2 error is under
// the tolerance, its own error is not. Softmax-like rows: a peak every
// thousand columns, small values between (rms 0.032); a small value
// zeroed is 3e-6 of the L2 norm and 3e-3 of the rms.
TEST(RuntimeNumericsTest, OneWrongElementFailsTheCheck) {
  size_t cols = 1 << 20;
  std::vector<double> reference(cols);
  std::vector<float> output(cols);
  for (size_t col = 0; col < cols; ++col) {
    reference[col] = col % 1000 == 0 ? 1.0 : 1e-4;
    output[col] = float(reference[col]);
  }
  EXPECT_TRUE(compareToReference(output.data(), ElementType::F32, 1, cols,
                                 cols, reference.data())
                  .passes(ElementType::F32));
  output[12345] = 0;
  ErrorStats stats = compareToReference(output.data(), ElementType::F32, 1,
                                        cols, cols, reference.data());
  EXPECT_LT(stats.relL2Error, getCheckTolerance(ElementType::F32).relativeL2)
      << stats.summary();
  EXPECT_GT(stats.maxElementError, 3e-3) << stats.summary();
  EXPECT_EQ(stats.worstElementCol, 12345u) << stats.summary();
  EXPECT_FALSE(stats.passes(ElementType::F32)) << stats.summary();
}

// An element near 0 is measured against the output's size: an error that
// is large against the element but small against the output passes.
TEST(RuntimeNumericsTest, ElementErrorFloorIsTheOutputsRms) {
  const std::vector<double> reference = {3, -4, 1e-9};
  const std::vector<float> output = {3, -4, 2e-9f};
  ErrorStats stats = compareToReference(output.data(), ElementType::F32, 1, 3,
                                        3, reference.data());
  EXPECT_GT(stats.maxRelError, 0.99) << stats.summary();
  EXPECT_LT(stats.maxElementError, 1e-9) << stats.summary();
  EXPECT_TRUE(stats.passes(ElementType::F32)) << stats.summary();
}

// Rows are compared in blocks on every core and the blocks' results
// combined in row order: of equal largest errors in two blocks the first
// keeps its place, counts add up across blocks, and the sums do not depend
// on how many cores there are (here 300 rows, five blocks).
TEST(RuntimeNumericsTest, ErrorStatsOverManyRowBlocksAreThoseOfOneWalk) {
  size_t rows = 300, cols = 7;
  std::vector<double> reference(rows * cols);
  std::vector<float> output(rows * cols);
  for (size_t i = 0; i < reference.size(); ++i) {
    reference[i] = 1.0 + double(i % 13) / 8;
    output[i] = float(reference[i]);
  }
  output[70 * cols + 3] += 0.5f;  // block 1
  output[250 * cols + 4] += 0.5f; // block 3, the same error
  output[200 * cols + 6] = std::numeric_limits<float>::quiet_NaN();
  ErrorStats stats = compareToReference(output.data(), ElementType::F32, rows,
                                        cols, cols, reference.data());
  EXPECT_EQ(stats.worstRow, 70u) << stats.summary();
  EXPECT_EQ(stats.worstCol, 3u) << stats.summary();
  EXPECT_EQ(stats.worstElementRow, 70u) << stats.summary();
  EXPECT_EQ(stats.comparedCount, rows * cols - 1) << stats.summary();
  EXPECT_EQ(stats.nanMismatchCount, 1u) << stats.summary();
  double squares = 0;
  for (double value : reference)
    squares += value * value;
  squares -= reference[200 * cols + 6] * reference[200 * cols + 6];
  EXPECT_NEAR(stats.relL2Error, std::sqrt(2 * 0.25 / squares), 1e-12)
      << stats.summary();
}

// A parameter's integer text is kept exactly: 2^53 + 1 as a double is 2^53.
TEST(RuntimeNumericsTest, ScalarValueKeepsIntegersExactly) {
  ScalarValue big = ScalarValue::fromText("9007199254740993");
  ASSERT_TRUE(big.integer.has_value());
  EXPECT_EQ(*big.integer, 9007199254740993);
  ScalarValue lowest = ScalarValue::fromText("-9223372036854775808");
  ASSERT_TRUE(lowest.integer.has_value());
  EXPECT_EQ(*lowest.integer, std::numeric_limits<int64_t>::lowest());
  for (const char *text : {"0.125", "1e3", "9223372036854775808", ""}) {
    ScalarValue value = ScalarValue::fromText(text);
    EXPECT_FALSE(value.integer.has_value()) << text;
  }
  EXPECT_EQ(ScalarValue::fromText("0.125").value, 0.125);
}

// A program of no kind that multiplies (its first input is rows x inner)
// takes a product's special rows, whose sums stay inside f32 in any order:
// a NaN a third of the way along row 0, not a softmax's -inf at its front
// nor its +-3e38 (row 4), which overflow a product's sums.
TEST(RuntimeNumericsTest, SpecialRowsOfAProgramOfNoKindFollowItsProduct) {
  ProgramShape shape{8, 6, ElementType::F32, {}};
  shape.inner = 6;
  std::vector<HostTensor> tensors(2);
  ASSERT_TRUE(HostTensor::create(
      {ArgRole::input, "a", ArgExtent::rows_by_inner, "f32", 4}, shape,
      tensors[0]));
  ASSERT_TRUE(HostTensor::create(
      {ArgRole::input, "b", ArgExtent::inner_by_cols, "f32", 4}, shape,
      tensors[1]));
  fillInputs(nullptr, shape.cols, tensors, {}, /*seed=*/1, /*special=*/true);
  const HostTensor &a = tensors[0];
  EXPECT_TRUE(std::isnan(a.get(0, 2)));
  EXPECT_TRUE(std::isfinite(a.get(0, 0)));
  EXPECT_EQ(a.get(1, 0), std::numeric_limits<double>::infinity());
  for (int64_t col = 0; col < a.getCols(); ++col)
    EXPECT_LT(std::fabs(a.get(4, col)), 1e3) << "col " << col;
}

// Integer tensors hold every i64 exactly, and an i32 saturates.
TEST(RuntimeNumericsTest, HostTensorIntegersAreExact) {
  ProgramShape shape{2, 4, ElementType::F32, {}};
  HostTensor wide, narrow;
  ASSERT_TRUE(HostTensor::create({ArgRole::input, "labels", ArgExtent::per_row,
                                  "i64", 8},
                                 shape, wide));
  ASSERT_TRUE(HostTensor::create({ArgRole::input, "labels",
                                  ArgExtent::per_row, "i32", 4},
                                 shape, narrow));
  wide.setInteger(1, 0, 9007199254740993);
  EXPECT_EQ(wide.getInteger(1, 0), 9007199254740993);
  narrow.setInteger(0, 0, int64_t(1) << 40);
  EXPECT_EQ(narrow.getInteger(0, 0), std::numeric_limits<int32_t>::max());
  narrow.setInteger(1, 0, -7);
  EXPECT_EQ(narrow.getInteger(1, 0), -7);
  EXPECT_EQ(narrow.get(1, 0), -7.0);
}

} // namespace
