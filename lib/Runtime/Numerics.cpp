//===- Numerics.cpp - 16-bit floats, reference softmax, error stats -------===//
#include "blk/Runtime/Numerics.h"
#include "blk/Runtime/Parallel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace blk::runtime {

namespace {

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// value >> shift, rounded to nearest with ties to even (1 <= shift <= 31).
uint32_t shiftRightRoundingToEven(uint32_t value, unsigned shift) {
  uint32_t quotient = value >> shift;
  uint32_t remainder = value & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1)))
    ++quotient;
  return quotient;
}

constexpr uint32_t kF32ExponentMask = 0x7f800000u;
constexpr uint32_t kF32MagnitudeMask = 0x7fffffffu;
// Smallest f32 magnitude that rounds to fp16 infinity: 65520 is the midpoint
// between fp16's max (65504, odd mantissa) and 65536, so the tie goes up.
constexpr uint32_t kF32RoundsToHalfInf = 0x477ff000u;
constexpr uint32_t kF32SmallestHalfNormal = 0x38800000u; // 2^-14
// f32 biased exponent of 2^-25: anything below it is under half of fp16's
// smallest subnormal (2^-24) and rounds to zero.
constexpr uint32_t kF32ExponentOfHalfSubnormalHalfway = 102;

uint16_t halfSubnormalBits(uint32_t magnitude) {
  uint32_t exponent = magnitude >> 23;
  if (exponent < kF32ExponentOfHalfSubnormalHalfway)
    return 0;
  // magnitude = significand * 2^(exponent - 150); fp16 subnormals count
  // units of 2^-24, so shift the significand right by 126 - exponent.
  uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u;
  // Rounding up to 0x400 yields the smallest normal's bits, as it should.
  return static_cast<uint16_t>(
      shiftRightRoundingToEven(significand, 126 - exponent));
}

} // namespace

const char *elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  }
  return "?";
}

size_t elementSize(ElementType type) {
  return type == ElementType::F32 ? 4 : 2;
}

uint16_t floatToHalfBits(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & kF32MagnitudeMask;
  if (magnitude > kF32ExponentMask) {
    // NaN: keep the top payload bits and force the quiet bit, so a payload
    // living only in the dropped low bits cannot turn the NaN into inf.
    return sign | 0x7e00u | static_cast<uint16_t>((magnitude >> 13) & 0x3ffu);
  }
  if (magnitude >= kF32RoundsToHalfInf)
    return sign | 0x7c00u;
  if (magnitude < kF32SmallestHalfNormal)
    return sign | halfSubnormalBits(magnitude);
  // Rebias the exponent (127 -> 15) and round the 23-bit mantissa to 10
  // bits; a carry out of the mantissa correctly bumps the exponent.
  uint32_t rebiased = magnitude - ((127u - 15u) << 23);
  return sign | static_cast<uint16_t>(shiftRightRoundingToEven(rebiased, 13));
}

float halfBitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) // inf or NaN, payload kept
    return floatFromBits(sign | kF32ExponentMask | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24 is exact in float.
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return floatFromBits(sign | floatBits(magnitude));
  }
  return floatFromBits(sign | ((exponent + 127u - 15u) << 23) |
                       (mantissa << 13));
}

uint16_t floatToBf16Bits(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & kF32MagnitudeMask) > kF32ExponentMask) {
    // NaN: truncating could clear every payload bit and make it inf, so
    // force the quiet bit.
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  }
  // bf16 is the top half of f32: round the low 16 bits away. Overflow
  // rounds into the exponent and correctly produces inf.
  return static_cast<uint16_t>(shiftRightRoundingToEven(bits, 16));
}

float bf16BitsToFloat(uint16_t bits) {
  return floatFromBits(static_cast<uint32_t>(bits) << 16);
}

float loadAsFloat(const void *data, ElementType type, size_t index) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  if (type == ElementType::F32) {
    float value;
    std::memcpy(&value, bytes + index * 4, sizeof(value));
    return value;
  }
  uint16_t bits;
  std::memcpy(&bits, bytes + index * 2, sizeof(bits));
  return type == ElementType::F16 ? halfBitsToFloat(bits)
                                  : bf16BitsToFloat(bits);
}

