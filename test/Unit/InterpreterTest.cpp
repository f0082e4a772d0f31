//===- InterpreterTest.cpp - the float64 reference of programs that meet --===//
//
// blk/Interpreter runs a kernel whose programs wait for each other
// (blk.program_barrier) as the GPU does, all of a round at once: the split
// softmax whose parts meet agrees with the float64 softmax, a program split
// by blk-split-rows with the program it was made from, and a round that
// cannot fill is an error at the barrier, not a hang.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Driver.h"
#include "blk/Interpreter/Interpreter.h"
#include "blk/Runtime/HostTensor.h"
#include "blk/Runtime/Reference.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace mlir;
namespace rt = ::blk::runtime;

namespace {

struct Interpreted {
  std::string errors;
  /// Specialization::describe() of the binding interpreted.
  std::string binding;
  std::vector<rt::ReferenceOutput> outputs;
  std::vector<rt::HostTensor> tensors;
};

/// Fits and binds `text` for rows x cols f32 on sm_90 with `constants`
/// (and the options `adjust` changes), fills its inputs with seeded data
/// and interprets it.
Interpreted
interpret(MLIRContext &context, const std::string &text, int64_t rows,
          int64_t cols, std::map<std::string, int64_t> constants,
          llvm::function_ref<void(::blk::CompileOptions &)> adjust = nullptr,
          bool special = false, const rt::ScalarValues &scalars = {}) {
  Interpreted result;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &d) {
    result.errors += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> program = parseSourceString<ModuleOp>(text, &context);
  if (!program)
    return result;
  mlir::blk::ProblemDesc problem;
  problem.rows = rows;
  problem.cols = cols;
  ::blk::CompileOptions options;
  options.chip = "sm_90";
  options.constants = std::move(constants);
  if (adjust)
    adjust(options);
  FailureOr<OwningOpRef<ModuleOp>> fitted =
      mlir::blk::fitProgram(*program, problem, options);
  if (failed(fitted))
    return result;
  FailureOr<mlir::blk::Specialization> binding =
      mlir::blk::chooseBinding(**fitted, problem, options);
  if (failed(binding))
    return result;
  result.binding = binding->describe();
  FailureOr<OwningOpRef<ModuleOp>> specialized =
      mlir::blk::specializeProgram(**fitted, *binding);
  if (failed(specialized))
    return result;
  FailureOr<std::vector<rt::KernelSignature>> signatures =
      mlir::blk::getKernelSignatures(**specialized);
  EXPECT_TRUE(succeeded(signatures));
  rt::ProgramShape shape = problem.getProgramShape();
  std::vector<rt::HostTensor> scratch;
  EXPECT_TRUE(rt::createHostTensors(*signatures, shape, result.tensors));
  EXPECT_TRUE(rt::createHostTensors(*signatures, shape, scratch,
                                    rt::TensorGroup::scratch));
  rt::fillInputs(nullptr, cols, result.tensors, scalars, /*seed=*/3, special);
  std::vector<rt::HostTensor> all = result.tensors;
  all.insert(all.end(), scratch.begin(), scratch.end());
  (void)mlir::blk::interpretProgram(**specialized, binding->getGrid(rows),
                                    shape, all, scalars, result.outputs);
  return result;
}

/// `program` for rows x cols on programs of one CTA (split past 32768
/// columns), its rows split as `splitRows` says.
Interpreted interpretOnOneCta(MLIRContext &context, const std::string &program,
                              int64_t rows, int64_t cols,
                              const std::string &splitRows, bool special,
                              const rt::ScalarValues &scalars = {}) {
  return interpret(
      context, program, rows, cols, {},
      [&](::blk::CompileOptions &options) {
        options.numCtas = 1;
        options.splitRows = splitRows;
      },
      special, scalars);
}

DialectRegistry getRegistry() {
  DialectRegistry registry;
  mlir::blk::registerCompilerDialects(registry);
  return registry;
}

std::string readExample(const char *name) {
  std::ifstream file(std::string(BLK_EXAMPLES_DIR) + "/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(InterpreterTest, ProgramsThatMeetAgreeWithTheSoftmax) {
  MLIRContext context(getRegistry());
  // 37 rows of 8 parts: 296 programs' work on 256 at once, so some walk
  // two parts of different rounds.
  constexpr int64_t kRows = 37, kCols = 4096;
  Interpreted run =
      interpret(context, readExample("softmax_split_resident.mlir"), kRows,
                kCols, {{"SPLITS", 8}});
  ASSERT_EQ(run.errors, "");
  ASSERT_EQ(run.outputs.size(), 1u);
  std::vector<float> x(kRows * kCols);
  const rt::HostTensor &input = *rt::findTensor(run.tensors, "x");
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t c = 0; c < kCols; ++c)
      x[r * kCols + c] = float(input.get(r, c));
  std::vector<double> softmax(x.size());
  rt::referenceSoftmax(x.data(), kRows, kCols, kCols, softmax.data());
  double worst = 0;
  for (size_t i = 0; i < softmax.size(); ++i)
    worst = std::max(worst, std::fabs(run.outputs[0].values[i] - softmax[i]));
  EXPECT_LT(worst, 1e-12);
}

// softmax_backward split by blk-split-rows (one CTA a program: past 32768
// columns), 8 parts of 5120 a row on 256 programs at once (some walk two
// parts of different rows), agrees with the same program holding its rows.
TEST(InterpreterTest, SplitRowsAgreeWithHeldRows) {
  MLIRContext context(getRegistry());
  constexpr int64_t kRows = 37, kCols = 40000;
  std::string program = readExample("softmax_backward.mlir");
  Interpreted split =
      interpretOnOneCta(context, program, kRows, kCols, "auto", false);
  Interpreted held =
      interpretOnOneCta(context, program, kRows, kCols, "never", false);
  ASSERT_EQ(split.errors, "");
  ASSERT_EQ(held.errors, "");
  EXPECT_EQ(split.binding, "BLOCK=5120 SPLITS=8 warps=8");
  EXPECT_EQ(held.binding, "BLOCK=40960 warps=16");
  ASSERT_EQ(split.outputs.size(), 1u);
  ASSERT_EQ(held.outputs.size(), 1u);
  ASSERT_EQ(split.outputs[0].values.size(), size_t(kRows * kCols));
  // The row's sum is added in another order: equal to float64's rounding
  // (1e-10 apart at most where dy - sum(dy * y) cancels).
  double error = 0, norm = 0;
  for (size_t i = 0; i < held.outputs[0].values.size(); ++i) {
    double difference = split.outputs[0].values[i] - held.outputs[0].values[i];
    error += difference * difference;
    norm += held.outputs[0].values[i] * held.outputs[0].values[i];
  }
  EXPECT_LT(std::sqrt(error / norm), 1e-12);
}

/// Split and held runs of `example` on the same special rows (infinities,
/// NaN and the float limits among ordinary rows): the same NaNs, the same
/// infinities, and values a float64's rounding apart.
void expectSplitAgreesOnSpecialRows(const char *example,
                                    const std::string &splitRows,
                                    const rt::ScalarValues &scalars = {}) {
  MLIRContext context(getRegistry());
  constexpr int64_t kRows = 37, kCols = 40000;
  std::string program = readExample(example);
  Interpreted split = interpretOnOneCta(context, program, kRows, kCols,
                                        splitRows, true, scalars);
  Interpreted held =
      interpretOnOneCta(context, program, kRows, kCols, "never", true, scalars);
  ASSERT_EQ(split.errors, "");
  ASSERT_EQ(held.errors, "");
  EXPECT_EQ(split.binding, "BLOCK=5120 SPLITS=8 warps=8");
  ASSERT_EQ(split.outputs.size(), 1u);
  ASSERT_EQ(held.outputs.size(), 1u);
  const std::vector<double> &got = split.outputs[0].values;
  const std::vector<double> &want = held.outputs[0].values;
  ASSERT_EQ(got.size(), want.size());
  int64_t nans = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(std::isnan(got[i]), std::isnan(want[i])) << "element " << i;
    nans += std::isnan(want[i]);
    if (std::isnan(want[i]) || std::isinf(want[i])) {
      EXPECT_TRUE(std::isnan(want[i]) || got[i] == want[i]) << "element " << i;
      continue;
    }
    EXPECT_NEAR(got[i], want[i], 1e-9 * std::max(1.0, std::fabs(want[i])))
        << "element " << i;
  }
  EXPECT_GT(nans, 0) << "the special rows have no NaN row to compare";
}

