#ifndef BLK_CONVERSION_CPUPASSES_TD
#define BLK_CONVERSION_CPUPASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertBlkToCPU : Pass<"convert-blk-to-cpu", "::mlir::ModuleOp"> {
  let summary = "Turn specialized block programs into host functions on tensors";
  let description = [{
    The first step of the CPU path (`blk-to-cpu`), which runs the same
    specialized block program on the host so that its numerics can be
    checked without a GPU. Every kernel `@k(args...)` becomes a plain
    function `@k(args..., %program_id: i32, %num_programs: i32)` whose
    `!blk.ptr<T>` arguments are `!llvm.ptr`; the caller runs it once per
    program. Blocks stay tensors and become loops later (bufferization,
    `convert-linalg-to-loops`):

    * `blk.program_id x` / `blk.num_programs x` -> the two trailing
      arguments (`y` and `z`: 0 and 1, a one-dimensional grid);
    * `blk.arange` -> `linalg.generic` on `linalg.index`;
    * `blk.splat` (and splat tensor constants) -> `linalg.fill`;
    * `blk.expand_dims` -> `tensor.expand_shape`;
    * `blk.broadcast` -> `linalg.generic` reading index 0 along the
      repeated dimensions;
    * `blk.reduce` -> `linalg.reduce` from the identity (-inf and
      `arith.maximumf` for a float max, so NaN propagates; 0 for a sum); a
      float sum over more than 128 elements first adds 128 strided partial
      sums, as the GPU's threads do, then halves of them down to one (as
      the GPU's shuffles), which keeps its rounding error near the GPU's;
    * `x / splat(s)` -> `x * splat(1 / s)`, as on the GPU;
    * `blk.addptr` -> `llvm.getelementptr`;
    * `blk.load` -> a loop nest inserting into a tensor `base[offset]`,
      read with `llvm.load` where the mask holds, and `other` (0 when
      absent) elsewhere;
    * `blk.store` -> a loop nest writing `llvm.store` where the mask holds;
    * a load or store whose offsets run along the row (AccessAnalysis: a
      whole row contiguous), unchecked, goes by rows instead: the mask as
      bytes, the first position where it fails in each row, plain accesses
      at `row start + i` up to there and masked ones after;
    * elementwise `arith`/`math` ops on tensors -> `linalg.generic`.

    The program must be specialized (`blk-specialize`: static shapes, no
    `blk.constexpr`) and not distributed (no layouts on blocks); anything
    else is an error at the op that shows it.

    With `check-bounds`, every element access that the mask enables first
    calls `i1 @blk_access_in_bounds(!llvm.ptr address, i64 bytes, i32
    access)`, provided by whoever runs the code (CPUKernels), and is skipped
    (a load yields `other`) where it returns false. `access` indexes the
    module's `blk.accesses` array, which names each load and store with its
    location, so that the runner can say which op went out of bounds. Every
    `scf.for` whose step is not positive at run time (it would never end)
    is reported the same way (0 bytes at null, its own entry in
    `blk.accesses`) and runs zero times.
  }];
  let options = [
    Option<"checkBounds", "check-bounds", "bool", "false",
           "Check every element access with @blk_access_in_bounds">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def BlkApproximateMath : Pass<"blk-approximate-math"> {
  let summary = "Replace transcendental math ops by polynomials the host can vectorize";
  let description = [{
    Part of the CPU path. `math.exp`, `math.log`, `math.tanh` (and the other
    ops MLIR has polynomial approximations for) on f32 become arith ops
    (range reduction, a polynomial in FMAs, exponent bit tricks); on f16
    and bf16 they are computed in f32. Left alone, each element of such an
    op is a call to libm's `expf`, which no loop vectorizer can widen:
    softmax_fused at 4096 x 1024 f32 ran at 1.7 GB/s on two cores with the
    calls.

    The approximations are those of MLIR's math dialect (range reduction
    and a polynomial of a few ulp in f32 over the normal range; exp keeps
    exp(-inf) = 0, exp(+inf) = +inf and NaN; results and arguments in the
    subnormal range are not exact: log clamps its argument to the smallest
    normal float). The numerics tests of test/Runtime check every kernel of
    the family against a float64 reference through it, special values
    included. `math.rsqrt` is kept (its approximation needs AVX2 vectors of
    8; LLVM vectorizes 1 / sqrt(x) on any host). Works on scalars, vectors
    and linalg bodies alike.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def BlkExpandBFloat16 : Pass<"blk-expand-bf16"> {
  let summary = "Convert between bf16 and f32 with integer ops the host can vectorize";
  let description = [{
    Part of the CPU path. `arith.extf` from bf16 becomes a shift of the
    bits into the top half of an f32; `arith.truncf` to bf16 rounds to
    nearest even with integer adds (NaN kept quiet). A host without
    AVX512-BF16 has no instruction for the rounding, and LLVM calls
    `__truncsfbf2` for every element instead, which stops the loop
    vectorizer: softmax_fused 4096 x 1024 bf16 ran at 1.8 GB/s on two cores
    with the calls. Only f32 <-> bf16 is expanded (what the CPU path
    produces); the NaN test is an integer compare, so that every step
    stays in vector lanes of 32 bits.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlkFoldElementExtracts : Pass<"blk-fold-element-extracts"> {
  let summary = "Compute single elements of elementwise linalg.generics where they are read";
  let description = [{
    Part of the CPU path, after convert-blk-to-cpu. A `tensor.extract` of
    one element of an all-parallel `linalg.generic` (one result, written
    in order, its body not reading the output) becomes the generic's body
    for that element: the inputs read at the element's indices (through
    maps of dimensions and constants), `linalg.index` replaced by the
    indices, where that costs no more than the block: the body computes
    integers only (offsets, masks), or nothing but such extracts reads the
    block (a store's values; the CPU path reads each element once). Row
    accesses read the first offset of each row that way, so the block of
    offsets needs no buffer; a store computes its values as it writes them
    (softmax_fused 4096 x 1024 f32, one core: 5.3 -> 5.6 GB/s, A/B of 3
    runs each). A float block something else reads whole (exponentials a
    sum reads too) is not computed again.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def BlkCloneIntegerBlocks : Pass<"blk-clone-integer-blocks"> {
  let summary = "Give each generic that reads an integer block (a mask, offsets) its own copy";
  let description = [{
    Part of the CPU path, after linalg-generalize-named-ops (fusion merges
    generics only) and before elementwise fusion. An all-parallel
    `linalg.generic` whose body computes integers only (`cols < n`, an
    arange) and that several generics of its block read is cloned before
    each of them. Fusion, which moves a producer into its consumer only
    where the consumer is its one user, then computes the block inside
    each loop that reads it. Read from memory instead, a mask is a byte an
    element that LLVM's vectorizer loads element by element (layer_norm's
    `select(in_bounds, x - mean, 0)`, whose mask also gives the row's
    limit).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // BLK_CONVERSION_CPUPASSES_TD
