//===- Driver.h - the compile driver: a program, a problem, a target -*- C++ -*-===//
//
// The middle of the compiler, shared by softmax-opt, softmax-run, the C++
// examples and outside users:
//
//   program (blk) --fitProgram(problem, options)--> fitted program
//                 --chooseBinding(problem, options)--> Specialization
//                 --compileProgram(options)--> CompiledProgram
//                                    (PTX + launch records, or host code)
//
// `compileForProblem` does the three steps. A problem carries no data: the
// shape, the element type and the row strides, which is all compilation
// depends on. Every failure is an MLIR diagnostic on the program's context
// (a tool installs the handler it wants) and a failed FailureOr.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_DRIVER_H
#define BLK_DRIVER_DRIVER_H

#include "blk/IR/BlkDialect.h"
#include "blk/Programs/Binding.h"
#include "blk/Programs/Programs.h"
#include "blk/Runtime/Numerics.h"
#include "blk/Runtime/Program.h"
#include "blk/Target/CPU.h"
#include "blk/Target/CompileOptions.h"
#include "blk/Target/PTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::blk {

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// Every dialect, interface and translation a block program meets on its way
/// to PTX or to the host.
void registerCompilerDialects(DialectRegistry &registry);

/// The project's passes and pipelines (blk-to-ptx, blk-to-cpu), and the
/// upstream ones softmax-opt offers beside them, for textual pipelines.
void registerCompilerPasses();

//===----------------------------------------------------------------------===//
// Problems, options, results
//===----------------------------------------------------------------------===//

using ::blk::runtime::KernelArgument;
using ::blk::runtime::KernelSignature;

/// A problem without data: `rows x cols` elements of `elementType` in
/// every matrix tensor, and for a product an inner dimension (its operands
/// rows x inner and inner x cols); each two-dimensional tensor with its own
/// row stride.
struct ProblemDesc {
  int64_t rows = 0;
  int64_t cols = 0;
  ::blk::runtime::ElementType elementType = ::blk::runtime::ElementType::F32;
  /// Row strides in elements of two-dimensional tensors, by name; a tensor
  /// not named has rows of exactly its columns.
  llvm::StringMap<int64_t> rowStrides;
  /// The inner dimension K of a product (0: the program has none).
  int64_t inner = 0;

  /// The row stride of a tensor (or row_stride argument) as declared.
  int64_t getRowStride(const KernelArgument &tensor) const;
  RowShape getShape() const;
  /// The runtime's form of the problem (strides sorted by name).
  ::blk::runtime::ProgramShape getProgramShape() const;
  /// The problems a compilation for this one serves: any row count whose
  /// offsets fit the width fitProgram gives them (32 bits where this
  /// problem's fit).
  ::blk::runtime::ShapeClass getShapeClass() const;
};

/// Everything a caller chooses about compilation: the one record
/// (blk/Target/CompileOptions.h), which the MLIR-free API takes too.
using ::blk::CompileOptions;
using ::blk::TargetKind;

/// Where the time of compileProgram went, in milliseconds.
struct CompileTimes {
  /// Hashing the program and reading the cache.
  double lookup = 0;
  /// Lowering and code generation (zero on a cache hit).
  double compile = 0;
  /// CPU: linking the host code into the process.
  double load = 0;
  bool cacheHit = false;
};

/// A program compiled for one problem and target.
struct CompiledProgram {
  TargetKind target = TargetKind::GPU;
  Specialization binding;
  /// The kernels' declared arguments, the shapes served and the code: PTX
  /// and launch records, or the host object: what a launcher needs
  /// (blk/Runtime/Program.h).
  ::blk::runtime::ProgramImage image;
  /// CPU: the kernels, linked into this process (HostCode::link).
  std::unique_ptr<CPUKernels> cpuKernels;
  CompileTimes times;

  const std::vector<KernelSignature> &getSignatures() const {
    return image.signatures;
  }
};

//===----------------------------------------------------------------------===//
// The steps
//===----------------------------------------------------------------------===//

