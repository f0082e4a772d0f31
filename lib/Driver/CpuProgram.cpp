//===- CpuProgram.cpp - run a compiled program on the host, without MLIR --===//
#include "blk/Driver/CpuProgram.h"

#include "blk/Target/CPU.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

using namespace blk;
using runtime::Status;

struct CpuProgram::State {
  runtime::ProgramImage image;
  /// Where the kernels' diagnostics go: collected into run()'s Status.
  mlir::MLIRContext context;
  std::unique_ptr<mlir::blk::CPUKernels> kernels;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> scratch;
  int64_t scratchRows = 0;

  /// The program's scratch tensors for `rows` rows, zeroed; allocated
  /// again only for more rows than before.
  Status fitScratch(int64_t rows);
};

/// Runs `step`, turning the diagnostics it emits on `context` into the
/// failure's message ("error: ...", a line each).
template <typename Step>
static Status collectDiagnostics(mlir::MLIRContext &context, const char *what,
                                 Step step) {
  std::string messages;
  mlir::ScopedDiagnosticHandler collect(&context, [&](mlir::Diagnostic &d) {
    messages += (messages.empty() ? "" : "\n") + d.str();
    return mlir::success();
  });
  if (mlir::succeeded(step()))
    return Status::success();
  return Status::failure(messages.empty() ? std::string(what) : messages);
}

CpuProgram::CpuProgram(std::unique_ptr<State> state)
    : state(std::move(state)) {}
CpuProgram::~CpuProgram() = default;

const runtime::ProgramImage &CpuProgram::image() const { return state->image; }

Status CpuProgram::load(runtime::ProgramImage image,
                        std::unique_ptr<CpuProgram> &program) {
  if (image.isGPU() || image.object.empty())
    return Status::failure("a program compiled for '" + image.target +
                           "' has no host code to run on the CPU");
  auto state = std::make_unique<State>();
  std::vector<mlir::blk::CPUKernels::KernelEntry> entries;
  for (const runtime::KernelSignature &signature : image.signatures)
    entries.push_back(
        {signature.name, static_cast<unsigned>(signature.arguments.size())});
  mlir::FailureOr<std::unique_ptr<mlir::blk::CPUKernels>> kernels =
      mlir::failure();
  if (Status status = collectDiagnostics(
          state->context, "the host code does not link",
          [&] {
            kernels = mlir::blk::CPUKernels::load(
                &state->context, entries, {image.object, image.accessNames});
            return mlir::failure(mlir::failed(kernels));
          });
      !status)
    return status;
  state->kernels = std::move(*kernels);
  state->image = std::move(image);
  program.reset(new CpuProgram(std::move(state)));
  return Status::success();
}

Status CpuProgram::run(const runtime::LaunchArguments &arguments,
                       unsigned threads) {
  const runtime::ProgramImage &image = state->image;
  if (Status status = runtime::checkShape(image, arguments); !status)
    return status;
  if (Status status = runtime::checkTensorsApart(image, arguments); !status)
    return status;
  int64_t rows = arguments.rows();
  if (Status status = state->fitScratch(rows); !status)
    return status;
  runtime::LaunchArguments bound = arguments;
  for (auto &[name, bytes] : state->scratch)
    bound.tensor(name, bytes.data());
  // What bounds-checked code may touch: each tensor's extent on this
  // problem (unchecked code ignores it).
  const runtime::ProgramShape &shape = arguments.getShape();
  std::vector<mlir::blk::CPUKernels::Buffer> extents;
  for (const runtime::KernelArgument &argument :
       runtime::getTensorArguments(image.signatures)) {
    size_t bytes = 0;
    if (Status status = runtime::getTensorBytes(argument, shape, bytes);
        !status)
      return status;
    extents.push_back(
        {reinterpret_cast<const void *>(bound.getTensor(argument.name)), bytes,
         argument.name});
  }
  state->kernels->setBuffers(std::move(extents));
  runtime::PackedArguments packed;
  for (const runtime::KernelSignature &signature : image.signatures) {
    if (Status status = runtime::packArguments(signature, bound, packed);
        !status)
      return status;
    if (Status status = collectDiagnostics(state->context, "the run failed",
                                           [&] {
                                             return state->kernels->run(
                                                 signature.name, packed.slots,
                                                 image.getGrid(rows), threads,
                                                 shape.getInstances());
                                           });
        !status)
      return status;
  }
  return Status::success();
}

Status CpuProgram::State::fitScratch(int64_t rows) {
  if (rows <= scratchRows)
    return Status::success();
  scratch.clear();
  runtime::ProgramShape shape = image.shapes.withRows(rows);
  for (const runtime::KernelArgument &argument :
       runtime::getTensorArguments(image.signatures)) {
    if (argument.role != runtime::ArgRole::scratch)
      continue;
    size_t bytes = 0;
    if (Status status = runtime::getTensorBytes(argument, shape, bytes);
        !status)
      return status;
    scratch.emplace_back(argument.name, std::vector<uint8_t>(bytes));
  }
  scratchRows = rows;
  return Status::success();
}
