//===- PTX.h - block programs to PTX: pipeline and compiled kernels -*- C++ -*-===//
#ifndef BLK_TARGET_PTX_H
#define BLK_TARGET_PTX_H

#include "blk/IR/BlkDialect.h"
#include "blk/Target/CompileOptions.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
class OpPassManager;

namespace blk {

/// blk-to-ptx's options: the target and PTX knobs of the one record
/// (CompileOptions.def), and the launch shape blk-set-launch-shape writes
/// into every kernel first.
struct BlkToPTXOptions : public PassPipelineOptions<BlkToPTXOptions> {
#define BLK_PIPELINE_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION)          \
  Option<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESCRIPTION),                 \
                     llvm::cl::init(DEFAULT)};
#define BLK_TARGET_OPTION(...) BLK_PIPELINE_OPTION(__VA_ARGS__)
#define BLK_PTX_OPTION(...) BLK_PIPELINE_OPTION(__VA_ARGS__)
#define BLK_LAUNCH_OPTION(...) BLK_PIPELINE_OPTION(__VA_ARGS__)
#include "blk/Target/CompileOptions.def"
#undef BLK_PIPELINE_OPTION

  /// The record these options give (every other knob at its default).
  ::blk::CompileOptions getCompileOptions() const;
};

/// blk (specialized) -> distribute -> gpu -> NVVM -> LLVM -> gpu.binary
/// holding PTX, with `blk.launch` on the module describing each kernel. The
/// record's target (its chip, else the module's #blk.target, else sm_90)
/// and PTX knobs; each kernel's launch shape is its #blk.kernel's.
void buildBlkToPTXPipeline(OpPassManager &pm,
                           const ::blk::CompileOptions &options);

/// Registers the pipeline as `blk-to-ptx` for textual pipelines and tools.
void registerBlkToPTXPipeline();

/// Dialects, translations and interfaces the pipeline needs in the context.
void registerBlkToPTXDependencies(DialectRegistry &registry);

/// A kernel ready to load: the PTX of its module and its launch contract.
struct CompiledKernel {
  std::string name;
  std::string ptx;
  int64_t threads = 0;
  /// CTAs per program (the cluster the kernel was compiled for).
  int64_t ctas = 1;
  int64_t staticSharedBytes = 0;
  int64_t dynamicSharedBytes = 0;
  GridKind grid = GridKind::rows;
  /// Programs that must be resident at once (blk.program_barrier); 0: any.
  int64_t residentPrograms = 0;
  /// Argument types as printed in the program (`!blk.ptr<f32>`, `i32`, ...).
  std::vector<std::string> args;
  /// The tensor maps the kernel takes after its declared arguments
  /// (#blk.tensor_map): the matrix's name and the box, rows x columns.
  struct TensorMap {
    std::string tensor;
    int64_t boxRows = 0, boxCols = 0;
    int64_t rotationFirst = 0, rotationBits = 0;
  };
  std::vector<TensorMap> tensorMaps;
};

/// The kernels of a module the pipeline has run on; emits a diagnostic and
/// fails if it holds no PTX.
FailureOr<std::vector<CompiledKernel>> getCompiledKernels(ModuleOp module);

} // namespace blk
} // namespace mlir

#endif // BLK_TARGET_PTX_H
