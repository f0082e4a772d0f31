//===- MathOps.cpp - math ops without libdevice ---------------------------===//
//
// f32 math the row-wise kernels need, lowered to PTX's approximate
// instructions or to arithmetic, so that no libdevice is linked:
//   exp   2^(x log2 e) with ex2.approx (2 ulp; Triton's tl.exp does the same);
//   exp2  ex2.approx (MLIR's own lowering calls libdevice's __nv_exp2f);
//         both .ftz: results under 2^-126 flush to zero, which a relative
//         L2 error cannot see; without it ptxas wraps each ex2 in a range
//         check and two scalings (bf16 1024 x 65536 softmax, sm_90: 1672
//         -> 1288 instructions in the cubin's .text);
//   log   range reduction to m in [sqrt(1/2), sqrt(2)) and x = m 2^k, then
//         the polynomial of FreeBSD's e_logf.c for log(m) (under 1 ulp);
//         lg2.approx alone has an absolute error of 2^-22, which near x = 1
//         is most of the result;
//   log2  k + log(m) log2 e, exact at powers of two; with the `afn`
//         fast-math flag lg2.approx (for shifts in an exponent, where the
//         absolute error is what counts: blk-divide-in-exponent);
//   rsqrt rsqrt.approx (relative error 2^-22.9, PTX ISA);
//   fma   LLVM's fma, one fma.rn (convert-gpu-to-nvvm would call
//         libdevice's __nv_fmaf for a scalar one).
//   absf  the sign bit cleared (upstream's lowering calls __nv_fabsf);
//   sqrt  sqrt.rn, correctly rounded (upstream's calls __nv_sqrtf on a
//         thread's vector).
//   tanh  x P(x^2) / Q(x^2) on x clamped to +-7.905 (past it tanh is 1 in
//         f32), x itself under 0.0004: the rational approximation of
//         Eigen's and XLA's fast tanh. tanh.approx.f32 is faster but has a
//         relative error of 2^-11 (PTX ISA), too coarse for f32 checks.
//   erf   x P(x^2) / Q(x^2) on x clamped to +-4 (Eigen's fast erf).
//         Measured against double on the host over [-12, 12] in steps of
//         1e-5 and +-10^[-37, 1]: tanh 6.6 ulp (3.95e-7 relative), erf
//         7.1 ulp (4.6e-7 relative) at most; NaN stays NaN, +-inf gives
//         +-1 (test/GPU/math-functions.mlir checks them on the GPU).
//   powf  exp2(y log2|x|) with the log2 above and ex2.approx, then C's
//         special cases (x < 0 and an integer y: the sign of an odd power;
//         a finite x < 0 and a non-integer y: NaN; pow(x, 0) = pow(1, y)
//         = 1). The error
//         grows with |y log2 x|: about 2^-24 |y log2 x| ln 2, plus 2 ulp.
// The intrinsics are scalar: a thread's vector goes element by element.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// 2^x, subnormal results flushed to zero (the file header says why).
constexpr llvm::StringLiteral kEx2Intrinsic = "llvm.nvvm.ex2.approx.ftz.f32";

Value callIntrinsic(OpBuilder &builder, Location loc, StringRef name,
                    Value x) {
  return LLVM::CallIntrinsicOp::create(builder, loc, builder.getF32Type(),
                                       builder.getStringAttr(name),
                                       ValueRange{x})
      .getResult(0);
}

/// x = m 2^k with m in [sqrt(1/2), sqrt(2)): k (as f32) and log(m), for a
/// positive finite or subnormal x; other inputs are the caller's.
std::pair<Value, Value> reduceForLog(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  auto i32c = [&](int64_t v) { return createI32Constant(b, loc, v); };
  // Subnormals are scaled into the normal range first.
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value subnormal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          bits, i32c(0x00800000));
  Value scaled = arith::SelectOp::create(
      b, loc, subnormal,
      arith::MulFOp::create(b, loc, x, createF32Constant(b, loc, 0x1p25)), x);
  Value exponentBias = arith::SelectOp::create(b, loc, subnormal,
                                               i32c(-25 - 0x7f), i32c(-0x7f));
  // Shift the mantissa range so that m lands in [sqrt(1/2), sqrt(2)).
  Value shifted = arith::AddIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32, scaled),
      i32c(0x3f800000 - 0x3f3504f3));
  Value k = arith::AddIOp::create(
      b, loc, arith::ShRSIOp::create(b, loc, shifted, i32c(23)),
      exponentBias);
  Value mBits = arith::AddIOp::create(
      b, loc, arith::AndIOp::create(b, loc, shifted, i32c(0x007fffff)),
      i32c(0x3f3504f3));
  Value m = arith::BitcastOp::create(b, loc, b.getF32Type(), mBits);
  // log(m) = f - f^2/2 + s (f^2/2 + R(s^2)), f = m - 1, s = f / (2 + f).
  auto mul = [&](Value l, Value r) { return arith::MulFOp::create(b, loc, l, r); };
  auto add = [&](Value l, Value r) { return arith::AddFOp::create(b, loc, l, r); };
  Value f = arith::SubFOp::create(b, loc, m, createF32Constant(b, loc, 1.0));
  Value s =
      arith::DivFOp::create(b, loc, f, add(createF32Constant(b, loc, 2.0), f));
  Value z = mul(s, s), w = mul(z, z);
  Value t1 = mul(w, add(createF32Constant(b, loc, 0.40000972152),
                        mul(w, createF32Constant(b, loc, 0.24279078841))));
  Value t2 = mul(z, add(createF32Constant(b, loc, 0.66666662693),
                        mul(w, createF32Constant(b, loc, 0.28498786688))));
  Value halfSquare = mul(createF32Constant(b, loc, 0.5), mul(f, f));
  Value logM = add(arith::SubFOp::create(b, loc, mul(s, add(halfSquare,
                                                            add(t2, t1))),
                                         halfSquare),
                   f);
  Value kFloat = arith::SIToFPOp::create(b, loc, b.getF32Type(), k);
  return {kFloat, logM};
}

