#ifndef BLK_ATTRS_TD
#define BLK_ATTRS_TD

include "blk/IR/BlkDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Blk_ProgramAxisAttr : I32EnumAttr<"ProgramAxis", "axis of the launch grid", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>]> {
  let cppNamespace = "::mlir::blk";
}

def Blk_ReduceKindAttr : I32EnumAttr<"ReduceKind", "combining function of a reduction", [
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"sum", 1>,
    I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::mlir::blk";
}

def Blk_InputPrecisionAttr : I32EnumAttr<"InputPrecision",
    "what a blk.dot multiplies its f32 inputs as", [
    I32EnumAttrCase<"ieee", 0>, I32EnumAttrCase<"tf32", 1>]> {
  let cppNamespace = "::mlir::blk";
}

def Blk_GridKindAttr : I32EnumAttr<"GridKind", "how many programs a launch needs", [
    I32EnumAttrCase<"rows", 0>, I32EnumAttrCase<"persistent", 1>]> {
  let cppNamespace = "::mlir::blk";
}

def Blk_KernelAttr : AttrDef<Blk_Dialect, "Kernel"> {
  let mnemonic = "kernel";
  let summary = "marks a func.func as a block program and says how to launch it";
  let description = [{
    Attached to a `func.func` as `blk.kernel`. `num_warps` is the number of
    warps of one program instance (its thread block has `32 * num_warps`
    threads); it must be a power of two from 1 to 32. `grid` says how many
    programs a launch needs: `rows` (the default) one per row, or one per
    `rows_per_program` rows, times `row_splits`; `persistent` as many as the
    GPU keeps resident at once (SMs x occupancy, at most one per row), each
    program walking the rows with a `blk.num_programs` stride.

    `num_ctas` (Triton's option of the same name) runs one program on a
    thread-block cluster of that many CTAs (a power of two up to 16, sm_90
    and newer): `blk-distribute` spreads each block over the CTAs as well as
    over warps and lanes, and reductions combine the CTAs' partials through
    distributed shared memory. A row too long for one SM is then still read
    once. `blk.program_id` numbers clusters, not CTAs; with `grid =
    persistent`, as many clusters run as the GPU keeps resident.

    `num_stages` (Triton's option of the same name, 1 to 4, default 1) is
    for programs that loop: `blk-pipeline-loads` issues the loads of an
    iteration `num_stages - 1` iterations ahead, so that they are in flight
    while the current one reduces and stores.

    `min_ctas_per_sm` (default 0, or 1: ptxas's choice) asks for registers
    that let that many of the kernel's CTAs share an SM (`.minnctapersm`):
    ptxas keeps a thread's registers within it, spilling if it must. At
    most 2048 threads an SM (min_ctas_per_sm x 32 x num_warps). The binding
    rules set it to 2 for 16-bit norms on 16 warps (Binding.cpp,
    asksForTwoCtasPerSm), unless a kernel sets its own.

    Three optional entries say what the program's compile-time constants
    are, so that a driver can bind them to a problem without knowing their
    names:
    * `row_block = NAME`: the block a program holds along a row: the whole
      row, or the tile a loop over the row (up to the `cols` argument) walks;
    * `rows_per_program = NAME`: rows one program computes;
    * `row_splits = NAME`: programs one row is split over (each holds a
      part of `row_block` columns);
    * `inner_block = NAME`: the step of a loop over the `inner` dimension
      of a product (the K tile of a matmul).

    ```mlir
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>}
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 8, grid = persistent>}
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 16, num_ctas = 4>}
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 8, grid = persistent, num_stages = 2>}
    func.func @layer_norm(...) attributes {blk.kernel = #blk.kernel<num_warps = 16, min_ctas_per_sm = 2>}
    ```
  }];
  let parameters = (ins "int64_t":$numWarps,
                        DefaultValuedParameter<"GridKind", "GridKind::rows",
                                               "how many programs a launch needs">:$grid,
                        DefaultValuedParameter<"int64_t", "1", "CTAs (a cluster) per program">:$numCtas,
                        DefaultValuedParameter<"int64_t", "1", "iterations of a loop whose loads are in flight at once">:$numStages,
                        DefaultValuedParameter<"int64_t", "0", "CTAs an SM must have registers for (0 or 1: ptxas's choice)">:$minCtasPerSm,
                        StringRefParameter<"constant: a program's block along a row", "\"\"">:$rowBlock,
                        StringRefParameter<"constant: rows per program", "\"\"">:$rowsPerProgram,
                        StringRefParameter<"constant: programs per row", "\"\"">:$rowSplits,
                        StringRefParameter<"constant: the step along a product's inner dimension", "\"\"">:$innerBlock);
  let builders = [
    AttrBuilder<(ins "int64_t":$numWarps), [{
      return $_get($_ctxt, numWarps, GridKind::rows, 1, 1, 0, "", "", "", "");
    }]>,
  ];
  // Everything after num_warps may be left out (custom<KernelOptions>).
  let assemblyFormat =
      "`<` `num_warps` `=` custom<Count>($numWarps) `` custom<KernelOptions>($grid, $numCtas, "
      "$numStages, $minCtasPerSm, $rowBlock, $rowsPerProgram, $rowSplits, $innerBlock) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The same kernel run with other warps, CTAs, pipeline stages and
    /// CTAs an SM; null, with the verifier's diagnostic, if they are out of
    /// range.
    KernelAttr withLaunchShape(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        int64_t numWarps, int64_t numCtas, int64_t numStages,
        int64_t minCtasPerSm) const;
  }];
}

//===----------------------------------------------------------------------===//
// The kernel ABI: what each argument of a kernel is
//===----------------------------------------------------------------------===//

def Blk_ArgRoleAttr : I32EnumAttr<"ArgRole", "what a kernel argument is", [
    I32EnumAttrCase<"input", 0>, I32EnumAttrCase<"output", 1>,
    I32EnumAttrCase<"scratch", 2>, I32EnumAttrCase<"row_stride", 3>,
    I32EnumAttrCase<"rows", 4>, I32EnumAttrCase<"cols", 5>,
    I32EnumAttrCase<"param", 6>, I32EnumAttrCase<"inner", 7>,
    I32EnumAttrCase<"batch", 8>, I32EnumAttrCase<"heads", 9>,
    I32EnumAttrCase<"batch_stride", 10>, I32EnumAttrCase<"head_stride", 11>,
    I32EnumAttrCase<"tensor_map", 12>]> {
  let cppNamespace = "::mlir::blk";
}

def Blk_ArgExtentAttr : I32EnumAttr<"ArgExtent", "the shape of a tensor argument", [
    I32EnumAttrCase<"matrix", 0>, I32EnumAttrCase<"per_row", 1>,
    I32EnumAttrCase<"per_col", 2>, I32EnumAttrCase<"rows_by_inner", 3>,
    I32EnumAttrCase<"inner_by_cols", 4>]> {
  let cppNamespace = "::mlir::blk";
}

def Blk_ArgAttr : AttrDef<Blk_Dialect, "Arg"> {
  let mnemonic = "arg";
  let summary = "what a kernel argument is: the kernel's ABI, declared";
  let description = [{
    Attached to a kernel argument as `blk.arg`, so that a launcher builds
    the arguments from the declarations, not from positions. The problem is
    `rows x cols` (M x N), and for a matrix product also `inner` (K, the
    length of the products' sums); tensors are named, and the same name in
    several kernels of a program is the same buffer.

    | role | argument | what the launcher passes |
    |---|---|---|
    | `input "x"`, `output "y"` | `!blk.ptr<T>` | a tensor it fills / reads back |
    | `scratch "s"` | `!blk.ptr<T>` | a buffer it allocates, shared by the kernels |
    | `row_stride "x"` | integer | elements between rows of matrix `x` |
    | `rows`, `cols` | integer | the problem's rows and row length |
    | `inner` | integer | the inner dimension K of a product |
    | `param "eps"` | integer or float | a scalar the user gives |
    | `batch`, `heads` | integer | how many problems of that shape: B x H |
    | `batch_stride "x"`, `head_stride "x"` | integer | elements between the problems of `x` |
    | `tensor_map "x"` | `!blk.tensor_map` | a TMA descriptor of matrix `x` (added by the compiler) |

    A tensor is a `matrix` (rows x cols, the default), `per_row` (one
    element per row), `per_col` (one per column, e.g. a weight), or a
    product's operand: `rows_by_inner` (A, rows x inner) or `inner_by_cols`
    (B, inner x cols). Every two-dimensional tensor has a row stride, by
    default its number of columns.

    A kernel that takes `batch` and `heads` (both or neither) solves
    `batch x heads` independent problems of that shape at once (attention's
    batch and heads): every tensor holds one instance per (batch, head),
    instance (b, h) of `x` starting `b * batch_stride + h * head_stride`
    elements in (by default densely packed, heads inside batches: [B, H,
    rows, cols]), and the launch has `batch x heads` programs along
    `blk.program_id y`. Such a kernel takes no scratch tensor.

    ```mlir
    func.func @softmax(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                       %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                       %x_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                       %y_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                       %n_rows: i32 {blk.arg = #blk.arg<rows>},
                       %n_cols: i32 {blk.arg = #blk.arg<cols>},
                       %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes", per_row>})
    ```
  }];
  let parameters = (ins "ArgRole":$role,
                        StringRefParameter<"the tensor or parameter named", "\"\"">:$name,
                        DefaultValuedParameter<"ArgExtent", "ArgExtent::matrix",
                                               "the shape of a tensor">:$extent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the argument is a buffer (input, output or scratch).
    bool isTensor() const;
  }];
}

#endif // BLK_ATTRS_TD

//===----------------------------------------------------------------------===//
// Distribution of blocks over the threads of a program (tensor encodings)
//===----------------------------------------------------------------------===//

def Blk_BlockedLayoutAttr : AttrDef<Blk_Dialect, "BlockedLayout"> {
  let mnemonic = "blocked";
  let summary = "how the elements of a block are spread over threads";
  let description = [{
    Triton's blocked layout, made explicit. Per dimension `d` (the last
    dimension varies fastest, over lanes and then warps):

    * `elems[d]` consecutive elements are held by one thread (along the last
      dimension: one vector access of up to 16 bytes),
    * `lanes[d]` threads of a warp follow each other (product 32),
    * `warps[d]` warps follow each other (product = the kernel's warps),
    * `ctas[d]` CTAs of a cluster follow each other (product = the kernel's
      `num_ctas`; all 1, and not printed, without a cluster).

    One *tile* covers `elems * lanes * warps * ctas` elements per dimension; a
    larger block repeats the tile, each thread holding one element run per
    repetition. A block smaller than the tile is replicated: several threads
    hold the same elements.

    ```mlir
    tensor<1024xf32, #blk.blocked<elems = [4], lanes = [32], warps = [4]>>
    tensor<8x256xf32, #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>>
    tensor<65536xf32, #blk.blocked<elems = [4], lanes = [32], warps = [16], ctas = [4]>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$elems,
                        ArrayRefParameter<"int64_t">:$lanes,
                        ArrayRefParameter<"int64_t">:$warps,
                        OptionalArrayRefParameter<"int64_t">:$ctas);
  let builders = [
    AttrBuilder<(ins "ArrayRef<int64_t>":$elems, "ArrayRef<int64_t>":$lanes,
                     "ArrayRef<int64_t>":$warps), [{
      return $_get($_ctxt, elems, lanes, warps, ArrayRef<int64_t>());
    }]>,
  ];
  let assemblyFormat =
      "`<` `elems` `=` `[` $elems `]` `,` `lanes` `=` `[` $lanes `]` `,` "
      "`warps` `=` `[` $warps `]` (`,` `ctas` `=` `[` $ctas^ `]`)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getElems().size(); }
    int64_t getNumWarps() const;
    /// CTAs along dimension `d` (1 when the layout names none).
    int64_t getCtasAlong(int64_t d) const;
    int64_t getNumCtas() const;
  }];
}

def Blk_SliceLayoutAttr : AttrDef<Blk_Dialect, "SliceLayout"> {
  let mnemonic = "slice";
  let summary = "a block with one dimension of a blocked layout removed";
  let description = [{
    The layout of a block that lost dimension `dim` of a `parent` layout, as
    the result of a `blk.reduce` along `dim` or the source of a
    `blk.expand_dims` at `dim`. Each thread holds the elements it held in
    the parent with that dimension reduced to size 1, so `blk.expand_dims`
    moves no data.

    ```mlir
    tensor<8xf32, #blk.slice<dim = 1, parent = #blk.blocked<...>>>
    ```
  }];
  let parameters = (ins "int64_t":$dim, "BlockedLayoutAttr":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

def Blk_SwizzledSharedAttr : AttrDef<Blk_Dialect, "SwizzledShared"> {
  let mnemonic = "swizzled";
  let summary = "a 2-D block in shared memory as wgmma reads it";
  let description = [{
    The arrangement of a 16-bit block of R rows in shared memory that
    `wgmma` reads from a matrix descriptor with the 128-byte swizzle (PTX
    ISA, "Shared Memory Matrix Layout"): panels of 64 columns one after the
    other, each R rows of 128 bytes, the 16-byte chunk c of row r at chunk
    c ^ (r mod 8) of its row. With `rotation_bits` > 0, row r of the block
    is row r' of the panels, r' being r with its bits `rotation_first` ..
    `rotation_first + rotation_bits - 1` rotated left by one: A's rows
    permuted to the rows an accumulator laid out for wgmma holds
    (getWgmmaRowRotation, Distribution.h). With `transposed`, the block's
    columns are the panel rows (panels of 64 rows of the block, each column
    of it 128 bytes): B read K-major, as K^T is when each of its columns is a
    row of K in memory (no rotation then). A ring of such buffers (a 3-D
    `!blk.shared`) holds one block per slot, 1024 bytes aligned each.

    ```mlir
    !blk.shared<3x128x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 2>>
    !blk.shared<3x64x256xbf16, #blk.swizzled<>>
    !blk.shared<2x128x128xbf16, #blk.swizzled<transposed = true>>
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"int64_t", "0">:$rotation_first,
                        DefaultValuedParameter<"int64_t", "0">:$rotation_bits,
                        DefaultValuedParameter<"bool", "false">:$transposed);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// What the code is for
//===----------------------------------------------------------------------===//

def Blk_TargetAttr : AttrDef<Blk_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the chip and PTX features a module is compiled for";
  let description = [{
    Attached to the top-level module as `blk.target` (by
    `blk-attach-target`, the first pass of `blk-to-ptx`). Every pass that
    asks a chip question reads it (`getTargetInfo`); a module without it
    is compiled for sm_90. The verifier checks the chip and that the
    features name a PTX version that knows it (TargetInfo::get).

    ```mlir
    module attributes {blk.target = #blk.target<chip = "sm_90", features = "+ptx80">} {...}
    ```
  }];
  let parameters = (ins StringRefParameter<"chip, sm_70 or newer">:$chip,
                        StringRefParameter<"PTX features (+ptxNN)">:$features);
  let assemblyFormat = "`<` struct($chip, $features) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// What a launcher needs to know about a compiled kernel
//===----------------------------------------------------------------------===//

def Blk_TensorMapAttr : AttrDef<Blk_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a TMA descriptor a launch builds";
  let description = [{
    In a `#blk.launch`: the kernel takes a tensor map of matrix `tensor`
    (`!blk.tensor_map`) read in boxes of `box` (rows x columns), in the
    order of its `tensor_map` arguments. The launcher encodes it from the
    tensor's address, rows, columns, row stride and element type, with the
    128-byte swizzle and zeros outside the matrix.

    ```mlir
    #blk.tensor_map<"a", box = [8, 64]>
    #blk.tensor_map<"a", box = [128, 64], rotation = [3, 4]>
    ```

    With a `rotation`, the map is the 4-dimensional one of a rotated
    `!blk.tensor_map`.
  }];
  let parameters = (ins StringRefParameter<>:$tensor,
                        ArrayRefParameter<"int64_t">:$box,
                        DefaultValuedParameter<"int64_t", "0">:$rotationFirst,
                        DefaultValuedParameter<"int64_t", "0">:$rotationBits);
  let assemblyFormat = [{
    `<` $tensor `,` `box` `=` `[` $box `]`
    (`,` `rotation` `=` `[` $rotationFirst^ `,` $rotationBits `]`)? `>`
  }];
}

def Blk_LaunchAttr : AttrDef<Blk_Dialect, "Launch"> {
  let mnemonic = "launch";
  let summary = "launch contract of a compiled kernel";
  let description = [{
    Written by `convert-blk-to-gpu` on the top-level module (`blk.launch`,
    one per kernel), so that a runner never guesses: the kernel's symbol,
    threads per program, shared memory (static, and dynamic to pass at
    launch), the grid it expects (`rows`: one program per row), the CTAs
    per program (a cluster: the kernel is compiled for exactly that cluster
    shape, so the launch has `ctas` times as many CTAs as programs), and the
    argument types in order (`!blk.ptr<T>` is one device pointer). A
    kernel whose programs meet at a `blk.program_barrier` needs
    `residentPrograms` of them resident at once (printed only then). A
    kernel that reads through TMA descriptors lists them in `tensorMaps`
    (`#blk.tensor_map`, in the order of its `tensor_map` arguments).
  }];
  let parameters = (ins StringRefParameter<>:$kernel, "int64_t":$threads,
                        "int64_t":$ctas,
                        "int64_t":$staticSharedBytes,
                        "int64_t":$dynamicSharedBytes,
                        "GridKind":$grid,
                        DefaultValuedParameter<"int64_t", "0">:$residentPrograms,
                        ArrayRefParameter<"::mlir::Type">:$args,
                        OptionalParameter<"::mlir::ArrayAttr">:$tensorMaps);
  // The tensor maps (a bracketed list) before the arguments, whose list
  // runs to the end.
  let assemblyFormat = [{
    `<` struct($kernel, $threads, $ctas, $staticSharedBytes, $dynamicSharedBytes,
               $grid, $residentPrograms, $tensorMaps, $args) `>`
  }];
}
