//===- Numerics.h - fp16/bf16, reference softmax, error stats ---*- C++ -*-===//
//
// Host-side numerics used to check GPU softmax kernels:
//   * bit-exact float <-> fp16 / bf16 conversions (round to nearest even,
//     inf and NaN preserved), so 16-bit data can be staged on the host
//     without a compiler's _Float16 support;
//   * a double-precision reference softmax with torch.softmax semantics;
//   * error statistics of a kernel's output against that reference, which
//     also detect elements the kernel never wrote (poison patterns).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_NUMERICS_H
#define BLK_RUNTIME_NUMERICS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace blk::runtime {

//===----------------------------------------------------------------------===//
// Element types and 16-bit conversions
//===----------------------------------------------------------------------===//

enum class ElementType { F32, F16, BF16 };

/// "f32", "f16" or "bf16".
const char *elementTypeName(ElementType type);
/// 4 for F32, 2 for the 16-bit types.
size_t elementSize(ElementType type);

uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBf16Bits(float value);
float bf16BitsToFloat(uint16_t bits);

/// Element `index` of a dense array of `type` elements, widened to float.
float loadAsFloat(const void *data, ElementType type, size_t index);

//===----------------------------------------------------------------------===//
// Poison patterns
//===----------------------------------------------------------------------===//
//
// Fill an output buffer with the poison pattern of its element type before
// a launch (CudaDriver's DeviceBuffer::fill32 / fill16); any element still
// holding it afterwards was never written. The patterns are signaling NaNs
// with a recognizable payload: GPU arithmetic only ever produces quiet NaNs,
// so a kernel cannot produce them by computing. They are compared as raw
// bits; never route them through float arithmetic (that quiets them).

constexpr uint32_t kPoisonBitsF32 = 0x7fbadbadu;
constexpr uint16_t kPoisonBitsF16 = 0x7dadu;
constexpr uint16_t kPoisonBitsBF16 = 0x7fadu;

/// The poison pattern of `type`, zero-extended to 32 bits.
uint32_t poisonBits(ElementType type);

//===----------------------------------------------------------------------===//
// Reference softmax
//===----------------------------------------------------------------------===//

/// Softmax along each of `rows` rows of `cols` elements, in double:
/// m = max(row) (NaN if any element is NaN), e = exp(x - m), y = e / sum(e).
/// This is torch.softmax's formula, so special rows come out as torch gives
/// them: a row with a NaN, a row of all -inf, or a row with a +inf is NaN
/// everywhere; -inf elements of an otherwise finite row give 0.
/// Row r of the input starts at input[r * inputRowStride] (in elements);
/// the output is dense: output[r * cols + c].
void referenceSoftmax(const float *input, size_t rows, size_t cols,
                      size_t inputRowStride, double *output);

/// One row of referenceSoftmax, in double.
void softmaxRow(const double *row, size_t cols, double *output);
/// One row of referenceLogSoftmax, in double.
void logSoftmaxRow(const double *row, size_t cols, double *output);
/// m + log(sum(exp(x - m))), m the row's maximum: log_softmax's shift, so
/// NaN where log_softmax is NaN (a NaN, a +inf or only -inf in the row).
double logSumExpRow(const double *row, size_t cols);

/// Log-softmax in double, torch.log_softmax's formula
/// y = x - m - log(sum(exp(x - m))): a row with a NaN, a +inf, or only -inf
/// is NaN everywhere; a -inf element of an otherwise finite row gives -inf.
/// Same layout as referenceSoftmax.
void referenceLogSoftmax(const float *input, size_t rows, size_t cols,
                         size_t inputRowStride, double *output);

//===----------------------------------------------------------------------===//
// Error statistics
//===----------------------------------------------------------------------===//

/// What a checked float output may differ from its reference by: its
/// relative L2 error (ErrorStats::relL2Error) and each element's
/// (ErrorStats::maxElementError).
struct CheckTolerance {
  double relativeL2;
  double element;
};