/// log's and log2's special cases, as libm gives them: log(+-0) = -inf,
/// log(x < 0) = NaN, log(+inf) = +inf, NaN stays NaN.
Value applyLogSpecialCases(OpBuilder &b, Location loc, Value x,
                           Value result) {
  auto cmp = [&](arith::CmpFPredicate predicate, Value l, Value r) {
    return arith::CmpFOp::create(b, loc, predicate, l, r);
  };
  Value zero = createF32Constant(b, loc, 0.0);
  Value inf = createF32Constant(b, loc, INFINITY);
  result = arith::SelectOp::create(
      b, loc, cmp(arith::CmpFPredicate::OEQ, x, inf), inf, result);
  result =
      arith::SelectOp::create(b, loc, cmp(arith::CmpFPredicate::OEQ, x, zero),
                              createF32Constant(b, loc, -INFINITY), result);
  // Unordered or less than zero: NaN or negative.
  return arith::SelectOp::create(b, loc,
                                 cmp(arith::CmpFPredicate::ULT, x, zero),
                                 createF32Constant(b, loc, NAN), result);
}

Value createLog(OpBuilder &b, Location loc, Value x) {
  auto [k, logM] = reduceForLog(b, loc, x);
  // k ln 2 in two parts (ln2_hi has trailing zero bits, so k ln2_hi is
  // exact), the small one added first.
  Value low = arith::AddFOp::create(
      b, loc, logM,
      arith::MulFOp::create(b, loc, k,
                            createF32Constant(b, loc, 9.0580006145e-06)));
  Value result = arith::AddFOp::create(
      b, loc, low,
      arith::MulFOp::create(b, loc, k,
                            createF32Constant(b, loc, 6.9313812256e-01)));
  return applyLogSpecialCases(b, loc, x, result);
}

Value createLog2(OpBuilder &b, Location loc, Value x) {
  auto [k, logM] = reduceForLog(b, loc, x);
  Value result = arith::AddFOp::create(
      b, loc, k,
      arith::MulFOp::create(b, loc, logM,
                            createF32Constant(b, loc, 1.4426950408889634)));
  return applyLogSpecialCases(b, loc, x, result);
}

Value createExp2(OpBuilder &b, Location loc, Value x) {
  return callIntrinsic(b, loc, kEx2Intrinsic, x);
}

Value createApproximateLog2(OpBuilder &b, Location loc, Value x) {
  return callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.ftz.f", x);
}

Value createRsqrt(OpBuilder &b, Location loc, Value x) {
  return callIntrinsic(b, loc, "llvm.nvvm.rsqrt.approx.f", x);
}

/// sqrt.rn: correctly rounded (upstream's lowering of a thread's vector
/// calls libdevice's __nv_sqrtf for each element).
Value createSqrt(OpBuilder &b, Location loc, Value x) {
  return callIntrinsic(b, loc, "llvm.nvvm.sqrt.rn.f", x);
}

/// |x| by clearing the sign bit: convert-gpu-to-nvvm turns fabs, LLVM's
/// or math's, into a call of libdevice's __nv_fabsf.
Value createAbs(OpBuilder &b, Location loc, Value x) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  Value magnitude = arith::AndIOp::create(
      b, loc, bits, createI32Constant(b, loc, 0x7fffffff));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), magnitude);
}