uint32_t poisonBits(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return kPoisonBitsF32;
  case ElementType::F16:
    return kPoisonBitsF16;
  case ElementType::BF16:
    return kPoisonBitsBF16;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Reference softmax
//===----------------------------------------------------------------------===//

namespace {

/// Row maximum that returns NaN as soon as it meets one (std::max silently
/// drops a NaN in its second argument).
double nanPropagatingMax(const double *row, size_t cols) {
  double maximum = -std::numeric_limits<double>::infinity();
  for (size_t col = 0; col < cols; ++col) {
    double value = row[col];
    if (std::isnan(value))
      return value;
    if (value > maximum)
      maximum = value;
  }
  return maximum;
}

/// Applies `rowFunction` to each row of a float matrix, widened to double.
template <typename RowFunction>
void forEachRow(const float *input, size_t rows, size_t cols,
                size_t inputRowStride, double *output, RowFunction rowFunction) {
  std::vector<double> row(cols);
  for (size_t r = 0; r < rows; ++r) {
    std::copy_n(input + r * inputRowStride, cols, row.begin());
    rowFunction(row.data(), cols, output + r * cols);
  }
}

} // namespace

double logSumExpRow(const double *row, size_t cols) {
  double maximum = nanPropagatingMax(row, cols);
  double sum = 0;
  for (size_t col = 0; col < cols; ++col)
    sum += std::exp(row[col] - maximum);
  return maximum + std::log(sum);
}

void softmaxRow(const double *row, size_t cols, double *output) {
  double maximum = nanPropagatingMax(row, cols);
  double sum = 0;
  for (size_t col = 0; col < cols; ++col) {
    output[col] = std::exp(row[col] - maximum);
    sum += output[col];
  }
  for (size_t col = 0; col < cols; ++col)
    output[col] /= sum;
}

void logSoftmaxRow(const double *row, size_t cols, double *output) {
  double maximum = nanPropagatingMax(row, cols);
  double sum = 0;
  for (size_t col = 0; col < cols; ++col)
    sum += std::exp(row[col] - maximum);
  double logSum = std::log(sum);
  for (size_t col = 0; col < cols; ++col)
    output[col] = row[col] - maximum - logSum;
}

void referenceLogSoftmax(const float *input, size_t rows, size_t cols,
                         size_t inputRowStride, double *output) {
  forEachRow(input, rows, cols, inputRowStride, output, logSoftmaxRow);
}

void referenceSoftmax(const float *input, size_t rows, size_t cols,
                      size_t inputRowStride, double *output) {
  forEachRow(input, rows, cols, inputRowStride, output, softmaxRow);
}

//===----------------------------------------------------------------------===//
// Error statistics
//===----------------------------------------------------------------------===//

namespace {

bool holdsPoison(const void *data, ElementType type, size_t index) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  if (type == ElementType::F32) {
    uint32_t bits;
    std::memcpy(&bits, bytes + index * 4, sizeof(bits));
    return bits == kPoisonBitsF32;
  }
  uint16_t bits;
  std::memcpy(&bits, bytes + index * 2, sizeof(bits));
  return bits == poisonBits(type);
}

/// Running sums for the relative L2 error.
struct SquaredNorms {
  double difference = 0;
  double reference = 0;

  double relativeL2() const {
    if (reference == 0)
      return difference == 0 ? 0 : std::numeric_limits<double>::infinity();
    return std::sqrt(difference) / std::sqrt(reference);
  }
};

void accumulateError(double value, double reference, size_t row, size_t col,
                     ErrorStats &stats, SquaredNorms &norms) {
  // Equal infinities would otherwise give inf - inf = NaN.
  double absError = value == reference ? 0 : std::fabs(value - reference);
  double relError = absError / std::fmax(std::fabs(reference),
                                         ErrorStats::kRelativeErrorFloor);
  ++stats.comparedCount;
  if (absError > stats.maxAbsError || stats.comparedCount == 1) {
    stats.maxAbsError = absError;
    stats.worstRow = row;
    stats.worstCol = col;
  }
  stats.maxRelError = std::fmax(stats.maxRelError, relError);
  norms.difference += absError * absError;
  norms.reference += reference * reference;
}

/// A reference value as the output type can hold it: beyond its largest
/// finite value, an infinity (x - max of a huge negative x overflows f32
/// in every f32 implementation, torch's included).
double roundToRange(double value, ElementType type) {
  double largest = type == ElementType::F16 ? 65504.0
                   : type == ElementType::BF16
                       ? 3.3895313892515355e38
                       : 3.4028234663852886e38;
  return std::fabs(value) > largest ? std::copysign(INFINITY, value) : value;
}

/// Calls `visit(row, col, value, expected)` for each element of rows
/// [rowBegin, rowEnd) of the output (as compareToReference lays it out)
/// that is written, the reference as the output's type holds it
/// (roundToRange); returns how many are not.
template <typename Visit>
size_t forEachWrittenElement(const void *output, ElementType type,
                             size_t rowBegin, size_t rowEnd, size_t cols,
                             size_t outputRowStride, const double *reference,
                             Visit visit) {
  size_t unwritten = 0;
  for (size_t row = rowBegin; row < rowEnd; ++row)
    for (size_t col = 0; col < cols; ++col) {
      size_t outputIndex = row * outputRowStride + col;
      if (holdsPoison(output, type, outputIndex)) {
        ++unwritten;
        continue;
      }
      visit(row, col, loadAsFloat(output, type, outputIndex),
            roundToRange(reference[row * cols + col], type));
    }
  return unwritten;
}

/// Rows a block of the comparison holds: threads take whole blocks, and
/// the blocks' results combine in their order, so the sums are the same on
/// any number of cores. (One thread compared 2^31 bf16 elements in about
/// 30 s, longer than the rest of a checked run; test/GPU/large.mlir has
/// three.)
constexpr size_t kComparedRowsPerBlock = 64;

/// Calls compareBlock(begin, end, result) for blocks of rows on every
/// core, then combine(result) for each block in row order.
template <typename Result, typename CompareBlock, typename Combine>
void compareInRowBlocks(size_t rows, CompareBlock compareBlock,
                        Combine combine) {
  size_t blocks = (rows + kComparedRowsPerBlock - 1) / kComparedRowsPerBlock;
  std::vector<Result> results(blocks);
  forEachRowInParallel(int64_t(blocks), [&](int64_t block) {
    size_t begin = size_t(block) * kComparedRowsPerBlock;
    compareBlock(begin, std::min(rows, begin + kComparedRowsPerBlock),
                 results[block]);
  });
  for (const Result &result : results)
    combine(result);
}

/// One block's share of the first walk.
struct BlockErrors {
  ErrorStats stats;
  SquaredNorms norms;
  size_t finiteCount = 0;
};

/// Adds a later block's errors to `total`: the largest error found first
/// keeps its place, as one walk in row order would.
void combineErrors(const BlockErrors &block, ErrorStats &total,
                   SquaredNorms &norms, size_t &finiteCount) {
  const ErrorStats &part = block.stats;
  if (part.comparedCount > 0 &&
      (total.comparedCount == 0 || part.maxAbsError > total.maxAbsError)) {
    total.maxAbsError = part.maxAbsError;
    total.worstRow = part.worstRow;
    total.worstCol = part.worstCol;
  }
  total.maxRelError = std::fmax(total.maxRelError, part.maxRelError);
  total.comparedCount += part.comparedCount;
  total.nanMismatchCount += part.nanMismatchCount;
  total.infMismatchCount += part.infMismatchCount;
  total.unwrittenCount += part.unwrittenCount;
  norms.difference += block.norms.difference;
  norms.reference += block.norms.reference;
  finiteCount += block.finiteCount;
}

/// The largest element error of a block, and where.
struct WorstElement {
  double error = 0;
  size_t row = 0, col = 0;
};

} // namespace

