//===- RuntimeProgramTest.cpp - compiled program images and launches ------===//
//
// A ProgramImage as the kernel cache stores it (serialize/deserialize,
// which must refuse any damaged entry), and what a launch binds to its
// kernels' arguments (packArguments, checkShape), on a hand-made image.
//
//===----------------------------------------------------------------------===//
#include "blk/Runtime/HostTensor.h"
#include "blk/Runtime/Launch.h"
#include "blk/Runtime/Program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace blk::runtime;

namespace {

/// A bf16 softmax for sm_90 on rows of 100 elements, up to 1000 rows, whose
/// input rows are 128 elements apart, with one argument of every role a
/// launch fills in.
ProgramImage sampleImage() {
  ProgramImage image;
  image.target = "gpu sm_90";
  image.shapes = {1000, 100, ElementType::BF16, {{"x", 128}}};
  image.binding = "BLOCK=128";
  image.signatures = {{"softmax",
                       {{ArgRole::output, "y", ArgExtent::matrix, "bf16", 2},
                        {ArgRole::input, "x", ArgExtent::matrix, "bf16", 2},
                        {ArgRole::row_stride, "x", ArgExtent::matrix, "i32", 4},
                        {ArgRole::param, "scale", ArgExtent::matrix, "f32", 4},
                        {ArgRole::cols, "", ArgExtent::matrix, "i64", 8}}}};
  image.launches = {{128, 1, 0, 0, GridKind::rows, false}};
  // Text the format must not mistake for its own separators, and a NUL.
  image.ptx = std::string("// ptx with spaces, colons: and\nnewlines\0", 40);
  return image;
}

//===----------------------------------------------------------------------===//
// Serialized images (the kernel cache's entries)
//===----------------------------------------------------------------------===//

TEST(RuntimeProgramTest, ImageSerializeDeserializeRoundTrip) {
  ProgramImage image = sampleImage();
  std::string bytes = image.serialize();
  ProgramImage read;
  Status status = ProgramImage::deserialize(bytes, read);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(read.serialize(), bytes);
  const std::vector<KernelArgument> &arguments =
      read.signatures[0].arguments;
  EXPECT_EQ(read.shapes.withRows(1).getRowStride(arguments[1]), 128) << "x";
  EXPECT_EQ(read.shapes.withRows(1).getRowStride(arguments[0]), 100) << "y";
  EXPECT_EQ(read.ptx, image.ptx);
}

// A cache entry cut short (a crash while writing, a full disk) must never
// load as a partly filled image.
TEST(RuntimeProgramTest, ImageDeserializeRefusesEveryTruncation) {
  std::string bytes = sampleImage().serialize();
  std::vector<size_t> acceptedLengths;
  for (size_t length = 0; length < bytes.size(); ++length) {
    ProgramImage read;
    if (ProgramImage::deserialize(bytes.substr(0, length), read).ok())
      acceptedLengths.push_back(length);
  }
  EXPECT_EQ(acceptedLengths, std::vector<size_t>())
      << "truncations of " << bytes.size() << " bytes accepted";
}

// Each number has one spelling, so a changed byte in one cannot go unseen.
TEST(RuntimeProgramTest, ImageDeserializeRefusesNonCanonicalNumbers) {
  std::string bytes = sampleImage().serialize();
  size_t at = bytes.find(" 8 ");
  ASSERT_NE(at, std::string::npos) << "no number 8 in: " << bytes;
  for (const char *bad : {"+8 ", "08 ", " 8 "}) {
    std::string altered = bytes;
    altered.replace(at + 1, 2, bad);
    ProgramImage read;
    EXPECT_FALSE(ProgramImage::deserialize(altered, read).ok())
        << "'" << bad << "' in place of '8 '";
  }
}

//===----------------------------------------------------------------------===//
// Launch arguments
//===----------------------------------------------------------------------===//

/// The sample image's tensors and row stride, not its parameter.
LaunchArguments sampleArguments(const void *memory) {
  LaunchArguments arguments(8, 100);
  arguments.tensor("x", memory).tensor("y", memory).rowStride("x", 128);
  return arguments;
}

TEST(RuntimeProgramTest, PackArgumentsNeedsEveryParameter) {
  int memory = 0;
  PackedArguments packed;
  Status missing = packArguments(sampleImage().signatures[0],
                                 sampleArguments(&memory), packed);
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("parameter 'scale'"), std::string::npos)
      << missing.message();
}

