//===- Problem.cpp - the problem and the kernel arguments -----------------===//
#include "Problem.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"


using namespace softmax_run;
using blk::runtime::ArgExtent;
using blk::runtime::ArgRole;

static bool isTensor(const mlir::blk::KernelArgument &argument) {
  return blk::runtime::isTensorRole(argument.role);
}

bool softmax_run::findInputAndOutput(
    const std::vector<mlir::blk::KernelSignature> &signatures,
    Problem &problem, std::string &error) {
  std::vector<std::string> tensors;
  std::string anyOutput;
  for (const mlir::blk::KernelSignature &signature : signatures)
    for (const mlir::blk::KernelArgument &argument : signature.arguments) {
      if (!isTensor(argument) || argument.role == ArgRole::scratch)
        continue;
      tensors.push_back(argument.name);
      if (argument.role == ArgRole::output && anyOutput.empty())
        anyOutput = argument.name;
      // A product's A (rows x inner) has a row per problem row too.
      if (argument.extent != ArgExtent::matrix &&
          !(argument.role == ArgRole::input &&
            argument.extent == ArgExtent::rows_by_inner))
        continue;
      std::string &primary =
          argument.role == ArgRole::input ? problem.input : problem.output;
      if (primary.empty())
        primary = argument.name;
    }
  if (problem.output.empty())
    problem.output = anyOutput;
  if (problem.input.empty() || problem.output.empty()) {
    error = "softmax-run runs programs with a matrix input and an output, "
            "but this one declares the tensors [" +
            llvm::join(tensors, ", ") + "]";
    return false;
  }
  return true;
}

blk::runtime::ProgramShape Problem::getShape() const {
  blk::runtime::ProgramShape shape = desc.getProgramShape();
  shape.batch = batch;
  shape.heads = heads;
  shape.batchStrides = batchStrides;
  shape.headStrides = headStrides;
  return shape;
}

bool softmax_run::fitBatch(
    const std::vector<mlir::blk::KernelSignature> &signatures,
    const std::string &layout, Problem &problem, std::string &error) {
  auto takes = [&](ArgRole role) {
    return llvm::any_of(signatures, [&](const auto &signature) {
      return llvm::any_of(signature.arguments, [&](const auto &argument) {
        return argument.role == role;
      });
    });
  };
  bool batched = takes(ArgRole::batch) && takes(ArgRole::heads);
  if (!batched && problem.batch * problem.heads > 1) {
    error = "--batch and --heads give " + std::to_string(problem.batch) +
            " x " + std::to_string(problem.heads) +
            " problems, but no kernel of the program takes both `batch` and "
            "`heads` arguments (#blk.arg<batch>, #blk.arg<heads>)";
    return false;
  }
  // Every tensor of a batch must move with it: a tensor without its
  // strides would be read at the first instance only.
  if (problem.batch * problem.heads > 1 || layout == "bshd")
    for (const blk::runtime::KernelArgument &tensor :
         blk::runtime::getTensorArguments(signatures))
      for (ArgRole role : {ArgRole::batch_stride, ArgRole::head_stride})
        if (!llvm::any_of(signatures, [&](const auto &signature) {
              return llvm::any_of(signature.arguments, [&](const auto &arg) {
                return arg.role == role && arg.name == tensor.name;
              });
            })) {
          error = "a batch of " + std::to_string(problem.batch) + " x " +
                  std::to_string(problem.heads) + " problems, but tensor '" +
                  tensor.name + "' has no " +
                  (role == ArgRole::batch_stride ? "batch_stride"
                                                 : "head_stride") +
                  " argument: every tensor of a batched program takes both";
          return false;
        }
  if (layout != "bshd")
    return true;
  if (!batched) {
    error = "--layout bshd lays out a batch's heads, but no kernel of the "
            "program takes both `batch` and `heads` arguments";
    return false;
  }
  blk::runtime::ProgramShape shape = problem.getShape();
  for (const blk::runtime::KernelArgument &tensor :
       blk::runtime::getTensorArguments(signatures)) {
    if (!blk::runtime::hasRowStride(tensor.extent))
      continue;
    blk::runtime::TensorExtent extent = shape.getExtent(tensor.extent);
    problem.desc.rowStrides[tensor.name] = problem.heads * extent.cols;
    problem.headStrides.push_back({tensor.name, extent.cols});
    problem.batchStrides.push_back(
        {tensor.name, extent.rows * problem.heads * extent.cols});
  }
  return true;
}

blk::runtime::LaunchArguments
softmax_run::getLaunchArguments(const Problem &problem) {
  blk::runtime::LaunchArguments arguments(problem.rows(), problem.cols(),
                                          problem.desc.inner);
  for (const auto &stride : problem.desc.rowStrides)
    arguments.rowStride(stride.getKey().str(), stride.getValue());
  arguments.instances(problem.batch, problem.heads);
  for (const auto &[name, stride] : problem.batchStrides)
    arguments.batchStride(name, stride);
  for (const auto &[name, stride] : problem.headStrides)
    arguments.headStride(name, stride);
  for (const auto &param : problem.params)
    arguments.param(param.getKey().str(), param.getValue());
  return arguments;
}

blk::runtime::ScalarValues softmax_run::getScalars(const Problem &problem,
                                                   const Specialization &binding) {
  blk::runtime::ScalarValues scalars;
  for (const auto &param : problem.params)
    scalars.push_back({param.getKey().str(),
                       blk::runtime::ScalarValue::fromText(param.getValue())});
  for (const auto &constant : binding.constants)
    scalars.push_back({constant.getKey().str(),
                       blk::runtime::ScalarValue::fromInteger(
                           constant.getValue())});
  return scalars;
}

uint64_t
softmax_run::getMovedBytes(const std::vector<blk::runtime::HostTensor> &tensors) {
  uint64_t bytes = 0;
  for (const blk::runtime::HostTensor &tensor : tensors)
    bytes += tensor.getLogicalBytes();
  return bytes;
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