ErrorStats compareToReference(const void *output, ElementType type, size_t rows,
                              size_t cols, size_t outputRowStride,
                              const double *reference) {
  ErrorStats stats;
  SquaredNorms norms;
  size_t finiteCount = 0;
  compareInRowBlocks<BlockErrors>(
      rows,
      [&](size_t begin, size_t end, BlockErrors &block) {
        ErrorStats &part = block.stats;
        part.unwrittenCount = forEachWrittenElement(
            output, type, begin, end, cols, outputRowStride, reference,
            [&](size_t row, size_t col, double value, double expected) {
              if (std::isnan(value) != std::isnan(expected))
                ++part.nanMismatchCount;
              else if (std::isnan(value))
                return;
              else if (std::isinf(value) || std::isinf(expected)) {
                // Exact when equal; an infinity in the norms would hide
                // every other error (relative L2 = finite / inf = 0).
                if (value == expected)
                  ++part.comparedCount;
                else
                  ++part.infMismatchCount;
              } else {
                accumulateError(value, expected, row, col, part, block.norms);
                ++block.finiteCount;
              }
            });
      },
      [&](const BlockErrors &block) {
        combineErrors(block, stats, norms, finiteCount);
      });
  for (size_t row = 0; row + 1 < rows; ++row)
    for (size_t gap = cols; gap < outputRowStride; ++gap)
      if (!holdsPoison(output, type, row * outputRowStride + gap))
        ++stats.strayCount;
  stats.relL2Error = norms.relativeL2();
  if (finiteCount == 0)
    return stats;
  // Each element against its own size, or the output's where that is
  // larger: a second walk, once the output's size is known.
  double scale =
      std::fmax(std::sqrt(norms.reference / double(finiteCount)),
                ErrorStats::kRelativeErrorFloor);
  compareInRowBlocks<WorstElement>(
      rows,
      [&](size_t begin, size_t end, WorstElement &worst) {
        forEachWrittenElement(
            output, type, begin, end, cols, outputRowStride, reference,
            [&](size_t row, size_t col, double value, double expected) {
              if (!std::isfinite(value) || !std::isfinite(expected))
                return;
              double error = std::fabs(value - expected) /
                             std::fmax(std::fabs(expected), scale);
              if (error > worst.error)
                worst = {error, row, col};
            });
      },
      [&](const WorstElement &worst) {
        if (worst.error <= stats.maxElementError)
          return;
        stats.maxElementError = worst.error;
        stats.worstElementRow = worst.row;
        stats.worstElementCol = worst.col;
      });
  return stats;
}

