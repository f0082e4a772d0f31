//===- CPU.h - block programs on the host: pipeline and JIT -----*- C++ -*-===//
//
// The CPU path runs the same specialized block program as the GPU, on the
// host, to check its numerics where there is no GPU. Each kernel becomes a
// function computing one program; CPUKernels compiles a program with
// MLIR's ExecutionEngine and calls that function once per program id.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_CPU_H
#define BLK_TARGET_CPU_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
class OpPassManager;

namespace blk {

/// blk (specialized) -> tensors and linalg (convert-blk-to-cpu) ->
/// elementwise fusion -> one-shot bufferization and ownership-based buffer
/// deallocation -> loops -> LLVM dialect, ready for the JIT.
void buildBlkToCPUPipeline(OpPassManager &pm);

/// Registers the pipeline as `blk-to-cpu` for textual pipelines and tools.
void registerBlkToCPUPipeline();

/// Dialects, bufferization and deallocation models, ConvertToLLVM
/// interfaces and LLVM IR translations the pipeline and the JIT need.
void registerBlkToCPUDependencies(DialectRegistry &registry);

/// The kernels of a specialized block program, JIT-compiled for the host.
/// Diagnostics go to the program's MLIRContext, which must outlive this
/// object.
class CPUKernels {
public:
  /// Lowers a clone of `specializedProgram` (left unchanged) with the
  /// blk-to-cpu pipeline and JIT-compiles it at -O2. Fails, with a
  /// diagnostic, if the program has no kernel or any step fails.
  static FailureOr<std::unique_ptr<CPUKernels>>
  compile(ModuleOp specializedProgram);

  /// Runs `kernel` for program ids 0 .. numPrograms-1, in order, on this
  /// thread. `argumentPointers` holds one pointer per kernel argument,
  /// pointing at its value: a `void *` for a `!blk.ptr`, an `int32_t` for
  /// an i32 (the C type of each scalar). Fails, with a diagnostic, on an
  /// unknown kernel, a wrong number of arguments, or a grid that does not
  /// fit in i32.
  LogicalResult run(StringRef kernel, ArrayRef<void *> argumentPointers,
                    int64_t numPrograms);

  /// The kernels' names, in the order of the program.
  std::vector<std::string> kernelNames() const;

  ~CPUKernels();

private:
  struct Kernel {
    std::string name;
    unsigned numArguments;
    Location loc;
    /// ExecutionEngine's wrapper of the host function: takes an array of
    /// pointers to the arguments (the kernel's, then program id and count).
    void (*entry)(void **);
  };

  CPUKernels(Location programLoc, std::unique_ptr<ExecutionEngine> engine,
             std::vector<Kernel> kernels);

  Location programLoc;
  std::unique_ptr<ExecutionEngine> engine;
  std::vector<Kernel> kernels;
};

} // namespace blk
} // namespace mlir

#endif // BLK_TARGET_CPU_H
