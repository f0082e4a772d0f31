//===- Program.h - a compiled program, as a launcher sees it ----*- C++ -*-===//
//
// What compiling a block program for one problem produces, without MLIR:
// each kernel's declared ABI (the #blk.arg of its arguments), how to launch
// it, and the code (PTX for the GPU, object code for the host JIT). The
// compile driver (blk/Driver) fills it; launchers (GpuProgram.h) and the
// kernel cache (serialize/deserialize) read it.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_RUNTIME_PROGRAM_H
#define BLK_RUNTIME_PROGRAM_H

#include "blk/Runtime/Numerics.h"
#include "blk/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace blk::runtime {

/// What a kernel argument is (the IR's #blk.arg roles, same order).
enum class ArgRole {
  input, output, scratch, row_stride, rows, cols, param, inner,
  batch, heads, batch_stride, head_stride, tensor_map
};
/// The shape of a tensor argument: rows x cols, a vector per row or per
/// column, or a product's operand (rows x inner, inner x cols).
enum class ArgExtent { matrix, per_row, per_col, rows_by_inner, inner_by_cols };
/// How many programs a launch needs: one per row (or rows_per_program
/// rows), or as many as the GPU keeps resident (`persistent`).
enum class GridKind { rows, persistent };

/// Tensors are the roles with memory behind them.
bool isTensorRole(ArgRole role);
/// Whether a tensor of this shape has rows with a stride (all but vectors).
bool hasRowStride(ArgExtent extent);

/// One kernel argument as its kernel declares it.
struct KernelArgument {
  ArgRole role = ArgRole::input;
  std::string name;
  /// A tensor's shape; for a stride argument, its tensor's.
  ArgExtent extent = ArgExtent::matrix;
  /// Tensors: the element type in memory ("f32", "f16", "bf16", "i32").
  /// Scalars: the value's type ("i32", "i64", "f32", "f64").
  std::string type;
  /// Bytes of one element (tensors) or of the value (scalars).
  int64_t bytes = 0;
  /// What the kernel promises of an integer argument's value
  /// (blk.divisibility): a launch of a value it does not divide fails.
  int64_t divisibility = 1;
};

/// A kernel's declared ABI, in argument order.
struct KernelSignature {
  std::string name;
  std::vector<KernelArgument> arguments;
};

/// Every tensor argument the kernels declare, once each (a name several
/// kernels take is one buffer), in order of first appearance.
std::vector<KernelArgument>
getTensorArguments(const std::vector<KernelSignature> &signatures);

/// A TMA descriptor a kernel takes after its declared arguments: of matrix
/// `tensor` (a tensor argument of the kernel), read in boxes of `boxRows` x
/// `boxCols` elements, with the 128-byte swizzle and zeros outside.
struct TensorMapParam {
  std::string tensor;
  int64_t boxRows = 0, boxCols = 0;
  /// A box whose rows land rotated (#blk.tensor_map's rotation [first,
  /// bits]; 0 bits: none): the map is 4-dimensional.
  int64_t rotationFirst = 0, rotationBits = 0;
};

/// How a GPU kernel is launched.
struct KernelLaunch {
  int64_t threads = 0;
  /// CTAs per program: the cluster the kernel was compiled for.
  int64_t ctas = 1;
  int64_t staticSharedBytes = 0;
  int64_t dynamicSharedBytes = 0;
  GridKind grid = GridKind::rows;
  /// The cluster is larger than the chip's portable size: the kernel must
  /// opt in (TargetInfo::getMaxPortableClusterCtas).
  bool nonPortableCluster = false;
  /// The kernel's shared memory, static and dynamic, is more than a CTA
  /// gets without the kernel's opt-in (TargetInfo::getMaxStaticSharedBytes).
  bool sharedMemoryOptIn = false;
  /// Programs that must be resident at once, as they wait for each other
  /// (blk.program_barrier): a persistent grid of fewer would never finish.
  /// 0: no such need.
  int64_t residentPrograms = 0;
  /// The tensor maps the kernel takes after its declared arguments, in
  /// order (the compiler's, not the program's: blk-pipeline-dot-operands).
  std::vector<TensorMapParam> tensorMaps;
};

