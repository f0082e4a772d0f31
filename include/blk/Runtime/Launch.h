//===- Launch.h - what a launch binds to a program's arguments --*- C++ -*-===//
//
// A caller names its tensors, strides and parameters as the kernels declare
// them (#blk.arg); packArguments turns them into the argument array a
// kernel takes on either target (cuLaunchKernel's kernelParams, or the host
// JIT's packed call). The row length and strides must be the ones the
// program was compiled for, the row count one its class serves (checkShape):
// compiled code relies on them.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_LAUNCH_H
#define BLK_RUNTIME_LAUNCH_H

#include "blk/Runtime/Program.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace blk::runtime {

class LaunchArguments {
public:
  /// The problem's rows and columns, and the inner dimension of a product
  /// (0 where the program has none).
  LaunchArguments(int64_t rows, int64_t cols, int64_t inner = 0)
      : numRows(rows), numCols(cols), numInner(inner) {
    shape.rows = rows;
    shape.cols = cols;
    shape.inner = inner;
  }

  /// The memory of a tensor: a device pointer on the GPU, a host pointer on
  /// the CPU.
  LaunchArguments &tensor(const std::string &name, uint64_t address);
  LaunchArguments &tensor(const std::string &name, const void *address) {
    return tensor(name, reinterpret_cast<uint64_t>(address));
  }
  /// A tensor's row stride in elements (default: its columns).
  LaunchArguments &rowStride(const std::string &name, int64_t elements);
  /// A batch of `batch x heads` problems of the shape (programs with
  /// `batch` and `heads` arguments; default 1 x 1), and the elements from
  /// one instance of a tensor to the next (default: densely packed,
  /// ProgramShape).
  LaunchArguments &instances(int64_t batch, int64_t heads);
  LaunchArguments &batchStride(const std::string &name, int64_t elements);
  LaunchArguments &headStride(const std::string &name, int64_t elements);
  /// A scalar parameter (role `param`), as text parsed for its declared
  /// type ("0.125", "-3") or as a number.
  LaunchArguments &param(const std::string &name, std::string value);
  LaunchArguments &param(const std::string &name, double value);

  int64_t rows() const { return numRows; }
  int64_t cols() const { return numCols; }
  int64_t inner() const { return numInner; }
  int64_t batch() const { return shape.batch; }
  int64_t heads() const { return shape.heads; }
  /// The problem these arguments describe, strides included.
  const ProgramShape &getShape() const { return shape; }
  /// 0 when the tensor was not given.
  uint64_t getTensor(const std::string &name) const;
  /// The row stride of `tensor` (a tensor or row_stride argument).
  int64_t getRowStride(const KernelArgument &tensor) const {
    return shape.getRowStride(tensor);
  }
  /// Null when the parameter was not given.
  const std::string *getParam(const std::string &name) const;

private:
  int64_t numRows, numCols, numInner;
  std::vector<std::pair<std::string, uint64_t>> tensors;
  /// Rows, cols and inner as above, the strides given and the instances
  /// (its element type is not the arguments').
  ProgramShape shape;
  std::vector<std::pair<std::string, std::string>> params;
};

/// Fails, saying what differs, unless the arguments' cols, inner dimension
/// and the row strides of every two-dimensional tensor of the program are
/// the ones it was compiled for, and its rows a count the image's
/// ShapeClass serves.
Status checkShape(const ProgramImage &image, const LaunchArguments &arguments);

/// Fails, naming both tensors, where an output shares memory with an input
/// or with another output on this problem (scratch tensors are the
/// program's own). Compiled code assumes they are apart: programs read a
/// per_col weight while others write their rows, and the compiler may move
/// a load of an input past a store to an output (blk-sink-to-uses), so an
/// in-place call would compute silently wrong rows. Two tensors of one
/// instance whose rows are the same bytes apart share memory where a row of
/// one meets a row of the other (rows side by side in one buffer do not);
/// any other two where the spans from their first to their last byte meet.
/// An output whose own rows meet (a batch's instances laid over each other,
/// a head stride of 0) fails too: its programs would write the same memory.
/// Tensors not given are left to packArguments.
Status checkTensorsApart(const ProgramImage &image,
                         const LaunchArguments &arguments);

/// Elements of a tensor argument on a problem: from its first element to
/// the end of its last instance's rows (its rows x its row stride, a
/// vector its rows or cols, after the last instance's start); fails on
/// overflow.
Status getTensorElements(const KernelArgument &tensor,
                         const ProgramShape &shape, int64_t &elements);

/// Bytes of a tensor argument on a problem (getTensorElements x its
/// element's bytes); fails on overflow.
Status getTensorBytes(const KernelArgument &tensor, const ProgramShape &shape,
                      size_t &bytes);

/// What a TMA descriptor describes (cuTensorMapEncodeTiled's arguments): a
/// row-major matrix of 16-bit `elementType` elements ("bf16" or "f16") at
/// `address`, `rows` x `cols` of them with rows `rowStrideBytes` apart,
/// read in boxes of `boxRows` x `boxCols`, with the 128-byte swizzle and
/// zeros outside the matrix.
struct TensorMapRequest {
  uint64_t address = 0;
  std::string elementType;
  int64_t rows = 0, cols = 0, rowStrideBytes = 0;
  int64_t boxRows = 0, boxCols = 0;
  /// Boxes whose rows land rotated (TensorMapParam): 4 dimensions.
  int64_t rotationFirst = 0, rotationBits = 0;
};

/// How a tensor map describes its matrix to the driver
/// (cuTensorMapEncodeTiled's rank, dimensions, byte strides of dimensions 1
/// and up, and box; fastest dimension first): columns and rows, or for a
/// rotated box columns, the 2^first rows of a group, the blocks of
/// 2^(first + bits - 1) rows (the matrix's whole ones; at least 1), and the
/// groups of a block, so that the box, written dimension by dimension,
/// lands with its groups rotated (BitRotation, blk/IR/Distribution.h).
struct TensorMapLayout {
  uint32_t rank = 2;
  uint64_t dims[4] = {1, 1, 1, 1};
  uint64_t strides[3] = {0, 0, 0};
  uint32_t box[4] = {1, 1, 1, 1};
};
TensorMapLayout getTensorMapLayout(const TensorMapRequest &request);

/// The 128 bytes of an encoded tensor map (CUtensorMap), aligned as a
/// kernel parameter of it must be.
struct alignas(64) TensorMapBytes {
  unsigned char bytes[128];
};

/// Encodes a tensor map (the GPU runtime's: CudaDriver::encodeTensorMap).
using TensorMapEncoder =
    std::function<Status(const TensorMapRequest &, TensorMapBytes &)>;

/// One kernel launch's argument array: a 64-bit slot per declared argument
/// (a scalar in its low bytes), the tensor maps after them, and a pointer
/// to each.
struct PackedArguments {
  std::vector<uint64_t> values;
  std::vector<TensorMapBytes> tensorMaps;
  std::vector<void *> slots;
};

/// Packs the arguments `signature` declares, then a tensor map for each of
/// `tensorMaps` (by `encoder`; the launch record's). Fails, naming the
/// kernel and the argument, on a tensor or parameter not given, a value its
/// type cannot hold, or a tensor map that cannot be encoded.
Status packArguments(const KernelSignature &signature,
                     const LaunchArguments &arguments, PackedArguments &packed,
                     const std::vector<TensorMapParam> &tensorMaps = {},
                     const TensorMapEncoder &encoder = nullptr);

} // namespace blk::runtime

#endif // BLK_RUNTIME_LAUNCH_H