TEST(RuntimeProgramTest, PackArgumentsPacksByName) {
  int memory = 0;
  LaunchArguments arguments = sampleArguments(&memory);
  arguments.param("scale", 0.5);
  PackedArguments packed;
  Status status = packArguments(sampleImage().signatures[0], arguments, packed);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(packed.slots.size(), 5u);
  ASSERT_EQ(packed.values.size(), 5u);
  EXPECT_EQ(packed.values[2], 128u) << "row stride of x";
  float scale = 0;
  std::memcpy(&scale, &packed.values[3], sizeof(scale));
  EXPECT_EQ(scale, 0.5f) << "f32 scale in the slot's low bytes";
  EXPECT_EQ(packed.values[4], 100u) << "cols";
}

TEST(RuntimeProgramTest, PackArgumentsRefusesF32ParametersThatDoNotParse) {
  int memory = 0;
  LaunchArguments arguments = sampleArguments(&memory);
  // Out of f32's range, leading or trailing junk, nothing.
  for (const char *bad : {"1e39", " 1", "1x", ""}) {
    arguments.param("scale", std::string(bad));
    PackedArguments packed;
    EXPECT_FALSE(
        packArguments(sampleImage().signatures[0], arguments, packed).ok())
        << "scale '" << bad << "'";
  }
}

// Compiled code relies on the row length and strides it was compiled for,
// and serves any row count of its class.
TEST(RuntimeProgramTest, CheckShapeAcceptsTheCompiledClass) {
  ProgramImage image = sampleImage();
  int memory = 0;
  for (int64_t rows : {1, 8, 999, 1000}) {
    LaunchArguments arguments(rows, 100);
    arguments.tensor("x", &memory).tensor("y", &memory).rowStride("x", 128);
    Status status = checkShape(image, arguments);
    EXPECT_TRUE(status.ok()) << rows << " rows: " << status.message();
  }
  LaunchArguments arguments = sampleArguments(&memory);
  EXPECT_FALSE(
      checkShape(image, LaunchArguments(arguments).rowStride("y", 200)).ok())
      << "another row stride of a matrix";
  EXPECT_FALSE(checkShape(image, LaunchArguments(8, 101)).ok())
      << "another row length";
  for (int64_t rows : {0, -1, 1001}) {
    LaunchArguments outside(rows, 100);
    outside.rowStride("x", 128);
    Status status = checkShape(image, outside);
    EXPECT_FALSE(status.ok()) << rows << " rows";
    EXPECT_NE(status.message().find("serves 1 to 1000 rows"), std::string::npos)
        << status.message();
  }
}

//===----------------------------------------------------------------------===//
// A product's operands: rows x inner and inner x cols
//===----------------------------------------------------------------------===//

/// C = A B for M = 300, N = 200, K = 50: A is 300 x 50 (rows 64 elements
/// apart), B 50 x 200, C 300 x 200.
ProgramImage sampleProductImage() {
  ProgramImage image;
  image.target = "gpu sm_90";
  image.shapes = {1000, 200, ElementType::BF16, {{"a", 64}}, 50};
  image.binding = "ROWS=64";
  image.signatures = {
      {"matmul",
       {{ArgRole::output, "c", ArgExtent::matrix, "bf16", 2},
        {ArgRole::input, "a", ArgExtent::rows_by_inner, "bf16", 2},
        {ArgRole::input, "b", ArgExtent::inner_by_cols, "bf16", 2},
        {ArgRole::row_stride, "a", ArgExtent::rows_by_inner, "i32", 4},
        {ArgRole::row_stride, "b", ArgExtent::inner_by_cols, "i32", 4},
        {ArgRole::inner, "", ArgExtent::matrix, "i32", 4}}}};
  image.launches = {{256, 1, 0, 0, GridKind::rows, false}};
  return image;
}