/// The rows and columns of a tensor (a vector per row: rows x 1).
struct TensorExtent {
  int64_t rows = 0, cols = 0;
};

/// A problem: rows of `cols` elements, and for a matrix product the inner
/// dimension (A is rows x inner, B inner x cols; 0 where the program has
/// none). Compiled code relies on every part of it but the row count
/// (block sizes, divisibility); ShapeClass says which row counts one
/// compilation serves.
struct ProgramShape {
  int64_t rows = 0;
  int64_t cols = 0;
  ElementType elementType = ElementType::F32;
  /// Row strides in elements, by tensor name; a tensor not named has rows
  /// of exactly its columns.
  std::vector<std::pair<std::string, int64_t>> rowStrides;
  int64_t inner = 0;
  /// Independent problems of this shape (a program with `batch` and
  /// `heads` arguments): instance (b, h) of a tensor starts at
  /// b * getBatchStride + h * getHeadStride elements; 1 and 1 otherwise.
  int64_t batch = 1, heads = 1;
  /// Strides between instances in elements, by tensor name; a tensor not
  /// named is packed densely, heads inside batches ([B, H, rows, cols]).
  std::vector<std::pair<std::string, int64_t>> batchStrides, headStrides;

  TensorExtent getExtent(ArgExtent extent) const;
  /// The row stride of `tensor` (a tensor or row_stride argument): the
  /// one given for its name, else its columns.
  int64_t getRowStride(const KernelArgument &tensor) const;
  /// The strides between instances of `tensor` (a tensor or stride
  /// argument): the ones given for its name, else the dense ones.
  int64_t getHeadStride(const KernelArgument &tensor) const;
  int64_t getBatchStride(const KernelArgument &tensor) const;
  /// Elements one instance of `tensor` spans: its rows x its row stride
  /// (a vector: its elements).
  int64_t getInstanceSpan(const KernelArgument &tensor) const;
  int64_t getInstances() const { return batch * heads; }
};

/// The problems one program's code serves: every ProgramShape of this row
/// length, element type and row strides with 1 to `maxRows` rows. The
/// code depends on the row count only through the width of its offsets
/// (32 bits while every row offset fits them), so one compilation serves
/// a model whose number of tokens changes every batch.
struct ShapeClass {
  int64_t maxRows = 0;
  int64_t cols = 0;
  ElementType elementType = ElementType::F32;
  /// As ProgramShape::rowStrides.
  std::vector<std::pair<std::string, int64_t>> rowStrides;
  int64_t inner = 0;

  /// The class's problem of `rows` rows.
  ProgramShape withRows(int64_t rows) const {
    return {rows, cols, elementType, rowStrides, inner};
  }
};

/// A program compiled for one class of problems and one target.
struct ProgramImage {
  /// "gpu sm_90" (chip, then PTX features if any) or "cpu".
  std::string target;
  ShapeClass shapes;
  /// The binding the code was compiled with ("BLOCK=1024 warps=4").
  std::string binding;
  /// Rows a program covers, and programs per row (a split row's parts):
  /// a launch of R rows has ceil(R / rowsPerProgram) x rowParts programs
  /// (clusters when a kernel has several CTAs); a persistent kernel's
  /// launcher may use fewer.
  int64_t rowsPerProgram = 1, rowParts = 1;

  /// Programs per launch of `rows` (>= 1) rows, by the formula above;
  /// INT64_MAX where that overflows.
  int64_t getGrid(int64_t rows) const;
  /// The kernels in launch order.
  std::vector<KernelSignature> signatures;
  /// GPU: one launch record per kernel and one PTX module for all.
  std::vector<KernelLaunch> launches;
  std::string ptx;
  /// CPU: a relocatable object for the host JIT, and what each access
  /// number of bounds-checked code is ("load at f.mlir:3:5").
  std::string object;
  std::vector<std::string> accessNames;

  bool isGPU() const { return target.rfind("gpu", 0) == 0; }

  /// A self-describing byte string (the kernel cache's entries).
  std::string serialize() const;
  /// Reads what serialize wrote; a truncated or malformed string is an
  /// error, never a partly filled image.
  static Status deserialize(const std::string &bytes, ProgramImage &image);
};

} // namespace blk::runtime

#endif // BLK_RUNTIME_PROGRAM_H
