//===- HostTensor.h - a program's tensors in host memory ---------*- C++ -*-===//
//
// The tensors a compiled program reads and writes, held on the host in the
// layout and element type the kernels use (row strides, f32/f16/bf16/i32/
// i64), so that a launcher copies them to a device as they are, and a
// checker reads any element as a double. softmax-run and the reference
// kernels (blk/Runtime/Reference.h) work on these.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_HOSTTENSOR_H
#define BLK_RUNTIME_HOSTTENSOR_H

#include "blk/Runtime/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace blk::runtime {

/// A tensor argument of a program on the host, of the rows and columns its
/// extent gives (ProgramShape::getExtent): a matrix is rows x cols, a
/// product's operands rows x inner and inner x cols (row r at element
/// r * rowStride); a per_row vector is rows x 1, a per_col vector 1 x
/// cols, both dense. A batch of B x H problems holds B x H such instances,
/// instance (b, h) from element b * batchStride + h * headStride; the
/// tensor's rows are then the instances' rows one after another (row
/// (b H + h) R + r is row r of instance (b, h)), whatever the strides.
class HostTensor {
public:
  /// Allocates `declaration` for `shape` (zeros); fails on an element type
  /// the host cannot hold or a size that overflows.
  static Status create(const KernelArgument &declaration,
                       const ProgramShape &shape, HostTensor &tensor);

  const KernelArgument &getDeclaration() const { return declaration; }
  const std::string &getName() const { return declaration.name; }
  int64_t getRows() const { return rows; }
  int64_t getCols() const { return cols; }
  int64_t getRowStride() const { return rowStride; }
  /// Rows of one instance, and the strides between instances.
  int64_t getInstanceRows() const { return instanceRows; }
  int64_t getBatchStride() const { return batchStride; }
  int64_t getHeadStride() const { return headStride; }
  /// Where element (row, col) lies, in elements from the first.
  int64_t getElementIndex(int64_t row, int64_t col) const;
  /// Elements the memory holds (the rows' padding included).
  int64_t getStorageElements() const {
    return int64_t(bytes.size()) / declaration.bytes;
  }
  /// Whether the elements are floats (f32, f16, bf16) or integers.
  bool isFloat() const { return floatType; }
  /// The float element type (isFloat() only).
  ElementType getElementType() const { return elementType; }

  /// Element (row, col), widened to double.
  double get(int64_t row, int64_t col) const;
  /// Sets element (row, col): a float rounded to the element type (to
  /// nearest even; beyond its range, infinity), an integer truncated
  /// toward zero and saturated to the type's range (NaN: 0).
  void set(int64_t row, int64_t col, double value);
  /// Element (row, col) of an integer tensor, exactly (get's double holds
  /// 53 bits of an i64).
  int64_t getInteger(int64_t row, int64_t col) const;
  /// Sets element (row, col) of an integer tensor exactly, saturated to
  /// the type's range.
  void setInteger(int64_t row, int64_t col, int64_t value);
  /// Fills every element, padding included, with the poison pattern of a
  /// float type (blk/Runtime/Numerics.h), or 0xAB bytes for integers.
  void poison();

  std::vector<uint8_t> &getBytes() { return bytes; }
  const std::vector<uint8_t> &getBytes() const { return bytes; }
  /// Bytes a kernel moves for it: rows x cols elements, padding excluded.
  uint64_t getLogicalBytes() const;

private:
  size_t offset(int64_t row, int64_t col) const {
    return size_t(getElementIndex(row, col)) * size_t(declaration.bytes);
  }

  KernelArgument declaration;
  int64_t rows = 0, cols = 0, rowStride = 0;
  int64_t instanceRows = 0, heads = 1, batchStride = 0, headStride = 0;
  bool floatType = true;
  ElementType elementType = ElementType::F32;
  std::vector<uint8_t> bytes;
};

/// Which of a program's tensors: those of the problem (every input and
/// output, which the caller fills and reads), or the scratch tensors the
/// program keeps for itself.
enum class TensorGroup { problem, scratch };

/// Every tensor of `group` the kernels declare, once each, in order of
/// first appearance, allocated for its shape.
Status createHostTensors(const std::vector<KernelSignature> &signatures,
                         const ProgramShape &shape,
                         std::vector<HostTensor> &tensors,
                         TensorGroup group = TensorGroup::problem);

/// The tensor named `name`, or null.
HostTensor *findTensor(std::vector<HostTensor> &tensors,
                       const std::string &name);
const HostTensor *findTensor(const std::vector<HostTensor> &tensors,
                             const std::string &name);

} // namespace blk::runtime

#endif // BLK_RUNTIME_HOSTTENSOR_H
