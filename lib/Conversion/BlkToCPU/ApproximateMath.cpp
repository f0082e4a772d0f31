//===- ApproximateMath.cpp - the blk-approximate-math pass ----------------===//
//
// Transcendental math ops become polynomials in arith ops, so that the loops
// computing them vectorize on the host. MLIR's math dialect provides the
// approximations; this pass chooses which ops get them.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/CPUPasses.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::blk {
#define GEN_PASS_DEF_BLKAPPROXIMATEMATH
#include "blk/Conversion/CPUPasses.h.inc"
} // namespace mlir::blk

using namespace mlir;

namespace {

/// Every op with an approximation in plain arith ops. math.rsqrt is left
/// out: its approximation needs the x86vector dialect and AVX2 vectors of 8,
/// and LLVM vectorizes 1 / sqrt(x) on any host.
bool isApproximated(StringRef opName) {
  return opName != math::RsqrtOp::getOperationName();
}

struct BlkApproximateMathPass
    : public mlir::blk::impl::BlkApproximateMathBase<BlkApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // f16 and bf16 first widen to f32, where the polynomials are defined.
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError()
          << "blk-approximate-math: the rewrites did not converge";
      signalPassFailure();
    }
  }
};

} // namespace