TEST(RuntimeProgramTest, ProductOperandsTakeTheInnerDimension) {
  ProgramShape shape = sampleProductImage().shapes.withRows(300);
  const std::vector<KernelArgument> &arguments =
      sampleProductImage().signatures[0].arguments;
  TensorExtent a = shape.getExtent(ArgExtent::rows_by_inner),
               b = shape.getExtent(ArgExtent::inner_by_cols);
  EXPECT_EQ(a.rows, 300);
  EXPECT_EQ(a.cols, 50);
  EXPECT_EQ(b.rows, 50);
  EXPECT_EQ(b.cols, 200);
  EXPECT_EQ(shape.getRowStride(arguments[1]), 64) << "a, as given";
  EXPECT_EQ(shape.getRowStride(arguments[2]), 200) << "b: its columns";
  int64_t elements = 0;
  ASSERT_TRUE(getTensorElements(arguments[1], shape, elements).ok());
  EXPECT_EQ(elements, 300 * 64) << "a";
  ASSERT_TRUE(getTensorElements(arguments[2], shape, elements).ok());
  EXPECT_EQ(elements, 50 * 200) << "b";
}

TEST(RuntimeProgramTest, ProductLaunchPacksInnerAndStrides) {
  int memory = 0;
  ProgramImage image = sampleProductImage();
  LaunchArguments arguments(300, 200, 50);
  arguments.tensor("a", &memory).tensor("b", &memory).tensor("c", &memory);
  arguments.rowStride("a", 64);
  ASSERT_TRUE(checkShape(image, arguments).ok());
  PackedArguments packed;
  Status status = packArguments(image.signatures[0], arguments, packed);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(packed.values[3], 64u) << "row stride of a, given";
  EXPECT_EQ(packed.values[4], 200u) << "row stride of b: N";
  EXPECT_EQ(packed.values[5], 50u) << "inner";
  Status otherInner = checkShape(image, LaunchArguments(300, 200, 51)
                                            .rowStride("a", 64));
  EXPECT_FALSE(otherInner.ok());
  EXPECT_NE(otherInner.message().find("inner dimension of 50"),
            std::string::npos)
      << otherInner.message();
  std::string bytes = image.serialize();
  ProgramImage read;
  ASSERT_TRUE(ProgramImage::deserialize(bytes, read).ok());
  EXPECT_EQ(read.shapes.inner, 50);
  EXPECT_EQ(read.signatures[0].arguments[2].extent, ArgExtent::inner_by_cols);
}

