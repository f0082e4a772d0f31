#ifndef BLK_DIALECT_TD
#define BLK_DIALECT_TD

include "mlir/IR/OpBase.td"

def Blk_Dialect : Dialect {
  let name = "blk";
  let cppNamespace = "::mlir::blk";
  let summary = "Block programs: one program instance computes a block of a tensor";
  let description = [{
    The `blk` dialect describes GPU kernels the way Triton's `tt` dialect does:
    a *program* (a CUDA thread block) works on whole blocks of elements held in
    `tensor` values. Block shapes may name compile-time constants (`BLOCK`,
    `ROWS`, ...) so that a program is written once and bound to concrete sizes
    by `--blk-specialize`. Elementwise arithmetic on blocks uses the upstream
    `arith` and `math` ops on tensors; control flow uses `scf`.

    Global memory is reached through scalar `!blk.ptr<T>` values: a load or
    store takes one base pointer and a tensor of element offsets, so tensors of
    pointers never exist and the contiguity of an access is a property of an
    integer tensor alone.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
  ];
  let extraClassDeclaration = [{
    /// Name of the discardable attribute that marks a `func.func` as a kernel.
    static constexpr ::llvm::StringLiteral getKernelAttrName() { return "blk.kernel"; }
    /// Name of the argument attribute stating that a pointer (in bytes) or an
    /// integer argument is divisible by a power of two.
    static constexpr ::llvm::StringLiteral getDivisibilityAttrName() { return "blk.divisibility"; }
    /// Name of the argument attribute declaring what a kernel argument is
    /// (#blk.arg: the kernel ABI).
    static constexpr ::llvm::StringLiteral getArgAttrName() { return "blk.arg"; }
    /// Name of the unit argument attribute on a `!blk.ptr<f32>` tensor
    /// that stays f32 in memory whatever the program's storage type
    /// (blk-storage-type leaves it and the pointers blk.addptr derives from
    /// it): a statistic whose 16-bit rounding would spoil its use, as
    /// attention's logsumexp, which the backward pass subtracts from scores
    /// of the same size (in bf16, an lse of 10 is off by up to 0.03, every
    /// recomputed probability by 3%).
    static constexpr ::llvm::StringLiteral getKeepF32AttrName() { return "blk.keep_f32"; }
    /// Name of the module attribute saying which chip the module is
    /// compiled for (#blk.target).
    static constexpr ::llvm::StringLiteral getTargetAttrName() { return "blk.target"; }
    /// Name of the module attribute listing the #blk.launch of every kernel.
    static constexpr ::llvm::StringLiteral getLaunchAttrName() { return "blk.launch"; }
    /// On a GPU kernel function: the parameters that are tensor maps (an
    /// array of their indices), until blk-pass-tensor-maps-by-value makes
    /// them grid constants.
    static constexpr ::llvm::StringLiteral getTensorMapParamsAttrName() { return "blk.tensor_map_params"; }
    /// Name of the attribute on loads and stores giving the number of
    /// consecutive elements a thread accesses as one vector.
    static constexpr ::llvm::StringLiteral getVectorAttrName() { return "blk.vector"; }
    /// Name of the unit attribute on a load or store with `blk.vector`
    /// whose runs are consecutive in memory but start on a vector boundary
    /// only at run time (a row length that is not a multiple of the
    /// vector): the conversion rounds each run's address down to the
    /// vector's size and exchanges the pieces with neighbouring lanes.
    static constexpr ::llvm::StringLiteral getRealignAttrName() { return "blk.realign"; }
    /// Name of the unit attribute on the load or store that an access runs
    /// instead of its aligned twin when a run-time check fails
    /// (blk-peel-alignment): blk-distribute sizes vectors by the aligned
    /// twin, and this one goes element by element.
    static constexpr ::llvm::StringLiteral getFallbackAttrName() { return "blk.fallback"; }
    /// Names of the attributes of bounds-checked CPU code
    /// (convert-blk-to-cpu's check-bounds): the i32 number of a load or
    /// store, the index of the kernel argument its pointer is computed from
    /// (its buffer is the one the access must stay in), and the module's
    /// array describing each numbered access.
    static constexpr ::llvm::StringLiteral getAccessAttrName() { return "blk.access"; }
    static constexpr ::llvm::StringLiteral getAccessRootAttrName() { return "blk.access_root"; }
    static constexpr ::llvm::StringLiteral getAccessesAttrName() { return "blk.accesses"; }
  }];
}

class Blk_Op<string mnemonic, list<Trait> traits = []>
    : Op<Blk_Dialect, mnemonic, traits>;

#endif // BLK_DIALECT_TD
