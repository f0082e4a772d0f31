#ifndef BLK_CONVERSION_PASSES_TD
#define BLK_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertBlkToGPU : Pass<"convert-blk-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Turn distributed block programs into per-thread gpu.func kernels";
  let description = [{
    Needs every block to carry a layout (`blk-distribute`). Each kernel
    becomes a `gpu.func` in a `gpu.module` (block size 32 x num_warps); each
    block becomes the `vector` of the elements one thread holds:

    * `blk.program_id` / `blk.num_programs` -> `gpu.block_id` / `gpu.grid_dim`
      (`gpu.cluster_id` / `gpu.cluster_dim` for a kernel with `num_ctas` > 1,
      whose `gpu.func` gets `known_cluster_size` and `nvvm.cluster_dim`);
    * `blk.arange` -> the thread's coordinates plus constant offsets;
    * `blk.load` / `blk.store` -> one aligned 16-byte `llvm.load`/`llvm.store`
      per run of `blk.vector` elements when the run's mask is all true, and
      per-element predicated accesses otherwise (the row tail); with
      `blk.realign`, each lane moves the aligned 16 bytes around its run
      and shifts the pieces in from its neighbour lane (`gpu.shuffle`
      up/down, `llvm.intr.fshr`), reading the chunk that holds the row's
      end element by element; a load or store masked by `lower <= offsets
      < bound` (a row shifted by `blk-peel-alignment`) checks each run's
      first and last element, moves the row's end runs element by element
      and fills the runs past it at once;
    * `blk.reduce` -> a reduction inside each thread, an xor-shuffle
      butterfly across the lanes, and, with several warps along the reduced
      dimension, a round through workgroup memory between barriers, and,
      with several CTAs along it, a round through distributed shared memory
      between cluster barriers (`nvvm.mapa`, `ld.shared::cluster`); every
      thread ends with the result;
    * `math.exp(x)` -> `exp2(x * log2(e))`, which NVPTX emits as
      `ex2.approx.ftz.f32` (results under 2^-126 flush to zero); log and
      log2 by range reduction and a polynomial; tanh and erf as rational
      functions; powf from exp2 and log2 with C's special cases; absf by
      the sign bit, sqrt as `sqrt.rn`: no libdevice (f32 only; MathOps.cpp
      states each one's accuracy).

    The launch contract of each kernel (symbol, threads, shared memory,
    grid, arguments) is written on the module as `blk.launch`.

    A kernel with `min_ctas_per_sm = N` (N > 1) in its `#blk.kernel` gets
    `nvvm.minctasm` N on its `gpu.func`, which NVPTX writes as
    `.minnctapersm N`: ptxas then keeps a thread's registers within what
    lets N CTAs share an SM, spilling if it must (layer_norm bf16 4096 x
    12288 on 16 warps: 69 registers, one CTA an SM; with 2, 64 registers
    and 4 bytes of spill).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def BlkScalarizeMasks : Pass<"blk-scalarize-masks", "::mlir::ModuleOp"> {
  let summary = "Compute per element the masks a thread only reads element by element";
  let description = [{
    After `convert-blk-to-gpu`, a mask is a `vector<N x i1>` computed by
    `arith` ops (comparisons, `andi`, ...) and read back one element at a
    time (`vector.extract`: the predicate of each run's access). NVPTX
    keeps an i1 vector packed in the bits of an integer: each `andi` of
    two masks and each element read back becomes shifts, ors and
    conversions between 16-, 32- and 64-bit registers. Where every use of
    such an op's mask is a `vector.extract` at a constant position, the
    op is computed for each element read instead, on scalars (predicate
    registers). Masks read as vectors (a `select` of a loaded vector) stay.

    ```mlir
    %m = arith.andi %a, %b : vector<8xi1>
    %m3 = vector.extract %m[3] : i1 from vector<8xi1>
    // becomes
    %a3 = vector.extract %a[3] : i1 from vector<8xi1>
    %b3 = vector.extract %b[3] : i1 from vector<8xi1>
    %m3 = arith.andi %a3, %b3 : i1
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def BlkSinkToUses : Pass<"blk-sink-to-uses", "::mlir::ModuleOp"> {
  let summary = "Load a normalization's weight and bias, and compute its "
                "output, run by run right before each store";
  let description = [{
    A normalization loads its weight and bias whole after its reductions,
    then computes and stores its row: every run of both is live at the
    first store, and ptxas sizes every thread's registers for that point.
    In a kernel that loads an argument no op of it writes after its last
    `gpu.barrier`, outside loops (an epilogue load; a row walked in tiles
    loads in a loop), this pass computes element by
    element what is read element by element (the arithmetic between the
    loads and the stores, as blk-scalarize-masks does for masks), then
    moves each pure op without regions, each `llvm.load` of such a
    read-only argument and each `scf.if` of only such ops down to just
    before the first op of its block that uses it (not a terminator): a
    run's loads and arithmetic come right before its store. A load does
    not move past a barrier or an op whose effects are not known, but
    moves past stores: a kernel's inputs must not overlap its outputs.
    Kernels with writes whose target is not an argument (a cluster's
    exchange through distributed shared memory) are left as they are, and
    so are kernels of 16-bit epilogue loads on fewer than `min-warps-16-bit`
    warps. ptxas then gives layer_norm f32 4096 x 16384 64 registers a
    thread instead of 128; what the rule was measured against:
    docs/benchmarks.md, "Epilogues run by run".
  }];
  let options = [
    Option<"minWarps16Bit", "min-warps-16-bit", "int64_t", "8",
           "Warps a kernel of 16-bit epilogue loads must have (fewer were "
           "slower reordered; docs/benchmarks.md)">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def BlkHoistCombines : Pass<"blk-hoist-combines", "::mlir::ModuleOp"> {
  let summary = "Move each pure op up to its last operand where two or more "
                "of its operands die in it";
  let description = [{
    After `convert-blk-to-gpu`, a thread's reduction is a tree of combines
    (`arith.addf`, `arith.maximumf`, ...) over its elements, emitted after
    every element has been computed: all of log_softmax's `exp`s come
    before the first add, so the row's shifted values and its exps are
    live at once. LLVM's NVPTX backend keeps the source order, and ptxas
    did not undo it: log_softmax bf16 4096 x 50257 on 2 CTAs of 8 warps
    took 222 registers a thread (softmax_fused's same loop 128).

    This pass moves every pure op of one result, without regions and not
    a terminator, that is the only user of at least two of its operands up
    to just after the last op of its block that defines an operand: the op
    kills those operands there and defines one value, so no point of the
    block holds more values than before. In
    block order, so a tree's inner combines follow its leaves' (the tree is
    then emitted depth first, each sum right after its two terms). Results
    are bit for bit the same: only the order of independent ops changes.
    ptxas (CUDA 13, sm_90a) then gave log_softmax's kernel 128 registers
    (two CTAs an SM where it had one) and most others the same or a few
    fewer, but ptxas's allocation is not the block's count of live values:
    layer_norm bf16 4096 x 50257 went from 163 to 196, cross_entropy f32
    4096 x 16384 from 50 to 55.

    ```mlir
    %e0 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%a0)
    %e1 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%a1)
    %e2 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%a2)
    %e3 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%a3)
    %s01 = arith.addf %e0, %e1 : f32
    %s23 = arith.addf %e2, %e3 : f32
    // becomes
    %e0 = ...
    %e1 = ...
    %s01 = arith.addf %e0, %e1 : f32
    %e2 = ...
    %e3 = ...
    %s23 = arith.addf %e2, %e3 : f32
    ```

    In blk-to-ptx unless `hoist-combines=0` (`softmax-run
    --hoist-combines=false`); what it was measured against:
    docs/benchmarks.md, "Combines after their operands".
  }];
}

def BlkAttachNVVMTarget : Pass<"blk-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "Give every gpu.module the #nvvm.target of the module's #blk.target";
  let description = [{
    `gpu-module-to-binary` compiles each `gpu.module` for the targets it
    carries. This pass gives every `gpu.module` of the module the
    `#nvvm.target` of the module's chip and features (`blk.target`, set by
    `blk-attach-target`; sm_90 without one), so the chip is named once, in
    the IR, and not again in the pipeline.
  }];
  let options = [
    Option<"optLevel", "opt-level", "unsigned",
           "::blk::CompileOptions().optLevel",
           "LLVM optimization level of the GPU code">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def BlkPassTensorMapsByValue
    : Pass<"blk-pass-tensor-maps-by-value", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the tensor-map parameters of kernels 128-byte grid "
                "constants passed by value";
  let description = [{
    A TMA descriptor (`!blk.tensor_map`) reaches the kernel as a 128-byte
    parameter (`cuLaunchKernel` copies the launcher's CUtensorMap), and TMA
    reads it where it lies, in parameter space: the parameter must be
    `llvm.byval` of `!llvm.array<128 x i8>` and `nvvm.grid_constant`, or
    NVPTX would copy it to local memory, which TMA cannot read. NVVM accepts
    those only on an `llvm.func` kernel, and `convert-gpu-to-nvvm` keeps
    neither from the `gpu.func`, so this pass, after it, sets them on the
    parameters `blk.tensor_map_params` lists (written by
    convert-blk-to-gpu) and removes that list.

    ```mlir
    llvm.func @matmul(..., %a_map: !llvm.ptr {llvm.align = 64 : i64,
        llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // BLK_CONVERSION_PASSES_TD