/// The kernels of `program` with their declared arguments; fails if a
/// kernel argument declares no role (blk.arg) or tensors of the same name
/// differ between kernels.
FailureOr<std::vector<KernelSignature>> getKernelSignatures(ModuleOp program);

/// Checks the problem (sizes positive, strides at least `cols`, no
/// overflow) against the program's declared tensors; a diagnostic on the
/// program otherwise.
LogicalResult verifyProblem(ModuleOp program, const ProblemDesc &problem);

/// A copy of `program` fitted to the problem, before any constant is bound:
/// `blk.divisibility` promises on integer arguments (row strides, cols;
/// not rows, which the code takes at run time) kept only where the
/// problem's values keep them, and arguments that are multiples of 16
/// promised so (Triton specializes integer arguments the same way); row
/// offsets computed in 64 bits
/// (blk-widen-offsets) where a matrix spans more than 2^31 - 1 elements,
/// and only there; for f16/bf16 data, f32 memory accesses go through the
/// narrow type (blk-storage-type). On a GPU, rows longer than a cluster
/// holds are split over programs that meet in one launch (blk-split-rows,
/// where splitsHeldRows says so and every kernel can be split; the
/// options' `split-rows` turns it off): the fitted program then has the
/// split's scratch tensors and `row_splits`.
FailureOr<OwningOpRef<ModuleOp>> fitProgram(ModuleOp program,
                                            const ProblemDesc &problem,
                                            const CompileOptions &options);

/// The binding rules (blk/Programs/Binding.h) for a fitted program on the
/// problem and target: clusters only where the chip has them.
FailureOr<Specialization> chooseBinding(ModuleOp fitted,
                                        const ProblemDesc &problem,
                                        const CompileOptions &options);

/// The specializations autotuning tries (candidateSpecializations).
FailureOr<std::vector<Specialization>>
candidateBindings(ModuleOp fitted, const ProblemDesc &problem,
                  const CompileOptions &options);

/// A copy of `fitted` with the constants, warps and CTAs of `binding`
/// bound (the kernel attribute's verifier checks warps and CTAs: their one
/// check): the program every target compiles, and the one the float64
/// reference (blk/Interpreter/Interpreter.h) runs.
FailureOr<OwningOpRef<ModuleOp>> specializeProgram(ModuleOp fitted,
                                                   const Specialization &binding);

/// Binds the constants, warps and CTAs of `binding` in a copy of `fitted`
/// (the kernel attribute's verifier checks warps and CTAs: their one
/// check) and compiles it for the target, or takes it from the cache: the
/// key hashes the bound program's text, the problem, the binding, the
/// target, chip, features and options, and the compiler's version and
/// commit (a build outside git, whose commit is unknown, does not cache).
/// A damaged entry is compiled again and replaced; a cache that cannot be
/// written is a warning on the program, not a failure.
/// CPU: whether compileProgram links the host code into this process
/// (CompiledProgram::cpuKernels) or only makes it (the image's object, for
/// blk::CpuProgram to link).
enum class HostCode { link, objectOnly };

FailureOr<CompiledProgram> compileProgram(ModuleOp fitted,
                                          const ProblemDesc &problem,
                                          const Specialization &binding,
                                          const CompileOptions &options,
                                          HostCode hostCode = HostCode::link);

/// fitProgram, chooseBinding and compileProgram.
FailureOr<CompiledProgram>
compileForProblem(ModuleOp program, const ProblemDesc &problem,
                  const CompileOptions &options,
                  HostCode hostCode = HostCode::link);

/// The built-in program for a softmax of the problem's shape on the target
/// (chooseSoftmaxProgram: on a GPU of sm_90+, the chips the choice was
/// measured on, a resident grid unless the options ask for clusters, and
/// clusters unless they ask for one CTA per program).
const BuiltinProgram &chooseBuiltinSoftmax(const ProblemDesc &problem,
                                           const CompileOptions &options);

} // namespace mlir::blk

#endif // BLK_DRIVER_DRIVER_H
