//===- Compiler.cpp - the compiler for embedding, without MLIR ------------===//
#include "blk/Driver/Compiler.h"

#include "blk/Driver/Driver.h"
#include "blk/Driver/ProgramText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>

using namespace blk;
using runtime::Status;

struct Compiler::State {
  State() : context(getRegistry()) {}

  static mlir::DialectRegistry getRegistry() {
    mlir::DialectRegistry registry;
    mlir::blk::registerCompilerDialects(registry);
    return registry;
  }

  mlir::MLIRContext context;
  /// One compilation at a time: each installs its own diagnostic handler on
  /// the shared context (two at once had each other's messages and crashed).
  std::mutex compiling;
};

Compiler::Compiler() : state(std::make_unique<State>()) {
  state->context.printOpOnDiagnostic(false);
}

Compiler::~Compiler() = default;

static mlir::blk::ProblemDesc getProblem(const runtime::ProgramShape &shape) {
  mlir::blk::ProblemDesc problem;
  problem.rows = shape.rows;
  problem.cols = shape.cols;
  problem.elementType = shape.elementType;
  for (const auto &[name, stride] : shape.rowStrides)
    problem.rowStrides[name] = stride;
  problem.inner = shape.inner;
  return problem;
}

Status Compiler::compileSoftmax(const runtime::ProgramShape &shape,
                                const CompileOptions &options,
                                runtime::ProgramImage &image) {
  const mlir::blk::BuiltinProgram &builtin =
      mlir::blk::chooseBuiltinSoftmax(getProblem(shape), options);
  return compile(builtin.source.str(), builtin.name.str(), shape, options,
                 image);
}

Status Compiler::compile(const std::string &programText,
                         const std::string &name,
                         const runtime::ProgramShape &shape,
                         const CompileOptions &options,
                         runtime::ProgramImage &image) {
  if (Status checked = checkProgramText(programText, name); !checked)
    return checked;
  std::lock_guard<std::mutex> lock(state->compiling);
  // Diagnostics become the Status message: "name:line:col: error: ...",
  // one per line, as a tool would print them.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(programText, name), llvm::SMLoc());
  std::string messages;
  llvm::raw_string_ostream stream(messages);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &state->context, stream);
  auto failure = [&](const char *what) {
    return Status::failure(messages.empty() ? std::string(what)
                                            : llvm::StringRef(messages)
                                                  .rtrim()
                                                  .str());
  };

  mlir::OwningOpRef<mlir::ModuleOp> program =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &state->context);
  if (!program)
    return failure("the program does not parse");
  mlir::blk::ProblemDesc problem = getProblem(shape);
  mlir::FailureOr<mlir::blk::CompiledProgram> compiled =
      mlir::blk::compileForProblem(*program, problem, options,
                                   mlir::blk::HostCode::objectOnly);
  if (mlir::failed(compiled))
    return failure("compilation failed");
  image = std::move(compiled->image);
  return Status::success();
}
