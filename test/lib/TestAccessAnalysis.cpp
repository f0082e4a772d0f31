//===- TestAccessAnalysis.cpp - print what AccessAnalysis proves ----------===//
//
// `softmax-opt --blk-test-print-access` (Triton's -test-print-alignment):
// a remark on every integer value and pointer with the facts AccessAnalysis
// proves of it, and on every load and store with the vector width it
// allows and whether it may be realigned at run time. test/Analysis checks
// the remarks with -verify-diagnostics, so the analysis is tested alone,
// not only through the layouts and PTX it decides.
//
//===----------------------------------------------------------------------===//
#include "blk/Analysis/AccessAnalysis.h"
#include "blk/IR/BlkDialect.h"
#include "blk/Target/TargetInfo.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::blk;

namespace {

/// Integers, indices and masks (i1: their constancy says whether a mask is
/// the same over a vector's run).
bool isInteger(Type type) {
  return isa<IntegerType, IndexType>(getElementTypeOrSelf(type));
}

struct TestPrintAccessPass
    : public PassWrapper<TestPrintAccessPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAccessPass)

  StringRef getArgument() const final { return "blk-test-print-access"; }
  StringRef getDescription() const final {
    return "Remark, on each integer value, pointer, load and store, what "
           "AccessAnalysis proves of it (for tests)";
  }

  void runOnOperation() override {
    AccessAnalysis analysis;
    getOperation().walk([&](Operation *op) {
      for (Value result : op->getResults())
        remarkFacts(op, result, analysis);
      if (auto access = dyn_cast<MemoryAccessOpInterface>(op))
        remarkAccess(access, analysis);
    });
  }

  static void remarkFacts(Operation *op, Value value,
                          AccessAnalysis &analysis) {
    if (isa<PtrType>(value.getType())) {
      op->emitRemark() << "pointer divisibility = "
                       << analysis.getPointerDivisibility(value) << " bytes";
      return;
    }
    if (!isInteger(value.getType()))
      return;
    IntegerFacts facts = analysis.getFacts(value);
    op->emitRemark() << "divisibility = " << facts.divisibility
                     << ", contiguity = " << facts.contiguity
                     << ", constancy = " << facts.constancy;
  }

  /// The widest vector a thread may move: 16 bytes of the base's elements,
  /// along the whole last dimension of the offsets block; for a static 2-D
  /// block also down its columns, and whether the mask is the same over
  /// such a run.
  static void remarkAccess(MemoryAccessOpInterface access,
                           AccessAnalysis &analysis) {
    auto offsets = cast<RankedTensorType>(access.getOffsets().getType());
    int64_t vectorElements =
        kVectorBytes / access.getBase().getType().getElementBytes();
    int64_t maxElements = vectorElements;
    if (offsets.hasStaticShape())
      maxElements = std::min(maxElements, offsets.getShape().back());
    InFlightDiagnostic remark = access->emitRemark();
    remark << "vector width = "
           << analysis.getVectorWidth(access.getBase(), access.getOffsets(),
                                      maxElements)
           << ", realignable = "
           << (analysis.isRealignable(access) ? "yes" : "no");
    if (offsets.getRank() != 2 || !offsets.hasStaticShape())
      return;
    int64_t down = analysis.getColumnVectorWidth(
        access.getBase(), access.getOffsets(),
        std::min(vectorElements, offsets.getShape().front()));
    remark << "; down columns: vector width = " << down;
    if (Value mask = access.getMask())
      remark << ", mask whole = "
             << (analysis.isUniformOverRuns(mask, down, /*downColumns=*/true)
                     ? "yes"
                     : "no");
  }
};

} // namespace

namespace mlir::blk::test {
void registerTestPasses() { PassRegistration<TestPrintAccessPass>(); }
} // namespace mlir::blk::test