// A kernel that copies by TMA takes a tensor map of each operand after its
// declared arguments: the launch record says which matrix and box, and the
// launch describes each from the arguments (the operand's extent, its row
// stride in bytes, its element type) to the GPU runtime's encoder.
TEST(RuntimeProgramTest, TensorMapsFollowTheDeclaredArguments) {
  int memory = 0;
  ProgramImage image = sampleProductImage();
  image.launches[0].tensorMaps = {{"a", 8, 64}, {"b", 64, 64}};
  LaunchArguments arguments(300, 200, 50);
  arguments.tensor("a", &memory).tensor("b", &memory).tensor("c", &memory);
  arguments.rowStride("a", 64);
  std::vector<TensorMapRequest> requests;
  auto encoder = [&](const TensorMapRequest &request, TensorMapBytes &map) {
    requests.push_back(request);
    std::memset(map.bytes, static_cast<int>(requests.size()),
                sizeof(map.bytes));
    return Status::success();
  };
  PackedArguments packed;
  Status status = packArguments(image.signatures[0], arguments, packed,
                                image.launches[0].tensorMaps, encoder);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].rows, 300) << "a: M x K";
  EXPECT_EQ(requests[0].cols, 50);
  EXPECT_EQ(requests[0].rowStrideBytes, 64 * 2);
  EXPECT_EQ(requests[0].elementType, "bf16");
  EXPECT_EQ(requests[0].boxRows, 8);
  EXPECT_EQ(requests[1].rows, 50) << "b: K x N";
  EXPECT_EQ(requests[1].cols, 200);
  EXPECT_EQ(requests[1].rowStrideBytes, 200 * 2);
  ASSERT_EQ(packed.slots.size(), 6u + 2u);
  EXPECT_EQ(static_cast<unsigned char *>(packed.slots[6])[127], 1);
  EXPECT_EQ(static_cast<unsigned char *>(packed.slots[7])[0], 2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(packed.slots[7]) % 64, 0u);

  // Without an encoder (the CPU) or with one that fails, the launch fails,
  // naming the matrix.
  PackedArguments unpacked;
  EXPECT_FALSE(packArguments(image.signatures[0], arguments, unpacked,
                             image.launches[0].tensorMaps)
                   .ok());
  Status failed = packArguments(
      image.signatures[0], arguments, unpacked, image.launches[0].tensorMaps,
      [](const TensorMapRequest &, TensorMapBytes &) {
        return Status::failure("misaligned");
      });
  EXPECT_NE(failed.message().find("the tensor map of 'a': misaligned"),
            std::string::npos)
      << failed.message();

  // A map of a tensor the kernel does not have is refused.
  image.launches[0].tensorMaps = {{"w", 8, 64}};
  EXPECT_FALSE(packArguments(image.signatures[0], arguments, unpacked,
                             image.launches[0].tensorMaps, encoder)
                   .ok());
}

TEST(RuntimeProgramTest, TensorMapsSurviveTheKernelCache) {
  ProgramImage image = sampleProductImage();
  image.launches[0].tensorMaps = {{"a", 8, 64}, {"b", 64, 64}};
  std::string bytes = image.serialize();
  ProgramImage read;
  ASSERT_TRUE(ProgramImage::deserialize(bytes, read).ok());
  ASSERT_EQ(read.launches[0].tensorMaps.size(), 2u);
  EXPECT_EQ(read.launches[0].tensorMaps[1].tensor, "b");
  EXPECT_EQ(read.launches[0].tensorMaps[1].boxRows, 64);
  EXPECT_EQ(read.serialize(), bytes);
  for (size_t length = 0; length < bytes.size(); ++length)
    EXPECT_FALSE(ProgramImage::deserialize(bytes.substr(0, length), read).ok())
        << "a truncation to " << length << " bytes";
}

// A batch of 2 x 3 problems of 5 x 8: dense, instance (b, h) starts at
// (3 b + h) 40; laid out [B, S, H, D] (rows 24 apart, heads 8), at
// 120 b + 8 h. A tensor spans from its first element to the end of its last
// instance's rows; its rows are the instances' rows in order.
TEST(RuntimeProgramTest, BatchedTensorsSpanEveryInstance) {
  KernelArgument q{ArgRole::input, "q", ArgExtent::matrix, "bf16", 2};
  ProgramShape shape;
  shape.rows = 5;
  shape.cols = 8;
  shape.elementType = ElementType::BF16;
  shape.batch = 2;
  shape.heads = 3;
  int64_t elements = 0;
  ASSERT_TRUE(getTensorElements(q, shape, elements).ok());
  EXPECT_EQ(elements, 2 * 3 * 5 * 8);
  HostTensor dense;
  ASSERT_TRUE(HostTensor::create(q, shape, dense).ok());
  EXPECT_EQ(dense.getRows(), 30);
  EXPECT_EQ(dense.getElementIndex(5 * 4 + 2, 7), 4 * 40 + 2 * 8 + 7)
      << "row 2 of instance (1, 1)";

  shape.rowStrides = {{"q", 24}};
  shape.headStrides = {{"q", 8}};
  shape.batchStrides = {{"q", 120}};
  ASSERT_TRUE(getTensorElements(q, shape, elements).ok());
  EXPECT_EQ(elements, 120 + 2 * 8 + 5 * 24);
  HostTensor interleaved;
  ASSERT_TRUE(HostTensor::create(q, shape, interleaved).ok());
  EXPECT_EQ(interleaved.getElementIndex(5 * 4 + 2, 7), 120 + 8 + 2 * 24 + 7);
  shape.batch = int64_t(1) << 62;
  EXPECT_FALSE(getTensorElements(q, shape, elements).ok()) << "overflow";
}