CheckTolerance getCheckTolerance(ElementType type) {
  if (type == ElementType::F32)
    return {1e-5, 1e-3};
  return {1e-2, 0.3};
}

CheckTolerance getTf32CheckTolerance() { return {1e-4, 1e-2}; }

bool ErrorStats::passes(ElementType type) const {
  return passes(getCheckTolerance(type));
}

bool ErrorStats::passes(const CheckTolerance &tolerance) const {
  return nanPatternAndCoverageMatch() && relL2Error <= tolerance.relativeL2 &&
         maxElementError <= tolerance.element;
}

std::string ErrorStats::summary() const {
  char line[384];
  std::snprintf(line, sizeof(line),
                "compared=%zu max_abs=%.3g (row %zu, col %zu) max_rel=%.3g "
                "rel_l2=%.3g max_elem=%.3g (row %zu, col %zu) "
                "nan_mismatches=%zu unwritten=%zu",
                comparedCount, maxAbsError, worstRow, worstCol, maxRelError,
                relL2Error, maxElementError, worstElementRow, worstElementCol,
                nanMismatchCount, unwrittenCount);
  std::string text = line;
  if (infMismatchCount)
    text += " inf_mismatches=" + std::to_string(infMismatchCount);
  if (strayCount)
    text += " stray_writes=" + std::to_string(strayCount);
  return text;
}

} // namespace blk::runtime
