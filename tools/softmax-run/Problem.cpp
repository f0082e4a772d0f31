//===- Problem.cpp - the problem and the kernel arguments -----------------===//
#include "Problem.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>

using namespace softmax_run;
using blk::runtime::ArgExtent;
using blk::runtime::ArgRole;

static bool isTensor(const mlir::blk::KernelArgument &argument) {
  return blk::runtime::isTensorRole(argument.role);
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

blk::runtime::Status
softmax_run::getTensors(const blk::runtime::ProgramImage &image,
                        std::vector<Tensor> &tensors) {
  llvm::StringSet<> seen;
  tensors.clear();
  for (const mlir::blk::KernelSignature &signature : image.signatures)
    for (const mlir::blk::KernelArgument &argument : signature.arguments) {
      if (!isTensor(argument) || !seen.insert(argument.name).second)
        continue;
      int64_t elements = 0;
      if (blk::runtime::Status status =
              blk::runtime::getTensorElements(argument, image.shape, elements);
          !status)
        return status;
      tensors.push_back({argument, static_cast<size_t>(elements) *
                                       static_cast<size_t>(argument.bytes)});
    }
  return blk::runtime::Status::success();
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

blk::runtime::LaunchArguments
softmax_run::getLaunchArguments(const Problem &problem) {
  blk::runtime::LaunchArguments arguments(problem.rows(), problem.cols());
  for (const auto &stride : problem.desc.rowStrides)
    arguments.rowStride(stride.getKey().str(), stride.getValue());
  for (const auto &param : problem.params)
    arguments.param(param.getKey().str(), param.getValue());
  return arguments;
}

bool softmax_run::checkParams(
    const std::vector<mlir::blk::KernelSignature> &signatures,
    const Problem &problem, std::string &error) {
  llvm::StringSet<> declared;
  for (const mlir::blk::KernelSignature &signature : signatures)
    for (const mlir::blk::KernelArgument &argument : signature.arguments)
      if (argument.role == ArgRole::param)
        declared.insert(argument.name);
  for (const auto &param : problem.params)
    if (!declared.contains(param.getKey())) {
      std::vector<std::string> names;
      for (const auto &name : declared)
        names.push_back(name.getKey().str());
      llvm::sort(names);
      error = "--param " + param.getKey().str() +
              ": the program has no parameter of that name (its parameters: " +
              (names.empty() ? std::string("none") : llvm::join(names, ", ")) +
              ")";
      return false;
    }
  for (const mlir::blk::KernelSignature &signature : signatures)
    for (const mlir::blk::KernelArgument &argument : signature.arguments)
      if (argument.role == ArgRole::param &&
          !problem.params.count(argument.name)) {
        error = "kernel @" + signature.name + " takes parameter '" +
                argument.name + "' (" + argument.type +
                "); give it with --param " + argument.name + "=<value>";
        return false;
      }
  return true;
}