/// The value of an odd function approximated as x P(x^2) / Q(x^2), with x
/// clamped to [-limit, limit] (NaN passes through the clamp);
/// coefficients from the highest power down.
Value createOddRational(OpBuilder &b, Location loc, Value x, float limit,
                        ArrayRef<float> numerator,
                        ArrayRef<float> denominator) {
  auto cmp = [&](arith::CmpFPredicate predicate, Value l, Value r) {
    return arith::CmpFOp::create(b, loc, predicate, l, r);
  };
  Value high = createF32Constant(b, loc, limit);
  Value low = createF32Constant(b, loc, -limit);
  Value clamped = arith::SelectOp::create(
      b, loc, cmp(arith::CmpFPredicate::OGT, x, high), high,
      arith::SelectOp::create(b, loc, cmp(arith::CmpFPredicate::OLT, x, low),
                              low, x));
  Value square = arith::MulFOp::create(b, loc, clamped, clamped);
  auto horner = [&](ArrayRef<float> coefficients) {
    Value sum = createF32Constant(b, loc, coefficients.front());
    for (float c : coefficients.drop_front())
      sum = arith::AddFOp::create(b, loc,
                                  arith::MulFOp::create(b, loc, sum, square),
                                  createF32Constant(b, loc, c));
    return sum;
  };
  Value p = arith::MulFOp::create(b, loc, clamped, horner(numerator));
  return arith::DivFOp::create(b, loc, p, horner(denominator));
}

Value createTanh(OpBuilder &b, Location loc, Value x) {
  Value rational = createOddRational(
      b, loc, x, 7.90531110763549805f,
      {-2.76076847742355e-16f, 2.00018790482477e-13f, -8.60467152213735e-11f,
       5.12229709037114e-08f, 1.48572235717979e-05f, 6.37261928875436e-04f,
       4.89352455891786e-03f},
      {1.19825839466702e-06f, 1.18534705686654e-04f, 2.26843463243900e-03f,
       4.89352518554385e-03f});
  // tanh(x) = x in f32 under 0.0004, where the quotient loses a bit.
  Value tiny = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OLT, createAbs(b, loc, x),
      createF32Constant(b, loc, 0.0004));
  return arith::SelectOp::create(b, loc, tiny, x, rational);
}

Value createErf(OpBuilder &b, Location loc, Value x) {
  return createOddRational(
      b, loc, x, 4.0f,
      {-2.72614225801306e-10f, 2.77068142495902e-08f, -2.10102402082508e-06f,
       -5.69250639462346e-05f, -7.34990630326855e-04f, -2.95459980854025e-03f,
       -1.60960333262415e-02f},
      {-1.45660718464996e-05f, -2.13374055278905e-04f, -1.68282697438203e-03f,
       -7.37332916720468e-03f, -1.42647390514189e-02f});
}

/// x^y as C's powf: the file header says how.
Value createPowf(OpBuilder &b, Location loc, Value x, Value y) {
  auto cmp = [&](arith::CmpFPredicate predicate, Value l, Value r) {
    return arith::CmpFOp::create(b, loc, predicate, l, r);
  };
  auto select = [&](Value condition, Value t, Value f) {
    return arith::SelectOp::create(b, loc, condition, t, f);
  };
  auto f32 = [&](double v) { return createF32Constant(b, loc, v); };
  Value magnitude = createExp2(
      b, loc,
      arith::MulFOp::create(b, loc, y,
                            createLog2(b, loc, createAbs(b, loc, x))));
  // An integer y, and an odd one (every |y| >= 2^24 is even; inf is none).
  Value integer = cmp(arith::CmpFPredicate::OEQ,
                      LLVM::FTruncOp::create(b, loc, y), y);
  Value half = arith::MulFOp::create(b, loc, y, f32(0.5));
  Value odd = arith::AndIOp::create(
      b, loc, integer,
      cmp(arith::CmpFPredicate::ONE, LLVM::FTruncOp::create(b, loc, half),
          half));
  Value negative = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::slt,
      arith::BitcastOp::create(b, loc, b.getI32Type(), x),
      createI32Constant(b, loc, 0));
  Value result =
      select(arith::AndIOp::create(b, loc, odd, negative),
             arith::NegFOp::create(b, loc, magnitude), magnitude);
  // A finite negative base and a non-integer y: NaN (pow(-inf, 0.5) is
  // +inf: the magnitude's).
  Value finiteNegative = arith::AndIOp::create(
      b, loc, cmp(arith::CmpFPredicate::OLT, x, f32(0.0)),
      cmp(arith::CmpFPredicate::OGT, x, f32(-INFINITY)));
  result = select(arith::AndIOp::create(
                      b, loc, finiteNegative,
                      arith::XOrIOp::create(
                          b, loc, integer,
                          arith::ConstantIntOp::create(b, loc, 1, 1))),
                  f32(NAN), result);
  // pow(x, +-0) = pow(1, y) = pow(-1, +-inf) = 1, NaNs included.
  Value one = arith::OrIOp::create(
      b, loc, cmp(arith::CmpFPredicate::OEQ, y, f32(0.0)),
      cmp(arith::CmpFPredicate::OEQ, x, f32(1.0)));
  one = arith::OrIOp::create(
      b, loc, one,
      arith::AndIOp::create(
          b, loc, cmp(arith::CmpFPredicate::OEQ, x, f32(-1.0)),
          cmp(arith::CmpFPredicate::OEQ, createAbs(b, loc, y),
              f32(INFINITY))));
  return select(one, f32(1.0), result);
}

