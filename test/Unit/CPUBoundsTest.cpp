//===- CPUBoundsTest.cpp - a checked CPU access stays in its own buffer ---===//
//
// A bounds-checked CPU run tests each access against the buffer of the
// kernel argument its pointer was computed from. With the run's buffers
// side by side in one allocation (x, then y), a read past x's end lands in
// y: checked against any buffer it passed (rc 0, y's data read as x's).
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Driver.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::blk;

namespace {

// Reads x[8 .. 15] of a row of 8: past x, inside y.
const char *kReadPast = R"mlir(
func.func @read_past(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                     %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                     %n_rows: i32 {blk.arg = #blk.arg<rows>},
                     %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %cols = blk.arange 0 to 8 : tensor<8xi32>
  %eight = arith.constant dense<8> : tensor<8xi32>
  %past = arith.addi %cols, %eight : tensor<8xi32>
  %v = blk.load %in[%past] : !blk.ptr<f32>, tensor<8xi32> -> tensor<8xf32>
  blk.store %out[%cols], %v : !blk.ptr<f32>, tensor<8xi32>, tensor<8xf32>
  return
}
)mlir";

TEST(CPUBoundsTest, ReadPastItsBufferIntoTheNext) {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  std::string messages;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &d) {
    messages += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> program =
      parseSourceString<ModuleOp>(kReadPast, &context, "read_past.mlir");
  ASSERT_TRUE(program) << messages;
  ProblemDesc problem;
  problem.rows = 1;
  problem.cols = 8;
  CompileOptions options;
  options.target = TargetKind::CPU;
  options.checkBounds = true;
  FailureOr<CompiledProgram> compiled =
      compileForProblem(*program, problem, options);
  ASSERT_TRUE(succeeded(compiled)) << messages;

  float memory[16] = {};
  float *x = memory, *y = memory + 8;
  compiled->cpuKernels->setBuffers(
      {{x, 8 * sizeof(float), "x"}, {y, 8 * sizeof(float), "y"}});
  int32_t rows = 1, cols = 8;
  std::vector<void *> arguments = {&y, &x, &rows, &cols};
  EXPECT_TRUE(failed(
      compiled->cpuKernels->run("read_past", arguments, /*numPrograms=*/1)));
  EXPECT_NE(messages.find("out-of-bounds load"), std::string::npos)
      << messages;
  EXPECT_NE(messages.find("past the end of \"x\""), std::string::npos)
      << messages;
}

} // namespace
