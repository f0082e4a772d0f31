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
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"sum", 1>]> {
  let cppNamespace = "::mlir::blk";
}

def Blk_KernelAttr : AttrDef<Blk_Dialect, "Kernel"> {
  let mnemonic = "kernel";
  let summary = "marks a func.func as a block program and says how to launch it";
  let description = [{
    Attached to a `func.func` as `blk.kernel`. `num_warps` is the number of
    warps of one program instance (its thread block has `32 * num_warps`
    threads); it must be a power of two from 1 to 32. `grid` says how many
    programs a launch needs: `"rows"` (the default) one per row, or one per
    `ROWS` rows when the program binds a `ROWS` constant; `"persistent"` as
    many as the GPU keeps resident at once (SMs x occupancy, at most one per
    row), each program walking the rows with a `blk.num_programs` stride.

    `num_ctas` (Triton's option of the same name) runs one program on a
    thread-block cluster of that many CTAs (a power of two up to 16, sm_90
    and newer): `blk-distribute` spreads each block over the CTAs as well as
    over warps and lanes, and reductions combine the CTAs' partials through
    distributed shared memory. A row too long for one SM is then still read
    once. `blk.program_id` numbers clusters, not CTAs.

    ```mlir
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 4>}
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 8, grid = "persistent">}
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 16, num_ctas = 4>}
    ```
  }];
  let parameters = (ins "int64_t":$numWarps,
                        StringRefParameter<"how many programs a launch needs", "\"rows\"">:$grid,
                        DefaultValuedParameter<"int64_t", "1", "CTAs (a cluster) per program">:$numCtas);
  let builders = [
    AttrBuilder<(ins "int64_t":$numWarps), [{
      return $_get($_ctxt, numWarps, "rows", 1);
    }]>,
  ];
  // grid and num_ctas may each be left out (custom<KernelOptions>).
  let assemblyFormat =
      "`<` `num_warps` `=` $numWarps `` custom<KernelOptions>($grid, $numCtas) `>`";
  let genVerifyDecl = 1;
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

//===----------------------------------------------------------------------===//
// What a launcher needs to know about a compiled kernel
//===----------------------------------------------------------------------===//

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
    argument types in order (`!blk.ptr<T>` is one device pointer).
  }];
  let parameters = (ins StringRefParameter<>:$kernel, "int64_t":$threads,
                        "int64_t":$ctas,
                        "int64_t":$staticSharedBytes,
                        "int64_t":$dynamicSharedBytes,
                        StringRefParameter<>:$grid,
                        ArrayRefParameter<"::mlir::Type">:$args);
  let assemblyFormat = [{
    `<` struct($kernel, $threads, $ctas, $staticSharedBytes, $dynamicSharedBytes,
               $grid, $args) `>`
  }];
}