/// Replaces `op` by `lower` applied to its operands: scalars at once, a
/// thread's vectors element by element (the intrinsics are scalar).
template <typename Lower>
void replaceByElements(Operation *op, ValueRange operands,
                       ConversionPatternRewriter &rewriter, Lower lower) {
  Location loc = op->getLoc();
  auto vectorType = dyn_cast<VectorType>(operands.front().getType());
  if (!vectorType) {
    rewriter.replaceOp(op, lower(rewriter, loc, operands));
    return;
  }
  SmallVector<SmallVector<Value>> elements;
  for (Value operand : operands)
    elements.push_back(extractElements(rewriter, loc, operand));
  SmallVector<Value> results;
  for (size_t i = 0; i < elements.front().size(); ++i) {
    SmallVector<Value> scalars;
    for (const SmallVector<Value> &operandElements : elements)
      scalars.push_back(operandElements[i]);
    results.push_back(lower(rewriter, loc, scalars));
  }
  rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vectorType,
                                                      results);
}

/// A unary or binary lowering applied to one element of each operand.
Value applyLowering(Value (*lower)(OpBuilder &, Location, Value), OpBuilder &b,
                    Location loc, ValueRange x) {
  return lower(b, loc, x[0]);
}
Value applyLowering(Value (*lower)(OpBuilder &, Location, Value, Value),
                    OpBuilder &b, Location loc, ValueRange x) {
  return lower(b, loc, x[0], x[1]);
}

/// Replaces an f32 math op by `lower` (unary or binary) applied to each
/// element of its operands.
template <typename MathOp, auto lower>
struct LowerF32Math : public OpConversionPattern<MathOp> {
  using OpConversionPattern<MathOp>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<MathOp>::OpAdaptor;
  LogicalResult
  matchAndRewrite(MathOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    replaceByElements(op, adaptor.getOperands(), rewriter,
                      [](OpBuilder &b, Location loc, ValueRange x) {
                        return applyLowering(lower, b, loc, x);
                      });
    return success();
  }
};

/// log2 with `afn` (approximate functions allowed).
struct LowerApproximateLog2
    : public LowerF32Math<math::Log2Op, createApproximateLog2> {
  using LowerF32Math::LowerF32Math;
  LogicalResult
  matchAndRewrite(math::Log2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!arith::bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "log2 without afn");
    return LowerF32Math::matchAndRewrite(op, adaptor, rewriter);
  }
};

/// math.fma, scalar or a thread's vector, as LLVM's fma.
struct LowerFma : public OpConversionPattern<math::FmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::FmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not an f32 fma");
    rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, type, adaptor.getA(),
                                             adaptor.getB(), adaptor.getC());
    return success();
  }
};

} // namespace

Value mlir::blk::createExp(OpBuilder &b, Location loc, Value x) {
  Value scaled = arith::MulFOp::create(
      b, loc, x, createF32Constant(b, loc, 1.4426950408889634));
  return callIntrinsic(b, loc, kEx2Intrinsic, scaled);
}

void mlir::blk::populateMathOpPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  // Before the generic elementwise pattern, which would keep the op.
  patterns.add<LowerF32Math<math::ExpOp, createExp>,
               LowerF32Math<math::Exp2Op, createExp2>,
               LowerF32Math<math::LogOp, createLog>,
               LowerF32Math<math::Log2Op, createLog2>,
               LowerF32Math<math::RsqrtOp, createRsqrt>,
               LowerF32Math<math::AbsFOp, createAbs>,
               LowerF32Math<math::SqrtOp, createSqrt>,
               LowerF32Math<math::TanhOp, createTanh>,
               LowerF32Math<math::ErfOp, createErf>,
               LowerF32Math<math::PowFOp, createPowf>>(
      converter, patterns.getContext(), /*benefit=*/2);
  patterns.add<LowerFma>(converter, patterns.getContext(), /*benefit=*/2);
  patterns.add<LowerApproximateLog2>(converter, patterns.getContext(),
                                     /*benefit=*/3);
}

void mlir::blk::markMathOpsIllegal(ConversionTarget &target) {
  target.addIllegalOp<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
                      math::RsqrtOp, math::FmaOp, math::AbsFOp, math::SqrtOp,
                      math::TanhOp, math::ErfOp, math::PowFOp>();
}
