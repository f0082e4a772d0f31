//===- Problem.cpp - the problem and the kernel arguments -----------------===//
#include "Problem.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>

using namespace softmax_run;
using mlir::blk::ArgExtent;
using mlir::blk::ArgRole;

static bool isTensor(const mlir::blk::KernelArgument &argument) {
  return mlir::blk::isTensorRole(argument.role);
}

bool softmax_run::findInputAndOutput(
    const std::vector<mlir::blk::KernelSignature> &signatures,
    Problem &problem, std::string &error) {
  llvm::StringSet<> seen;
  std::vector<std::string> inputs, outputs;
  bool matrices = true;
  for (const mlir::blk::KernelSignature &signature : signatures)
    for (const mlir::blk::KernelArgument &argument : signature.arguments) {
      if (!isTensor(argument) || argument.role == ArgRole::scratch ||
          !seen.insert(argument.name).second)
        continue;
      (argument.role == ArgRole::input ? inputs : outputs)
          .push_back(argument.name);
      matrices &= argument.extent == ArgExtent::matrix;
    }
  if (!matrices || inputs.size() != 1 || outputs.size() != 1) {
    error = "softmax-run runs programs with one matrix input and one matrix "
            "output, but this one declares inputs [" +
            llvm::join(inputs, ", ") + "] and outputs [" +
            llvm::join(outputs, ", ") + "]";
    return false;
  }
  problem.input = inputs[0];
  problem.output = outputs[0];
  return true;
}

std::vector<Tensor>
softmax_run::getTensors(const std::vector<mlir::blk::KernelSignature> &signatures,
                        const Problem &problem) {
  llvm::StringSet<> seen;
  std::vector<Tensor> tensors;
  for (const mlir::blk::KernelSignature &signature : signatures)
    for (const mlir::blk::KernelArgument &argument : signature.arguments) {
      if (!isTensor(argument) || !seen.insert(argument.name).second)
        continue;
      // The driver checked that a matrix's element count fits in int64_t.
      int64_t elements =
          argument.extent == ArgExtent::per_row   ? problem.rows()
          : argument.extent == ArgExtent::per_col ? problem.cols()
                                                  : *problem.desc.getMatrixElements(argument.name);
      tensors.push_back({argument, static_cast<size_t>(elements) *
                                       static_cast<size_t>(argument.bytes)});
    }
  return tensors;
}

std::vector<uint8_t> softmax_run::stageInput(const Problem &problem) {
  size_t elementBytes = blk::runtime::elementSize(problem.type());
  std::vector<uint8_t> staged(problem.data.size() * elementBytes);
  for (size_t i = 0; i < problem.data.size(); ++i) {
    float value = problem.data[i];
    uint16_t bits = 0;
    switch (problem.type()) {
    case blk::runtime::ElementType::F32:
      std::memcpy(&staged[i * 4], &value, 4);
      continue;
    case blk::runtime::ElementType::F16:
      bits = blk::runtime::floatToHalfBits(value);
      break;
    case blk::runtime::ElementType::BF16:
      bits = blk::runtime::floatToBf16Bits(value);
      break;
    }
    std::memcpy(&staged[i * 2], &bits, 2);
  }
  return staged;
}

/// Writes `value`, of the scalar type `type`, into the low bytes of `slot`.
static bool packScalar(llvm::StringRef text, llvm::StringRef type,
                       uint64_t &slot) {
  slot = 0;
  if (type.starts_with("i")) {
    int64_t value;
    unsigned bits = 0;
    if (text.getAsInteger(0, value) || type.drop_front().getAsInteger(10, bits))
      return false;
    if (bits < 64 && (value > (int64_t(1) << (bits - 1)) - 1 ||
                      value < -(int64_t(1) << (bits - 1))))
      return false;
    std::memcpy(&slot, &value, bits / 8); // little-endian: the low bytes
    return true;
  }
  double value;
  if (text.getAsDouble(value))
    return false;
  if (type == "f64") {
    std::memcpy(&slot, &value, 8);
    return true;
  }
  if (type != "f32")
    return false;
  float narrow = static_cast<float>(value);
  std::memcpy(&slot, &narrow, 4);
  return true;
}

bool KernelArguments::build(const mlir::blk::KernelSignature &signature,
                            const llvm::StringMap<uint64_t> &addresses,
                            const Problem &problem,
                            KernelArguments &arguments, std::string &error) {
  arguments.values.assign(signature.arguments.size(), 0);
  for (auto [index, argument] : llvm::enumerate(signature.arguments)) {
    uint64_t &slot = arguments.values[index];
    std::string text;
    switch (argument.role) {
    case ArgRole::input:
    case ArgRole::output:
    case ArgRole::scratch:
      slot = addresses.lookup(argument.name);
      continue;
    case ArgRole::row_stride:
      text = std::to_string(problem.desc.getRowStride(argument.name));
      break;
    case ArgRole::rows:
      text = std::to_string(problem.rows());
      break;
    case ArgRole::cols:
      text = std::to_string(problem.cols());
      break;
    case ArgRole::param: {
      auto it = problem.params.find(argument.name);
      if (it == problem.params.end()) {
        error = "kernel @" + signature.name + " takes parameter '" +
                argument.name + "' (" + argument.type + "); give it with "
                "--param " + argument.name + "=<value>";
        return false;
      }
      text = it->second;
      break;
    }
    }
    if (!packScalar(text, argument.type, slot)) {
      error = "kernel @" + signature.name + " argument #" +
              std::to_string(index) + " (" + argument.name + ") is " +
              argument.type + ", which cannot hold " + text;
      return false;
    }
  }
  arguments.slots.clear();
  for (uint64_t &value : arguments.values)
    arguments.slots.push_back(&value);
  return true;
}