// log_softmax's max and sum meet once a part as (max, sum) pairs (split
// always: a program of one row stays on a cluster by the rules).
TEST(InterpreterTest, SplitMaxAndSumAgreeOnSpecialRows) {
  expectSplitAgreesOnSpecialRows("log_softmax.mlir", "always");
}

// layer_norm's sum and squares about the mean meet once a part, as (sum,
// count, squares about the part's mean) merged as Chan's; the last part of
// a row counts 4160 of its 5120 lanes.
TEST(InterpreterTest, SplitMeanAndSquaresAgreeOnSpecialRows) {
  expectSplitAgreesOnSpecialRows("layer_norm.mlir", "auto",
                                 {{"eps", rt::ScalarValue{1e-5}}});
}

// layer_norm with its mean as sum * (1 / N), which blk-split-rows does not
// take for a mean: its sum and its squares meet apart, two meetings a part.
// A program that fills a round may run on to its next meeting before the
// programs it released wake; they are no longer waiting. When they still
// counted, a round that cannot fill was reported now and then: here at runs
// 22 and 38 of two tries of 60.
TEST(InterpreterTest, ProgramsReleasedFromARoundAreNotWaiting) {
  std::string program = readExample("layer_norm.mlir");
  const std::string mean = "%mean = arith.divf %sum, %n_float : f32";
  size_t at = program.find(mean);
  ASSERT_NE(at, std::string::npos);
  program.replace(at, mean.size(),
                  "%one = arith.constant 1.0 : f32\n"
                  "  %inverse_n = arith.divf %one, %n_float : f32\n"
                  "  %mean = arith.mulf %sum, %inverse_n : f32");
  for (int run = 0; run < 60; ++run) {
    MLIRContext context(getRegistry());
    Interpreted split =
        interpretOnOneCta(context, program, 37, 40000, "auto", false,
                          {{"eps", rt::ScalarValue{1e-5}}});
    ASSERT_EQ(split.errors, "") << "run " << run;
    EXPECT_EQ(split.binding, "BLOCK=5120 SPLITS=8 warps=8");
  }
}

// Three programs must meet, but the kernel runs two: on the GPU a hang, here
// an error at the barrier.
TEST(InterpreterTest, ARoundThatCannotFillIsAnError) {
  MLIRContext context(getRegistry());
  const char *program = R"mlir(
func.func @meet(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                %counter: !blk.ptr<i64> {blk.arg = #blk.arg<scratch "arrivals", per_row>},
                %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1, grid = persistent>} {
  %three = arith.constant 3 : i32
  blk.program_barrier %counter, %three : !blk.ptr<i64>, i32
  return
}
)mlir";
  Interpreted run = interpret(context, program, 2, 4, {});
  EXPECT_NE(run.errors.find("waits for 3 programs at its counter, but 2 "
                            "arrived and every other program waits too"),
            std::string::npos)
      << run.errors;
}

} // namespace
