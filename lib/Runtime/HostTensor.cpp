//===- HostTensor.cpp - a program's tensors in host memory ----------------===//
#include "blk/Runtime/HostTensor.h"

#include "blk/Runtime/Launch.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace blk::runtime;

Status HostTensor::create(const KernelArgument &declaration,
                          const ProgramShape &shape, HostTensor &tensor) {
  tensor = HostTensor();
  tensor.declaration = declaration;
  const std::string &type = declaration.type;
  if (type == "f32" || type == "f16" || type == "bf16") {
    tensor.elementType = type == "f32"   ? ElementType::F32
                         : type == "f16" ? ElementType::F16
                                         : ElementType::BF16;
  } else if (type == "i32" || type == "i64") {
    tensor.floatType = false;
  } else {
    return Status::failure("tensor '" + declaration.name + "' has elements of " +
                           type + "; the host holds f32, f16, bf16, i32 and "
                           "i64 tensors");
  }
  TensorExtent extent = shape.getExtent(declaration.extent);
  tensor.instanceRows = extent.rows;
  tensor.cols = extent.cols;
  tensor.rowStride = hasRowStride(declaration.extent)
                         ? shape.getRowStride(declaration)
                         : extent.cols;
  tensor.heads = shape.heads;
  tensor.batchStride = shape.getBatchStride(declaration);
  tensor.headStride = shape.getHeadStride(declaration);
  int64_t elements = 0, bytes = 0;
  if (Status status = getTensorElements(declaration, shape, elements); !status)
    return status;
  if (__builtin_mul_overflow(elements, declaration.bytes, &bytes) ||
      __builtin_mul_overflow(shape.getInstances(), extent.rows, &tensor.rows))
    return Status::failure("tensor '" + declaration.name +
                           "' has more bytes than 64 bits count");
  tensor.bytes.assign(size_t(bytes), 0);
  return Status::success();
}

int64_t HostTensor::getElementIndex(int64_t row, int64_t col) const {
  if (instanceRows == rows)
    return row * rowStride + col;
  int64_t instance = row / instanceRows;
  return instance / heads * batchStride + instance % heads * headStride +
         row % instanceRows * rowStride + col;
}

double HostTensor::get(int64_t row, int64_t col) const {
  if (floatType)
    return loadAsFloat(&bytes[offset(row, col)], elementType, 0);
  return double(getInteger(row, col));
}

int64_t HostTensor::getInteger(int64_t row, int64_t col) const {
  assert(!floatType && "getInteger reads integer tensors");
  const uint8_t *element = &bytes[offset(row, col)];
  if (declaration.bytes == 4) {
    int32_t value;
    std::memcpy(&value, element, 4);
    return value;
  }
  int64_t value;
  std::memcpy(&value, element, 8);
  return value;
}

void HostTensor::setInteger(int64_t row, int64_t col, int64_t value) {
  assert(!floatType && "setInteger writes integer tensors");
  uint8_t *element = &bytes[offset(row, col)];
  if (declaration.bytes == 8) {
    std::memcpy(element, &value, 8);
    return;
  }
  auto narrow = int32_t(std::clamp<int64_t>(
      value, std::numeric_limits<int32_t>::lowest(),
      std::numeric_limits<int32_t>::max()));
  std::memcpy(element, &narrow, 4);
}

void HostTensor::set(int64_t row, int64_t col, double value) {
  uint8_t *element = &bytes[offset(row, col)];
  if (!floatType) {
    // Saturated (NaN: 0): converting a value the type cannot hold is
    // undefined behaviour; whoever gave it (a --param) is refused later.
    auto saturate = [&](auto limits) -> decltype(limits.max()) {
      using Int = decltype(limits.max());
      if (std::isnan(value))
        return 0;
      if (value <= double(limits.lowest()))
        return limits.lowest();
      if (value >= double(limits.max()))
        return limits.max();
      return Int(value);
    };
    if (declaration.bytes == 4) {
      int32_t narrow = saturate(std::numeric_limits<int32_t>());
      std::memcpy(element, &narrow, 4);
    } else {
      int64_t wide = saturate(std::numeric_limits<int64_t>());
      std::memcpy(element, &wide, 8);
    }
    return;
  }
  // Through float first: the 16-bit conversions take floats, and a double
  // beyond float's range becomes the infinity every narrower type holds.
  float single = float(value);
  uint16_t bits = 0;
  switch (elementType) {
  case ElementType::F32:
    std::memcpy(element, &single, 4);
    return;
  case ElementType::F16:
    bits = floatToHalfBits(single);
    break;
  case ElementType::BF16:
    bits = floatToBf16Bits(single);
    break;
  }
  std::memcpy(element, &bits, 2);
}

void HostTensor::poison() {
  if (!floatType) {
    std::memset(bytes.data(), 0xAB, bytes.size());
    return;
  }
  uint32_t pattern = poisonBits(elementType);
  size_t size = elementSize(elementType);
  for (size_t i = 0; i + size <= bytes.size(); i += size)
    std::memcpy(&bytes[i], &pattern, size);
}

uint64_t HostTensor::getLogicalBytes() const {
  return uint64_t(rows) * uint64_t(cols) * uint64_t(declaration.bytes);
}

Status
blk::runtime::createHostTensors(const std::vector<KernelSignature> &signatures,
                                const ProgramShape &shape,
                                std::vector<HostTensor> &tensors,
                                TensorGroup group) {
  tensors.clear();
  for (const KernelArgument &argument : getTensorArguments(signatures)) {
    if ((argument.role == ArgRole::scratch) != (group == TensorGroup::scratch))
      continue;
    tensors.emplace_back();
    if (Status status = HostTensor::create(argument, shape, tensors.back());
        !status)
      return status;
  }
  return Status::success();
}

HostTensor *blk::runtime::findTensor(std::vector<HostTensor> &tensors,
                                     const std::string &name) {
  for (HostTensor &tensor : tensors)
    if (tensor.getName() == name)
      return &tensor;
  return nullptr;
}

const HostTensor *blk::runtime::findTensor(
    const std::vector<HostTensor> &tensors, const std::string &name) {
  return findTensor(const_cast<std::vector<HostTensor> &>(tensors), name);
}
