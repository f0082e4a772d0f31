//===- CompilerTest.cpp - the MLIR-free API embedded in a process ---------===//
//
// blk::Compiler as an embedding program uses it: shared between threads
// (its calls are serialized), and every bad program a Status, never a
// crash.
//
//===----------------------------------------------------------------------===//
#include "blk/Driver/Compiler.h"
#include "blk/Driver/CpuProgram.h"
#include "blk/Runtime/Numerics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace {

/// The text of python-free-examples/`name`; empty where it cannot be read.
std::string readExample(const std::string &name) {
  std::ifstream file(BLK_EXAMPLES_DIR "/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

using blk::runtime::ElementType;
using blk::runtime::ProgramImage;
using blk::runtime::ProgramShape;

// Eight calls from threads through one Compiler and one kernel cache: each
// gets the image a lone call gives.
TEST(CompilerTest, OneCompilerSharedByThreads) {
  blk::Compiler compiler;
  blk::CompileOptions options;
  // Through the kernel cache too, as an embedding program compiles.
  char cacheTemplate[] = "/tmp/blk-compiler-test-XXXXXX";
  ASSERT_TRUE(mkdtemp(cacheTemplate));
  options.cacheDirectory = cacheTemplate;
  const std::vector<ProgramShape> shapes = {
      {4096, 1024, ElementType::F32, {}},
      {64, 50257, ElementType::BF16, {}},
      {128, 4096, ElementType::F16, {}},
      {1024, 65536, ElementType::F32, {}}};
  std::vector<ProgramImage> alone(shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i)
    ASSERT_TRUE(compiler.compileSoftmax(shapes[i], options, alone[i]))
        << "shape " << i;

  // Two threads a shape: one finds the cache entry, one compiles again.
  constexpr size_t kThreadsPerShape = 2;
  size_t count = kThreadsPerShape * shapes.size();
  std::vector<ProgramImage> shared(count);
  std::vector<std::string> errors(count);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < count; ++i)
    threads.emplace_back([&, i] {
      blk::runtime::Status status = compiler.compileSoftmax(
          shapes[i % shapes.size()], options, shared[i]);
      if (!status)
        errors[i] = status.message();
    });
  for (std::thread &thread : threads)
    thread.join();
  for (size_t i = 0; i < count; ++i) {
    EXPECT_EQ(errors[i], "") << "call " << i;
    EXPECT_EQ(shared[i].serialize(), alone[i % shapes.size()].serialize())
        << "call " << i;
  }
  std::string remove = std::string("rm -rf ") + cacheTemplate;
  EXPECT_EQ(std::system(remove.c_str()), 0);
}

// A kernel beside a plain function that uses blk ops crashed the GPU
// conversion; the API returns the located error.
TEST(CompilerTest, HelperOutsideKernelIsAStatus) {
  const char *program = R"mlir(
func.func @k(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
             %n_rows: i32 {blk.arg = #blk.arg<rows>},
             %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}
func.func @helper(%p: !blk.ptr<f32>) {
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %v = arith.sitofp %cols : tensor<128xi32> to tensor<128xf32>
  blk.store %p[%cols], %v : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
  return
}
)mlir";
  blk::Compiler compiler;
  ProgramImage image;
  blk::runtime::Status status = compiler.compile(
      program, "helper.mlir", {4, 128, ElementType::F32, {}},
      blk::CompileOptions(), image);
  ASSERT_FALSE(status);
  EXPECT_NE(status.message().find("helper.mlir:9:11: error: 'blk.arange' op "
                                  "is outside a kernel"),
            std::string::npos)
      << status.message();
}

// Options out of range come back as a Status too.
TEST(CompilerTest, BadOptionsAreAStatus) {
  blk::Compiler compiler;
  blk::CompileOptions options;
  options.maxTile = 3;
  ProgramImage image;
  blk::runtime::Status status = compiler.compileSoftmax(
      {4, 128, ElementType::F32, {}}, options, image);
  ASSERT_FALSE(status);
  EXPECT_NE(status.message().find(
                "max-tile must be a power of two from 2 to 2^30, not 3"),
            std::string::npos)
      << status.message();
}

// 4,000 nested regions overflowed the stack inside compile: nesting past
// the limit is refused before parsing, located.
TEST(CompilerTest, DeepNestingIsAStatus) {
  std::string text = "func.func @k() {\n";
  for (int i = 0; i < 4000; ++i)
    text += "scf.execute_region {\n";
  for (int i = 0; i < 4000; ++i)
    text += "}\n";
  text += "}\n";
  blk::Compiler compiler;
  ProgramImage image;
  blk::runtime::Status status =
      compiler.compile(text, "deep.mlir", {4, 128, ElementType::F32, {}},
                       blk::CompileOptions(), image);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.message().rfind("deep.mlir:257:", 0), 0u)
      << status.message();
}

