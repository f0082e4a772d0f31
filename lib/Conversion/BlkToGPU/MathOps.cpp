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

/// Replaces a unary f32 math op by `lower` applied to each element.
template <typename MathOp, Value (*lower)(OpBuilder &, Location, Value)>
struct LowerF32Math : public OpConversionPattern<MathOp> {
  using OpConversionPattern<MathOp>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<MathOp>::OpAdaptor;
  LogicalResult
  matchAndRewrite(MathOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    auto vectorType = dyn_cast<VectorType>(x.getType());
    if (!vectorType) {
      rewriter.replaceOp(op, lower(rewriter, loc, x));
      return success();
    }
    SmallVector<Value> elements;
    for (Value element : extractElements(rewriter, loc, x))
      elements.push_back(lower(rewriter, loc, element));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vectorType,
                                                        elements);
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
               LowerF32Math<math::RsqrtOp, createRsqrt>>(
      converter, patterns.getContext(), /*benefit=*/2);
  patterns.add<LowerFma>(converter, patterns.getContext(), /*benefit=*/2);
  patterns.add<LowerApproximateLog2>(converter, patterns.getContext(),
                                     /*benefit=*/3);
}

void mlir::blk::markMathOpsIllegal(ConversionTarget &target) {
  target.addIllegalOp<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
                      math::RsqrtOp, math::FmaOp>();
}