//===----------------------------------------------------------------------===//
// Outputs apart from the inputs and from each other (checkTensorsApart)
//===----------------------------------------------------------------------===//

/// A bf16 norm of 8 rows of 100 elements: y = f(x, weight), with the rows
/// of x and y `stride` elements apart, at made-up addresses (nothing runs).
LaunchArguments normArguments(uint64_t x, uint64_t y, uint64_t weight,
                              int64_t stride) {
  LaunchArguments arguments(8, 100);
  arguments.tensor("x", x).tensor("y", y).tensor("weight", weight);
  arguments.rowStride("x", stride).rowStride("y", stride);
  return arguments;
}

ProgramImage normImage() {
  ProgramImage image = sampleImage();
  image.signatures[0].arguments.push_back(
      {ArgRole::input, "weight", ArgExtent::per_col, "bf16", 2});
  return image;
}

std::string apartMessage(const ProgramImage &image,
                         const LaunchArguments &arguments) {
  Status status = checkTensorsApart(image, arguments);
  return status.ok() ? "apart" : status.message();
}

TEST(RuntimeProgramTest, OutputsMustNotShareMemoryWithInputs) {
  ProgramImage image = normImage();
  const uint64_t x = 1 << 20, weight = 1 << 24;
  // Rows of 200 bytes, 256 apart: x ends 7 x 256 + 200 bytes in.
  EXPECT_EQ(apartMessage(image, normArguments(x, x + 1992, weight, 128)),
            "apart");
  EXPECT_EQ(apartMessage(image, normArguments(x, x - 1992, weight, 128)),
            "apart");
  std::string inPlace = apartMessage(image, normArguments(x, x, weight, 128));
  EXPECT_NE(inPlace.find("output 'y' shares memory with input 'x'"),
            std::string::npos)
      << inPlace;
  EXPECT_NE(apartMessage(image, normArguments(x, x + 1990, weight, 128)),
            "apart")
      << "y's first row over x's last two bytes";
  EXPECT_NE(apartMessage(image, normArguments(x, x + 256, weight, 128)),
            "apart")
      << "y one row after x";
  std::string overWeight =
      apartMessage(image, normArguments(x, weight - 2, weight, 128));
  EXPECT_NE(overWeight.find("input 'weight'"), std::string::npos)
      << overWeight;
  EXPECT_EQ(apartMessage(image, normArguments(x, x + 4096, x, 128)), "apart")
      << "inputs may share memory";
  EXPECT_EQ(apartMessage(image, normArguments(x, 0, weight, 128)), "apart")
      << "a tensor not given is packArguments' to refuse";
}

TEST(RuntimeProgramTest, InterleavedRowsAreApart) {
  ProgramImage image = normImage();
  const uint64_t x = 1 << 20, weight = 1 << 24;
  // Rows of 200 bytes, 400 apart: y's rows in x's gaps, either way.
  for (int64_t offset : {200, -200, 600, 7 * 400 + 200})
    EXPECT_EQ(apartMessage(image, normArguments(x, x + offset, weight, 200)),
              "apart")
        << offset;
  for (int64_t offset : {198, -198, 2 * 400 + 100, 7 * 400 + 198, -7 * 400})
    EXPECT_NE(apartMessage(image, normArguments(x, x + offset, weight, 200)),
              "apart")
        << offset;
  // A batch's instances: only the spans are compared.
  EXPECT_NE(apartMessage(image, normArguments(x, x + 200, weight, 200)
                                    .instances(2, 1)),
            "apart");
}