// Diagnostics from several threads at once: each call gets its own
// program's error, located in its own file. Before the calls were
// serialized, each installed its handler on the shared context and this
// crashed or mixed the messages.
TEST(CompilerTest, ErrorsFromThreadsStayApart) {
  blk::Compiler compiler;
  std::vector<std::string> messages(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < messages.size(); ++i)
    threads.emplace_back([&, i] {
      std::string name = "bad" + std::to_string(i) + ".mlir";
      std::string text = "func.func @k() attributes {blk.kernel = "
                         "#blk.kernel<num_warps = 3>} {\n  return\n}\n";
      ProgramImage image;
      blk::runtime::Status status = compiler.compile(
          text, name, {4, 128, ElementType::F32, {}}, blk::CompileOptions(),
          image);
      messages[i] = status ? "compiled" : status.message();
    });
  for (std::thread &thread : threads)
    thread.join();
  for (size_t i = 0; i < messages.size(); ++i)
    EXPECT_EQ(messages[i].rfind("bad" + std::to_string(i) + ".mlir:1:", 0), 0u)
        << messages[i];
}
// The CPU through the MLIR-free API: one compilation runs any row count of
// its class on the caller's vectors, a program with scratch tensors too
// (softmax_split's partial maxima and sums, grown for more rows).
TEST(CompilerTest, CpuProgramRunsEveryRowCountOfItsClass) {
  std::string text = readExample("softmax_split.mlir");
  ASSERT_FALSE(text.empty()) << "softmax_split.mlir not found";
  blk::Compiler compiler;
  blk::CompileOptions options;
  options.target = blk::TargetKind::CPU;
  options.constants = {{"SPLITS", 4}};
  constexpr int64_t kCols = 1000;
  ProgramImage image;
  blk::runtime::Status compiled =
      compiler.compile(text, "softmax_split.mlir",
                       {8, kCols, ElementType::F32, {}}, options, image);
  ASSERT_TRUE(compiled) << compiled.message();
  std::unique_ptr<blk::CpuProgram> program;
  blk::runtime::Status loaded = blk::CpuProgram::load(image, program);
  ASSERT_TRUE(loaded) << loaded.message();
  for (int64_t rows : {8, 1, 37, 5}) {
    std::vector<float> x(rows * kCols), y(x.size(), -1);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(std::sin(0.1 * double(i)) * 5);
    blk::runtime::LaunchArguments arguments(rows, kCols);
    arguments.tensor("x", x.data()).tensor("y", y.data());
    blk::runtime::Status ran = program->run(arguments, 2);
    ASSERT_TRUE(ran) << rows << " rows: " << ran.message();
    std::vector<double> reference(x.size());
    blk::runtime::referenceSoftmax(x.data(), rows, kCols, kCols,
                                   reference.data());
    blk::runtime::ErrorStats errors = blk::runtime::compareToReference(
        y.data(), ElementType::F32, rows, kCols, kCols, reference.data());
    EXPECT_TRUE(errors.passes(ElementType::F32))
        << rows << " rows: " << errors.summary();
  }
  // Another row length is refused before anything runs.
  std::vector<float> x(kCols + 1), y(kCols + 1);
  blk::runtime::LaunchArguments other(1, kCols + 1);
  other.tensor("x", x.data()).tensor("y", y.data());
  blk::runtime::Status refused = program->run(other);
  EXPECT_FALSE(refused);
  EXPECT_NE(refused.message().find("rows of 1000 elements"), std::string::npos)
      << refused.message();
}

// A product through the MLIR-free API: M x N x K in the ProgramShape and
// the launch (A of M x K, B of K x N), the rules' tile, any row count of
// the class, another K refused.
TEST(CompilerTest, CpuProgramRunsAProduct) {
  std::string text = readExample("matmul.mlir");
  ASSERT_FALSE(text.empty()) << "matmul.mlir not found";
  blk::Compiler compiler;
  blk::CompileOptions options;
  options.target = blk::TargetKind::CPU;
  constexpr int64_t kCols = 70, kInner = 50;
  ProgramImage image;
  blk::runtime::Status compiled = compiler.compile(
      text, "matmul.mlir", {100, kCols, ElementType::F32, {}, kInner},
      options, image);
  ASSERT_TRUE(compiled) << compiled.message();
  std::unique_ptr<blk::CpuProgram> program;
  blk::runtime::Status loaded = blk::CpuProgram::load(image, program);
  ASSERT_TRUE(loaded) << loaded.message();
  for (int64_t rows : {100, 1, 33}) {
    std::vector<float> a(rows * kInner), b(kInner * kCols),
        c(rows * kCols, -1);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = float(std::sin(0.1 * double(i)));
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = float(std::cos(0.07 * double(i)));
    blk::runtime::LaunchArguments arguments(rows, kCols, kInner);
    arguments.tensor("a", a.data()).tensor("b", b.data()).tensor("c",
                                                                 c.data());
    blk::runtime::Status ran = program->run(arguments, 2);
    ASSERT_TRUE(ran) << rows << " rows: " << ran.message();
    double worst = 0;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t n = 0; n < kCols; ++n) {
        double want = 0;
        for (int64_t k = 0; k < kInner; ++k)
          want += double(a[r * kInner + k]) * double(b[k * kCols + n]);
        worst = std::max(worst, std::abs(want - double(c[r * kCols + n])));
      }
    EXPECT_LT(worst, 1e-4) << rows << " rows";
  }
  std::vector<float> a(kInner + 1), b((kInner + 1) * kCols), c(kCols);
  blk::runtime::LaunchArguments other(1, kCols, kInner + 1);
  other.tensor("a", a.data()).tensor("b", b.data()).tensor("c", c.data());
  blk::runtime::Status refused = program->run(other);
  EXPECT_FALSE(refused);
  EXPECT_NE(refused.message().find("inner dimension of 50"), std::string::npos)
      << refused.message();
}

TEST(CompilerTest, CpuProgramRefusesAGpuImage) {
  blk::Compiler compiler;
  blk::CompileOptions options;
  ProgramImage image;
  ASSERT_TRUE(
      compiler.compileSoftmax({4, 128, ElementType::F32, {}}, options, image));
  std::unique_ptr<blk::CpuProgram> program;
  blk::runtime::Status status = blk::CpuProgram::load(image, program);
  EXPECT_FALSE(status);
  EXPECT_NE(status.message().find("has no host code"), std::string::npos)
      << status.message();
}

} // namespace