struct ErrorStats {
  /// Elements where both output and reference are non-NaN; the finite
  /// ones feed the three error measures (equal infinities count here with
  /// no error).
  size_t comparedCount = 0;
  double maxAbsError = 0;
  /// max |y - ref| / max(|ref|, kRelativeErrorFloor). The floor keeps
  /// elements whose reference is 0 (or underflows the output type) from
  /// dividing by zero while still counting them.
  double maxRelError = 0;
  /// ||y - ref||_2 / ||ref||_2 over the compared elements; 0 when both norms
  /// are 0, +inf when only ||ref||_2 is.
  double relL2Error = 0;
  /// max |y - ref| / max(|ref|, rms(ref)) over the compared finite
  /// elements, rms(ref) the root mean square of their reference: an
  /// element's error against its own size, or against the output's where
  /// it is smaller (a 0, a cancellation). The L2 error averages a few
  /// wrong elements of a large output away; this does not.
  double maxElementError = 0;
  /// Elements where exactly one of output and reference is NaN.
  size_t nanMismatchCount = 0;
  /// Elements where output or reference is infinite and they differ
  /// (equal infinities count as compared, with no error).
  size_t infMismatchCount = 0;
  /// Elements still holding the poison pattern. These count nowhere else.
  size_t unwrittenCount = 0;
  /// Elements between rows (past a row's `cols`, before the next row's
  /// start) that no longer hold the poison pattern: the kernel wrote
  /// outside its rows.
  size_t strayCount = 0;
  /// Position (row, col) of the largest absolute error, for diagnostics.
  size_t worstRow = 0, worstCol = 0;
  /// Position of the largest maxElementError.
  size_t worstElementRow = 0, worstElementCol = 0;

  static constexpr double kRelativeErrorFloor = 1e-30;

  /// True when every element was written, nothing between rows was, and
  /// NaN and infinity positions match; the error measures still need the
  /// caller's tolerance.
  bool nanPatternAndCoverageMatch() const {
    return nanMismatchCount == 0 && infMismatchCount == 0 &&
           unwrittenCount == 0 && strayCount == 0;
  }
  /// The check every checker applies (softmax-run, the embed example): NaN,
  /// infinity and coverage match, and the errors are within
  /// getCheckTolerance(type).
  bool passes(ElementType type) const;
  /// The same within `tolerance` (getTf32CheckTolerance's outputs).
  bool passes(const CheckTolerance &tolerance) const;
  /// One line: "compared=... max_abs=... max_rel=... rel_l2=... max_elem=..."
  /// (inf_mismatches and stray_writes only when there are any).
  std::string summary() const;
};

/// 1e-5 relative L2 and 1e-3 an element in f32; 1e-2 and 0.3 in 16-bit
/// types, whose rounding alone is 2^-9 (bf16) or 2^-12 (f16) an element.
/// An element's bound is far below a wrong element's error (1 where a 0
/// is written) and above what correct programs give: f32 outputs at most
/// 8.3e-7 over the lit suite's CPU checks; 16-bit outputs whose program
/// rounds its intermediates to 16 bits have long tails (the bf16
/// attention backward's dq, 512 x 512 x 128 with --special: 0.058 where
/// its relative L2 error is 0.0035).
CheckTolerance getCheckTolerance(ElementType type);

/// What an f32 output of a program that multiplies f32 inputs as tf32 may
/// differ from that program in float64 (which rounds the inputs alike):
/// 1e-4 relative L2, 1e-2 an element. Tensor cores do not round their f32
/// sums to nearest, an error that grows with K (H100, mma.sync m16n8k8:
/// rel_l2 9.6e-6 at K = 4096, 1.9e-5 at 8192); inputs not rounded as tf32
/// rounds them are 2.9e-4 off (test/Runtime/dot-tf32.mlir) and still fail.
CheckTolerance getTf32CheckTolerance();

/// Compares a kernel's output (`rows` x `cols` elements of `type`, row r at
/// element offset r * outputRowStride, the gaps between rows poisoned
/// before the run) against a dense double reference;
/// a reference value beyond the largest finite value of `type` stands for
/// the infinity an output of that type holds there.
ErrorStats compareToReference(const void *output, ElementType type, size_t rows,
                              size_t cols, size_t outputRowStride,
                              const double *reference);

} // namespace blk::runtime

#endif // BLK_RUNTIME_NUMERICS_H
