//===- CPU.h - block programs on the host: pipeline and JIT -----*- C++ -*-===//
//
// The CPU path runs the same specialized block program as the GPU, on the
// host, to check its numerics where there is no GPU. Each kernel becomes a
// function computing one program; CPUKernels compiles a program to a
// relocatable object (which the kernel cache can keep), links it into the
// process with LLVM's ORC JIT and calls that function once per program id.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_CPU_H
#define BLK_TARGET_CPU_H

#include "blk/Target/CompileOptions.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <csetjmp>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class StdThreadPool;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace mlir {
class OpPassManager;

namespace blk {

/// blk (specialized) -> tensors and linalg (convert-blk-to-cpu; integer
/// elements folded where read, blk-fold-element-extracts) -> elementwise
/// fusion -> exp/log as polynomials (blk-approximate-math), bf16
/// conversions as integer ops (blk-expand-bf16) -> one-shot bufferization,
/// blocks on the stack where they fit, ownership-based deallocation of the
/// rest (from a per-thread cache of the runtime) -> loops -> LLVM dialect,
/// ready for the JIT, whose loop vectorizer widens the loops for the
/// host's vector instructions. With
/// the record's `checkBounds`, every element access asks
/// @blk_access_in_bounds first (convert-blk-to-cpu's check-bounds).
void buildBlkToCPUPipeline(OpPassManager &pm,
                           const ::blk::CompileOptions &options);

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
  /// Host code of a program: a relocatable object, and what each access
  /// number of bounds-checked code is ("load at f.mlir:3:5").
  struct ObjectCode {
    std::string object;
    std::vector<std::string> accessNames;
  };
  /// Lowers a clone of `specializedProgram` (left unchanged) with the
  /// blk-to-cpu pipeline and generates host code for it at -O2 (what the
  /// kernel cache keeps). Fails, with a diagnostic, if the program has no
  /// kernel or any step fails. With the record's `checkBounds`, every
  /// access is checked
  /// against the buffers given to setBuffers (one call per element: for
  /// checking, not for speed).
  static FailureOr<ObjectCode>
  compileToObject(ModuleOp specializedProgram,
                  const ::blk::CompileOptions &options);
  /// Links `code`, compiled from `specializedProgram` (or a program printed
  /// the same), into this process.
  static FailureOr<std::unique_ptr<CPUKernels>>
  load(ModuleOp specializedProgram, const ObjectCode &code);
  /// A kernel of host code as its image lists it (no program at hand).
  struct KernelEntry {
    std::string name;
    unsigned numArguments;
  };
  /// Links `code` whose kernels are `kernels` (the MLIR-free CpuProgram's
  /// way: from an image); messages name the kernels, not the program's
  /// locations.
  static FailureOr<std::unique_ptr<CPUKernels>>
  load(MLIRContext *context, ArrayRef<KernelEntry> kernels,
       const ObjectCode &code);

  /// The memory a bounds-checked run may access: [start, start + bytes)
  /// for each buffer.
  struct Buffer {
    const void *start;
    size_t bytes;
    /// What the buffer holds (a tensor's name), for messages.
    std::string name;
  };
  void setBuffers(std::vector<Buffer> buffers);

  /// Runs `kernel` for program ids 0 .. numPrograms-1 along x, and
  /// 0 .. gridY-1 along y (x fastest), on
  /// getThreads(threads, numPrograms x gridY) threads (this one and workers kept
  /// for the next run), each taking a contiguous range of ids in order; it
  /// returns when all have finished. Not to be called from two threads at
  /// once. `argumentPointers` holds one
  /// pointer per kernel argument, pointing at its value: a `void *` for a
  /// `!blk.ptr`, an `int32_t` for an i32 (the C type of each scalar). Fails,
  /// with a diagnostic, on an unknown kernel, a wrong number of arguments,
  /// or a grid that does not fit in i32; with bounds checks, also on an
  /// access outside the buffers, naming the op, the program and the address
  /// (the access is skipped, so the host's memory stays intact; the lowest
  /// violating program is reported, whatever the threads).
  LogicalResult run(StringRef kernel, ArrayRef<void *> argumentPointers,
                    int64_t numPrograms, unsigned threads = 0,
                    int64_t gridY = 1);

  /// The threads run() uses: `requested`, or with 0 the cores this process
  /// may run on, and never more than there are programs.
  static unsigned getThreads(unsigned requested, int64_t numPrograms);

  /// The kernels' names, in the order of the program.
  std::vector<std::string> kernelNames() const;

  ~CPUKernels();

  /// A kernel of the program (public for CPU.cpp's helpers).
  struct Kernel {
    std::string name;
    unsigned numArguments;
    Location loc;
    /// The packed wrapper of the host function ("_mlir_<name>", as MLIR's
    /// ExecutionEngine names them): takes an array of pointers to the
    /// arguments (the kernel's, then program id and count).
    void (*entry)(void **);
  };

  /// What bounds-checked code reports to (see CPU.cpp).
  struct BoundsState {
    std::vector<Buffer> buffers;
    /// "load at f.mlir:3:5", by access number (the module's blk.accesses).
    std::vector<std::string> accesses;
    int32_t program = 0;
    /// The first access outside every buffer; the run stops there (the
    /// checker jumps back to run(), leaving the program: code that went
    /// wrong once, e.g. a loop from -2^31, may go on for a long time).
    bool violated = false;
    /// The buffer of the violating access's kernel argument, if known.
    const Buffer *ownBuffer = nullptr;
    std::jmp_buf *stop = nullptr;
    int32_t access = 0, violatingProgram = 0;
    uintptr_t address = 0;
    int64_t bytes = 0;
    /// The size of a block the violating program could not allocate (the
    /// host is out of memory), or 0; the run stops there too.
    uint64_t unallocatedBytes = 0;
  };

private:
  CPUKernels(Location programLoc, std::unique_ptr<llvm::orc::LLJIT> jit,
             std::vector<Kernel> kernels, BoundsState bounds);
  /// Both loads: links `code` and finds each kernel's entry.
  static FailureOr<std::unique_ptr<CPUKernels>>
  link(Location programLoc, std::vector<Kernel> kernels,
       const ObjectCode &code);

  /// The error for a recorded violation.
  LogicalResult reportViolation(const Kernel &kernel);

  Location programLoc;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<Kernel> kernels;
  BoundsState bounds;
  /// The threads beside the caller's, started by the first run on more
  /// than one.
  std::unique_ptr<llvm::StdThreadPool> workerPool;
};

} // namespace blk
} // namespace mlir

#endif // BLK_TARGET_CPU_H