TEST(RuntimeProgramTest, OutputsMustNotShareMemoryWithEachOther) {
  ProgramImage image = sampleImage();
  image.signatures[0].arguments.push_back(
      {ArgRole::output, "lse", ArgExtent::per_row, "f32", 4});
  const uint64_t x = 1 << 20;
  LaunchArguments arguments = normArguments(x, x + 4096, 0, 128);
  arguments.tensor("lse", x + 4096 + 7 * 256 + 200);
  EXPECT_EQ(apartMessage(image, arguments), "apart");
  arguments.tensor("lse", x + 4096 + 7 * 256 + 196);
  std::string shared = apartMessage(image, arguments);
  EXPECT_NE(shared.find("output 'lse' shares memory with output 'y'"),
            std::string::npos)
      << shared;
}

// A batch of 2 x 3 problems of 5 x 8 (q in, o out): an output whose rows
// of different instances meet is refused, laid out densely or [B, M, H, D]
// it is not; an input may repeat its rows (a head stride of 0).
TEST(RuntimeProgramTest, BatchedOutputsMustNotOverlapThemselves) {
  ProgramImage image;
  image.target = "gpu sm_90";
  image.shapes = {1000, 8, ElementType::BF16, {}};
  image.signatures = {{"attention",
                       {{ArgRole::output, "o", ArgExtent::matrix, "bf16", 2},
                        {ArgRole::input, "q", ArgExtent::matrix, "bf16", 2}}}};
  auto batch = [] {
    LaunchArguments arguments(5, 8);
    arguments.tensor("q", uint64_t(1) << 20).tensor("o", uint64_t(1) << 24);
    arguments.instances(2, 3);
    return arguments;
  };
  EXPECT_EQ(apartMessage(image, batch()), "apart") << "dense";
  LaunchArguments bshd = batch();
  bshd.rowStride("o", 24).headStride("o", 8).batchStride("o", 120);
  EXPECT_EQ(apartMessage(image, bshd), "apart") << "a row's heads side by side";
  LaunchArguments repeatedInput = batch();
  repeatedInput.headStride("q", 0);
  EXPECT_EQ(apartMessage(image, repeatedInput), "apart");
  LaunchArguments repeatedOutput = batch();
  repeatedOutput.headStride("o", 0);
  std::string message = apartMessage(image, repeatedOutput);
  EXPECT_NE(message.find("output 'o' overlaps itself"), std::string::npos)
      << message;
  LaunchArguments shortBatches = batch();
  shortBatches.batchStride("o", 40);
  EXPECT_NE(apartMessage(image, shortBatches), "apart")
      << "batch 1 over batch 0's heads 1 and 2";
  LaunchArguments shortHeads = batch();
  shortHeads.headStride("o", 36);
  EXPECT_NE(apartMessage(image, shortHeads), "apart")
      << "each head's last row over the next head's first";
}

TEST(RuntimeProgramTest, GridCoversTheRows) {
  ProgramImage image = sampleImage();
  EXPECT_EQ(image.getGrid(1), 1);
  EXPECT_EQ(image.getGrid(1000), 1000);
  image.rowsPerProgram = 4;
  image.rowParts = 3;
  EXPECT_EQ(image.getGrid(1), 3);
  EXPECT_EQ(image.getGrid(9), 9);
  EXPECT_EQ(image.getGrid(8), 6);
  image.rowParts = INT32_MAX;
  EXPECT_EQ(image.getGrid(INT64_MAX), INT64_MAX) << "overflow saturates";
}

} // namespace
