#ifndef BLK_OPS_TD
#define BLK_OPS_TD

include "blk/IR/BlkDialect.td"
include "blk/IR/BlkTypes.td"
include "blk/IR/BlkAttrs.td"
include "blk/IR/BlkInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

def Blk_ProgramIdOp : Blk_Op<"program_id", [Pure]> {
  let summary = "index of this program instance along a grid axis";
  let description = [{
    Like Triton's `tl.program_id`: the CUDA block index along `x`, `y` or `z`.

    ```mlir
    %row = blk.program_id x
    ```
  }];
  let arguments = (ins Blk_ProgramAxisAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Blk_NumProgramsOp : Blk_Op<"num_programs", [Pure]> {
  let summary = "number of program instances along a grid axis";
  let description = [{
    Like Triton's `tl.num_programs`: the grid size along `x`, `y` or `z`.
    Persistent kernels step through rows by this amount.

    ```mlir
    %step = blk.num_programs x
    ```
  }];
  let arguments = (ins Blk_ProgramAxisAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

//===----------------------------------------------------------------------===//
// Compile-time constants
//===----------------------------------------------------------------------===//

def Blk_ConstexprOp : Blk_Op<"constexpr", [Pure,
    DeclareOpInterfaceMethods<Blk_ConstantNamesOpInterface>]> {
  let summary = "value of a named compile-time constant";
  let description = [{
    The value of a compile-time constant such as `BLOCK` (Triton's
    `tl.constexpr`). `--blk-specialize="BLOCK=1024"` replaces it by an
    `arith.constant`; block shapes that use the same name (`[BLOCK]` in
    `blk.arange`, `blk.splat`, `blk.broadcast`) are bound at the same time.

    ```mlir
    %block = blk.constexpr BLOCK : i32
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs AnySignlessIntegerOrIndex:$result);
  let assemblyFormat = "custom<ConstantName>($name) attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Making blocks
//===----------------------------------------------------------------------===//

def Blk_ArangeOp : Blk_Op<"arange", [Pure,
    DeclareOpInterfaceMethods<Blk_ConstantNamesOpInterface>]> {
  let summary = "the integers start, start+1, ..., end-1 as a 1-D block";
  let description = [{
    Like Triton's `tl.arange(start, end)`: a 1-D block of `i32` holding
    `start .. end-1`, of any length; `blk-distribute` accepts a power of
    two or a whole number of its layout's tiles (a row of 50257 bf16 in 7 x
    8192 rather than 65536 elements on a cluster of 8 CTAs). `end` may name a
    compile-time constant, in which case `start` must be 0 and the block's
    dimension is dynamic until specialization.

    ```mlir
    %cols = blk.arange 0 to 1024 : tensor<1024xi32>
    %cols = blk.arange 0 to BLOCK : tensor<?xi32>
    ```
  }];
  let arguments = (ins I64Attr:$start, AnyAttrOf<[I64Attr, StrAttr]>:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat =
      "$start `to` custom<BlockDim>($end) attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Blk_SplatOp : Blk_Op<"splat", [Pure,
    DeclareOpInterfaceMethods<Blk_ConstantNamesOpInterface>]> {
  let summary = "a block with every element equal to a scalar";
  let description = [{
    Fills a block of the result type with `src`. Where the result shape has
    dynamic dimensions, the shape list names the compile-time constants that
    fix them (one entry per dimension).

    ```mlir
    %zeros = blk.splat %c0 : f32 -> tensor<4x1024xf32>
    %ninf = blk.splat %cst [BLOCK] : f32 -> tensor<?xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyInteger, AnyFloat, Index]>:$src,
                       OptionalAttr<ArrayAttr>:$shape);
  let results = (outs Blk_Block:$result);
  let assemblyFormat =
      "$src (custom<BlockShape>($shape)^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Blk_ExpandDimsOp : Blk_Op<"expand_dims", [Pure]> {
  let summary = "insert a dimension of size 1";
  let description = [{
    Like Triton's `tl.expand_dims`: the result has the source's shape with a
    dimension of size 1 inserted at `axis`. Used to turn a column of per-row
    values back into a 2-D block before a `blk.broadcast`.

    ```mlir
    %col = blk.expand_dims %rowmax axis 1 : tensor<4xf32> -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins Blk_Block:$src, I64Attr:$axis);
  let results = (outs Blk_Block:$result);
  let assemblyFormat =
      "$src `axis` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Blk_BroadcastOp : Blk_Op<"broadcast", [Pure,
    DeclareOpInterfaceMethods<Blk_ConstantNamesOpInterface>]> {
  let summary = "repeat a block along its dimensions of size 1";
  let description = [{
    Every dimension of the source is either equal to the result's or 1; the
    dimensions of size 1 are repeated. As for `blk.splat`, dynamic result
    dimensions are named by the shape list.

    ```mlir
    %b = blk.broadcast %col : tensor<4x1xf32> -> tensor<4x1024xf32>
    ```
  }];
  let arguments = (ins Blk_Block:$src, OptionalAttr<ArrayAttr>:$shape);
  let results = (outs Blk_Block:$result);
  let assemblyFormat =
      "$src (custom<BlockShape>($shape)^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Blk_ConvertLayoutOp : Blk_Op<"convert_layout", [Pure]> {
  let summary = "the same block, held by the threads of another layout";
  let description = [{
    The elements of `src`, distributed as the result's encoding says
    (Triton's `ttg.convert_layout`): the values are unchanged, only which
    thread holds which element moves. Without encodings (before
    blk-distribute) it marks where two layouts may meet: its source and
    result are laid out apart. blk-distribute puts one before a
    `blk.store` whose block is held as mma fragments, so that the store
    moves runs of 16 bytes instead of the fragments' pairs.

    On the GPU each thread writes its elements to a scratch buffer in
    shared memory (row-major, a 16-byte pad after each row whose bytes are
    a multiple of 128, so that the lanes of a warp reach different banks),
    the CTA meets at a barrier, and each thread reads the elements of the
    new layout; a barrier before the writes lets the buffer share shared
    memory with buffers no longer read (SharedMemoryPlan). Every thread of
    the CTA must reach it. On the CPU and in the interpreter it is the
    identity.

    ```mlir
    %c = blk.convert_layout %acc : tensor<128x256xbf16, #mma> -> tensor<128x256xbf16, #blocked>
    ```
  }];
  let arguments = (ins Blk_Block:$src);
  let results = (outs Blk_Block:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Blk_AddPtrOp : Blk_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance a pointer by a number of elements";
  let description = [{
    `ptr + offset` elements (not bytes), e.g. the start of a row:

    ```mlir
    %start = arith.muli %row, %stride : i32
    %rowptr = blk.addptr %x, %start : !blk.ptr<f32>, i32
    ```
  }];
  let arguments = (ins Blk_AnyPtr:$ptr, AnyTypeOf<[I32, I64]>:$offset);
  let results = (outs Blk_AnyPtr:$result);
  let assemblyFormat =
      "$ptr `,` $offset attr-dict `:` qualified(type($ptr)) `,` type($offset)";
  let hasFolder = 1;
}

def Blk_LoadOp : Blk_Op<"load", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>,
    Blk_MemoryAccessOpInterface,
    TypesMatchWith<"mask is an i1 block of the offsets' shape",
                   "offsets", "mask", "::mlir::blk::getMaskType($_self)",
                   "!::llvm::cast<::mlir::blk::LoadOp>($_op).getMask() || std::equal_to<>()">,
    TypesMatchWith<"other is a scalar of the loaded element type",
                   "result", "other", "::mlir::getElementTypeOrSelf($_self)",
                   "!::llvm::cast<::mlir::blk::LoadOp>($_op).getOther() || std::equal_to<>()">]> {
  let summary = "gather a block from base + offsets, optionally masked";
  let description = [{
    Reads `base[offsets[i]]` for every element `i` of the offsets block. Where
    `mask[i]` is false nothing is read and the element is `other` (a scalar;
    an undefined value when absent).

    ```mlir
    %x = blk.load %rowptr[%cols] mask %inrow other %ninf
        : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
    ```
  }];
  let arguments = (ins Blk_AnyPtr:$base, Blk_IntBlock:$offsets,
                       Optional<Blk_MaskBlock>:$mask,
                       Optional<AnyTypeOf<[AnyInteger, AnyFloat]>>:$other);
  let results = (outs Blk_Block:$result);
  let assemblyFormat = [{
    $base `[` $offsets `]` (`mask` $mask^)? (`other` $other^)? attr-dict
    `:` qualified(type($base)) `,` type($offsets) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    // MemoryAccessOpInterface (getBase, getOffsets and getMask are the
    // operand accessors).
    ::mlir::TypedValue<::mlir::RankedTensorType> getDataBlock() {
      return getResult();
    }
    bool isRead() { return true; }
    ::mlir::Value getFillValue() { return getOther(); }
  }];
}

def Blk_StoreOp : Blk_Op<"store", [
    MemoryEffects<[MemWrite]>,
    Blk_MemoryAccessOpInterface,
    TypesMatchWith<"mask is an i1 block of the offsets' shape",
                   "offsets", "mask", "::mlir::blk::getMaskType($_self)",
                   "!::llvm::cast<::mlir::blk::StoreOp>($_op).getMask() || std::equal_to<>()">]> {
  let summary = "scatter a block to base + offsets, optionally masked";
  let description = [{
    Writes `value[i]` to `base[offsets[i]]` wherever `mask[i]` holds (every
    element when there is no mask).

    ```mlir
    blk.store %yrow[%cols], %y mask %inrow
        : !blk.ptr<f32>, tensor<1024xi32>, tensor<1024xf32>
    ```
  }];
  let arguments = (ins Blk_AnyPtr:$base, Blk_IntBlock:$offsets,
                       Blk_Block:$value, Optional<Blk_MaskBlock>:$mask);
  let assemblyFormat = [{
    $base `[` $offsets `]` `,` $value (`mask` $mask^)? attr-dict
    `:` qualified(type($base)) `,` type($offsets) `,` type($value)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    // MemoryAccessOpInterface (getBase, getOffsets and getMask are the
    // operand accessors).
    ::mlir::TypedValue<::mlir::RankedTensorType> getDataBlock() {
      return getValue();
    }
    bool isRead() { return false; }
    ::mlir::Value getFillValue() { return {}; }
  }];
}

def Blk_ProgramBarrierOp : Blk_Op<"program_barrier", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until `count` programs have reached a counter";
  let description = [{
    The program arrives at the i64 counter `counter` points to and waits
    until `count` programs have arrived there in this round; what any of
    them wrote to global memory before arriving is visible to all of them
    after. A round ends at each multiple of `count`, so a counter serves
    launch after launch where each round has exactly `count` arrivals; it
    must be zero before the first (the runtime zeroes scratch tensors when
    it allocates them).

    The programs of a round must run at once: the kernel is
    `grid = persistent` (the runtime launches no more programs than stay
    resident, and refuses a kernel whose rounds need more), each program
    walks its work in increasing order, and a program is one CTA. On the
    GPU, the CTA's threads meet at a barrier, thread 0 adds 1 to the
    counter and spins until the round is full, between two GPU-scope
    fences, and the threads meet again (cooperative groups' grid sync,
    per counter). The CPU path runs programs one after another and
    refuses it.

    ```mlir
    blk.program_barrier %arrivals, %splits : !blk.ptr<i64>, i32
    ```
  }];
  let arguments = (ins Blk_AnyPtr:$counter, I32:$count);
  let assemblyFormat = [{
    $counter `,` $count attr-dict `:` qualified(type($counter)) `,` type($count)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def Blk_SharedMemory : Resource<"::mlir::blk::SharedMemoryResource">;

def Blk_LocalAllocOp : Blk_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>]> {
  let summary = "keep a block in shared memory";
  let description = [{
    Writes `src` to a new buffer in the CTA's shared memory (Triton's
    `ttg.local_alloc`). The buffer lives as long as the kernel; each thread
    writes the elements it holds to places of its own, so `blk.local_load`
    of the buffer in the same layout reads them back without a barrier.
    blk-stage-held-loads makes these for rows a kernel needs again after a
    reduction.

    Without `src`, the buffer is left unwritten: a `#blk.swizzled` block,
    or ring of them, that `blk.async_copy_into` fills
    (blk-pipeline-dot-operands makes these).

    ```mlir
    %buf = blk.local_alloc %x : tensor<32768xbf16> -> !blk.shared<32768xbf16>
    %ring = blk.local_alloc -> !blk.shared<3x64x256xbf16, #blk.swizzled<>>
    ```
  }];
  let arguments = (ins Optional<Blk_Block>:$src);
  let results = (outs Blk_SharedType:$result);
  let assemblyFormat = [{
    ($src^ `:` type($src))? attr-dict `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Blk_LocalLoadOp : Blk_Op<"local_load", [
    MemoryEffects<[MemRead<Blk_SharedMemory>]>]> {
  let summary = "read a block back from shared memory";
  let description = [{
    Reads the block `blk.local_alloc` wrote to `src` (Triton's
    `ttg.local_load`). In a distributed program the result has the layout
    of the block written, and `src` is the result of a `blk.local_alloc`,
    or of a `blk.async_copy` waited for by `blk.async_wait`.

    ```mlir
    %y = blk.local_load %buf : !blk.shared<32768xbf16> -> tensor<32768xbf16>
    ```
  }];
  let arguments = (ins Blk_SharedType:$src);
  let results = (outs Blk_Block:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_AsyncCopyOp : Blk_Op<"async_copy", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemAlloc<Blk_SharedMemory>,
                   MemWrite<Blk_SharedMemory>]>,
    TypesMatchWith<"mask is an i1 block of the offsets' shape",
                   "offsets", "mask", "::mlir::blk::getMaskType($_self)",
                   "!::llvm::cast<::mlir::blk::AsyncCopyOp>($_op).getMask() || std::equal_to<>()">,
    TypesMatchWith<"other is a scalar of the buffer's element type",
                   "result", "other", "::llvm::cast<::mlir::blk::SharedType>($_self).getElementType()",
                   "!::llvm::cast<::mlir::blk::AsyncCopyOp>($_op).getOther() || std::equal_to<>()">]> {
  let summary = "start copying a block from global to shared memory";
  let description = [{
    Starts filling a new buffer in the CTA's shared memory with the block
    `blk.load` would read from `base[offsets]` under the same `mask` and
    `other` (Triton's `ttg.async_copy_global_to_local`): each thread moves
    its runs of 16 bytes with `cp.async` (sm_80 or newer), without passing
    them through registers, to the places `blk.local_alloc` would store
    them. The buffer may be read only after `blk.async_wait`. The offsets
    carry the layout (the op comes after blk-distribute), with
    `blk.vector` runs of 16 bytes whose mask is the same over each run.
    blk-async-fill makes these from a `blk.load` kept by `blk.local_alloc`.

    ```mlir
    %buf = blk.async_copy %in[%cols] {blk.vector = 8 : i64}
        : !blk.ptr<bf16>, tensor<32768xi32, #l> -> !blk.shared<32768xbf16>
    ```
  }];
  let arguments = (ins Blk_AnyPtr:$base, Blk_IntBlock:$offsets,
                       Optional<Blk_MaskBlock>:$mask,
                       Optional<AnyTypeOf<[AnyInteger, AnyFloat]>>:$other);
  let results = (outs Blk_SharedType:$result);
  let assemblyFormat = [{
    $base `[` $offsets `]` (`mask` $mask^)? (`other` $other^)? attr-dict
    `:` qualified(type($base)) `,` type($offsets) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The block the copy moves: the offsets' shape and layout, the
    /// buffer's element type (what blk.local_load of the buffer gives).
    ::mlir::RankedTensorType getBlockType();
  }];
}

def Blk_AsyncWaitOp : Blk_Op<"async_wait", [
    MemoryEffects<[MemRead<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>]> {
  let summary = "wait for a block's asynchronous copies";
  let description = [{
    Waits until the copies `blk.async_copy` started into `buffer` (and any
    the thread started before them) have landed: a `blk.local_load` of the
    buffer after it reads the copied block. Each thread waits for its own
    copies, which are the elements it reads back, so no barrier is needed.

    ```mlir
    blk.async_wait %buf : !blk.shared<32768xbf16>
    ```
  }];
  let arguments = (ins Blk_SharedType:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer))";
}

def Blk_LocalIndexOp : Blk_Op<"local_index", [Pure]> {
  let summary = "one slot of a ring of shared buffers";
  let description = [{
    The buffer at slot `index` of `ring`, a 3-D `#blk.swizzled` buffer of
    `blk.local_alloc` (Triton's `ttg.memdesc_index`): its last two
    dimensions, the same encoding. Slot i starts i x (its bytes) after the
    ring's start, the bytes of a block rounded up to 1024.

    ```mlir
    %slot = blk.local_index %ring[%i] : !blk.shared<3x64x256xbf16, #blk.swizzled<>>
        -> !blk.shared<64x256xbf16, #blk.swizzled<>>
    ```
  }];
  let arguments = (ins Blk_SharedType:$ring, I32:$index);
  let results = (outs Blk_SharedType:$result);
  let assemblyFormat = [{
    $ring `[` $index `]` attr-dict `:` qualified(type($ring)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Blk_AsyncCopyIntoOp : Blk_Op<"async_copy_into", [
    MemoryEffects<[MemRead, MemWrite<Blk_SharedMemory>]>,
    TypesMatchWith<"mask is an i1 block of the offsets' shape",
                   "offsets", "mask", "::mlir::blk::getMaskType($_self)",
                   "!::llvm::cast<::mlir::blk::AsyncCopyIntoOp>($_op).getMask() || std::equal_to<>()">]> {
  let summary = "start copying a block from global memory into a swizzled buffer";
  let description = [{
    Starts copying the block `blk.load` would read from `base[offsets]`
    under `mask` into `dest`, a `#blk.swizzled` buffer of the block's shape
    (Triton's `ttg.async_copy_global_to_local`): each thread moves its runs
    of 16 bytes (`blk.vector`; the mask the same over each run) with
    `cp.async`, the runs masked off as zeros. The copies join the thread's
    open group, which `blk.async_commit_group` closes and
    `blk.async_wait_group` waits for. The op comes after blk-distribute:
    the offsets carry the layout. blk-pipeline-dot-operands makes these.

    ```mlir
    blk.async_copy_into %b[%offsets] mask %mask into %slot {blk.vector = 8 : i64}
        : !blk.ptr<bf16>, tensor<64x256xi32, #l>, !blk.shared<64x256xbf16, #blk.swizzled<>>
    ```
  }];
  let arguments = (ins Blk_AnyPtr:$base, Blk_IntBlock:$offsets,
                       Optional<Blk_MaskBlock>:$mask, Blk_SharedType:$dest);
  let assemblyFormat = [{
    $base `[` $offsets `]` (`mask` $mask^)? `into` $dest attr-dict
    `:` qualified(type($base)) `,` type($offsets) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Blk_AsyncCommitGroupOp : Blk_Op<"async_commit_group", [
    MemoryEffects<[MemWrite<Blk_SharedMemory>]>]> {
  let summary = "close the thread's group of asynchronous copies";
  let description = [{
    The copies `blk.async_copy_into` started since the last commit form one
    group (`cp.async.commit_group`), which `blk.async_wait_group` counts.

    ```mlir
    blk.async_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Blk_AsyncWaitGroupOp : Blk_Op<"async_wait_group", [
    MemoryEffects<[MemRead<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>]> {
  let summary = "wait until at most N groups of copies are in flight";
  let description = [{
    Waits until at most `pending` of the thread's committed groups have not
    landed (`cp.async.wait_group`): the older ones have. Each thread waits
    for its own copies; a barrier (`blk.warpgroup_dot` has one) makes them
    everyone's.

    ```mlir
    blk.async_wait_group 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<7>]>:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def Blk_InitBarriersOp : Blk_Op<"init_barriers", [
    MemoryEffects<[MemAlloc<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>]> {
  let summary = "make the mbarriers of a ring filled by TMA";
  let description = [{
    Places `count` transaction barriers in the CTA's static shared memory
    and initializes each for one arrival a phase (Triton's
    `ttng.init_barrier`): one thread writes them, a fence makes them
    visible to the asynchronous proxy that completes their transactions,
    and a barrier of the CTA to every thread. blk-pipeline-dot-operands
    makes one before a K loop whose operands TMA copies, a barrier per
    slot of the rings.

    ```mlir
    %bars = blk.init_barriers : !blk.barriers<3>
    ```
  }];
  let results = (outs Blk_BarriersType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Blk_BarrierExpectOp : Blk_Op<"barrier_expect", [
    MemoryEffects<[MemWrite<Blk_SharedMemory>]>]> {
  let summary = "arrive at a barrier, announcing the bytes of its copies";
  let description = [{
    One thread of the CTA arrives at barrier `index` of `barriers` and
    announces `bytes` more bytes of copies (`mbarrier.arrive.expect_tx`,
    Triton's `ttng.barrier_expect`): the barrier's phase completes when
    those bytes have landed, whichever comes first. Nothing happens where
    `pred` is false.

    ```mlir
    blk.barrier_expect %bars[%slot], 49152 if %runs : !blk.barriers<3>
    ```
  }];
  let arguments = (ins Blk_BarriersType:$barriers, I32:$index,
                       ConfinedAttr<I64Attr, [IntMinValue<1>,
                                              IntMaxValue<1048575>]>:$bytes,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $bytes (`if` $pred^)? attr-dict `:`
    qualified(type($barriers))
  }];
}

def Blk_TensorCopyIntoOp : Blk_Op<"tensor_copy_into", [
    MemoryEffects<[MemRead, MemWrite<Blk_SharedMemory>]>]> {
  let summary = "copy a tile of a matrix into a swizzled buffer by TMA";
  let description = [{
    Starts copying the tile of the matrix `map` describes whose first
    element is at (`row`, `col`) into `dest`, a `#blk.swizzled` buffer of
    the tile's shape (Triton's `ttng.async_tma_copy_global_to_local`): one
    thread issues a `cp.async.bulk.tensor` for each box of the tile, each
    landing in the panel and rows of `dest` it fills (a buffer with rotated
    rows takes boxes of 8 rows, which the rotation moves whole). Elements
    outside the matrix land as zeros. Each copy's bytes complete a
    transaction of barrier `index` of `barriers`, whose
    `blk.barrier_expect` announced them. Nothing is copied where `pred` is
    false.

    ```mlir
    blk.tensor_copy_into %a_map[%row, %k] into %slot, %bars[%i] if %runs
        : !blk.tensor_map<8x64xbf16>,
          !blk.shared<128x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 4>>,
          !blk.barriers<3>
    ```
  }];
  let arguments = (ins Blk_TensorMapType:$map, I32:$row, I32:$col,
                       Blk_SharedType:$dest, Blk_BarriersType:$barriers,
                       I32:$index, Optional<I1>:$pred);
  let assemblyFormat = [{
    $map `[` $row `,` $col `]` `into` $dest `,` $barriers `[` $index `]`
    (`if` $pred^)? attr-dict `:` qualified(type($map)) `,`
    qualified(type($dest)) `,` qualified(type($barriers))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes the op copies into `dest` (zeros outside the matrix count).
    int64_t getCopiedBytes();
  }];
}

def Blk_WaitBarrierOp : Blk_Op<"wait_barrier", [
    MemoryEffects<[MemRead<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>]> {
  let summary = "wait for a phase of a barrier";
  let description = [{
    Every thread waits until barrier `index` of `barriers` has completed
    its phase of parity `phase` (`mbarrier.try_wait.parity`, Triton's
    `ttng.wait_barrier`): the copies announced for that phase have landed
    and are visible to the thread.

    ```mlir
    blk.wait_barrier %bars[%slot], %phase : !blk.barriers<3>
    ```
  }];
  let arguments = (ins Blk_BarriersType:$barriers, I32:$index, I32:$phase);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $phase attr-dict `:`
    qualified(type($barriers))
  }];
}

def Blk_BarrierOp : Blk_Op<"barrier", [
    MemoryEffects<[MemRead<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>]> {
  let summary = "a barrier of the CTA's threads";
  let description = [{
    Every thread of the CTA reaches it before any goes on (`bar.sync`):
    what each did before it, its waits for asynchronous copies and
    products included, happened before what any does after it.
    blk-pipeline-dot-operands puts one between the products and the
    copies that overwrite the slot the previous products read.

    ```mlir
    blk.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Blk_WarpgroupDotOp : Blk_Op<"warpgroup_dot", [
    MemoryEffects<[MemRead<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "blk.dot on wgmma, B (and A) read from swizzled buffers";
  let description = [{
    `result = a x b + acc` as `blk.dot` computes it on sm_90a, with A (M x
    K) and B (K x N) already in shared memory as `wgmma` reads them (Triton's
    `ttng.warp_group_dot`): A `#blk.swizzled` with its rows rotated as the
    accumulator's (getWgmmaRowRotation), B `#blk.swizzled<>`, the
    accumulator laid out for wgmma over the kernel's warps
    (getWgmmaAccumulatorLayout). It starts with a barrier of the CTA, after
    a fence for the asynchronous proxy: the writes every thread made to
    shared memory before it (its copies waited for) are read. Each
    warpgroup then multiplies its 64-row tiles, K step by K step, and waits
    until at most `pending` groups of its products are in flight
    (`wgmma.wait_group`). With `pending = 1` this op's products may still
    run after it: its result may only be the accumulator of a later
    `blk.warpgroup_dot` (tensor cores chain them), or be read after a
    `blk.warpgroup_wait`; the buffers it read must stay as they are until
    the next op that waits. blk-pipeline-dot-operands makes these from a
    `blk.dot`.

    A may instead be a 16-bit block in registers laid out as the
    accumulator (attention's P, computed from S): each thread's elements
    of a 64 x 16 step are the fragment of A wgmma takes from registers,
    so nothing stores A. With `synchronize = false` the op makes no fence
    and no barrier: every write to shared memory it reads was published
    by an earlier `blk.warpgroup_dot` (blk-pipeline-dot-operands gives a
    loop's later product whose A is in registers no barrier: its B was
    copied with the first product's operands).

    ```mlir
    %c = blk.warpgroup_dot %a, %b, %acc
        : !blk.shared<128x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>,
          !blk.shared<64x256xbf16, #blk.swizzled<>>, tensor<128x256xf32, #mma>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Blk_SharedType, Blk_Block]>:$a,
                       Blk_SharedType:$b, Blk_Block:$acc,
                       ConfinedAttr<DefaultValuedAttr<I64Attr, "0">,
                                    [IntMinValue<0>, IntMaxValue<1>]>:$pending,
                       DefaultValuedAttr<BoolAttr, "true">:$synchronize);
  let results = (outs Blk_Block:$result);
  let extraClassDeclaration = [{
    /// A's shape (M x K) and element type, in registers or shared memory.
    std::pair<ArrayRef<int64_t>, Type> getAShape();
  }];
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,`
    qualified(type($b)) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Blk_WarpgroupWaitOp : Blk_Op<"warpgroup_wait", [
    MemoryEffects<[MemRead<Blk_SharedMemory>, MemWrite<Blk_SharedMemory>]>,
    AllTypesMatch<["values", "results"]>]> {
  let summary = "wait for a warpgroup's products in flight";
  let description = [{
    Waits until at most `pending` groups of the warpgroup's products
    (`blk.warpgroup_dot` with `pending = 1`) are in flight
    (`wgmma.wait_group`), and gives `values`, results of those products,
    complete (Triton's `ttng.warp_group_dot_wait`).

    ```mlir
    %c = blk.warpgroup_wait 0 %acc : tensor<128x256xf32, #mma>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<7>]>:$pending,
                       Variadic<Blk_Block>:$values);
  let results = (outs Variadic<Blk_Block>:$results);
  let assemblyFormat = "$pending ($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Blk_ReduceOp : Blk_Op<"reduce", [Pure,
    DeclareOpInterfaceMethods<Blk_ReductionOpInterface>]> {
  let summary = "max, min or sum of a block along one axis";
  let description = [{
    Combines the elements of `src` along `axis` with `max`, `min` or `sum`.
    Reducing a 1-D block gives a scalar; reducing a 2-D block gives a 1-D
    block. `max` and `min` propagate NaN (as `arith.maximumf` and
    `arith.minimumf`).

    ```mlir
    %m = blk.reduce max %x axis 0 : tensor<1024xf32> -> f32
    %s = blk.reduce sum %e axis 1 : tensor<4x256xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Blk_ReduceKindAttr:$kind, Blk_Block:$src, I64Attr:$axis);
  let results = (outs AnyTypeOf<[Blk_Block, AnyInteger, AnyFloat]>:$result);
  let assemblyFormat =
      "$kind $src `axis` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The combining function of `kind` on two scalars or vectors (every
    /// lowering combines with it): arith.maximumf / minimumf / addf, or
    /// their signed integer forms.
    static ::mlir::Value combine(::mlir::OpBuilder &builder,
                                 ::mlir::Location loc, ReduceKind kind,
                                 ::mlir::Value lhs, ::mlir::Value rhs);
    /// The identity of `kind` for `elementType`: 0, -inf (max) or +inf
    /// (min), and the signed extremes for integers.
    static ::mlir::TypedAttr getIdentity(ReduceKind kind,
                                         ::mlir::Type elementType,
                                         ::mlir::Builder &builder);
  }];
}

def Blk_DotOp : Blk_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix product of two 2-D blocks, added to an accumulator";
  let description = [{
    `result = a x b + acc`: `a` is M x K, `b` K x N, `acc` and the result
    M x N. The inputs are f16 or bf16 (both the same) with an f32
    accumulator, or f32 with an f32 accumulator; products and sums are
    those of the accumulator's type (the float64 reference computes them in
    double). A transposed operand (K^T for attention) is a block loaded
    with transposed offsets, as in Triton.

    ```mlir
    %c = blk.dot %a, %b, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>,
                                 tensor<64x64xf32>
    ```

    Inputs widened from one 16-bit type (`arith.extf` of f16 or bf16 blocks,
    what blk-storage-type makes of an f32 program over bf16 memory) are
    taken before the widening (canonicalization): the products are the
    same in f32, and the 16-bit inputs are what tensor cores multiply.

    f32 inputs may be multiplied as tf32 (`precision tf32`, Triton's
    `input_precision="tf32"`, opt-in): each input rounded to 10 bits of
    mantissa (to nearest, ties away from zero, as `cvt.rna.tf32.f32`), the
    products and sums in f32; the CPU and the float64 reference round them
    the same way.

    ```mlir
    %c = blk.dot %a, %b, %acc precision tf32 : tensor<64x32xf32>,
                                                tensor<32x64xf32>,
                                                tensor<64x64xf32>
    ```

    The CPU lowers it to a `linalg.generic` over (m, n, k); the GPU, with
    the operands passed through shared memory (convert-blk-to-gpu), to
    `wgmma` on sm_90a (warps in whole warpgroups along M, M a multiple of
    64 a warpgroup, N of 64 up to 256, K of 64; 16-bit inputs), else
    `mma.sync` on sm_80+ (f16 or bf16 inputs with M, N and K multiples of
    16, 8 and 16; tf32 with multiples of 16, 8 and 8), else f32 multiplies
    and adds. On the wgmma path in a K loop, blk-pipeline-dot-operands may
    copy A and B into shared memory ahead of their step instead
    (`blk.warpgroup_dot`).
  }];
  let arguments = (ins Blk_Block:$a, Blk_Block:$b, Blk_Block:$acc,
      DefaultValuedAttr<Blk_InputPrecisionAttr,
                        "::mlir::blk::InputPrecision::ieee">:$precision);
  let results = (outs Blk_Block:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`precision` $precision^)? attr-dict `:` type($a) `,`
    type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Blk_MaxExpSumOp : Blk_Op<"max_exp_sum", [Pure,
    DeclareOpInterfaceMethods<Blk_ReductionOpInterface>,
    AllTypesMatch<["max", "sum"]>, AllTypesMatch<["src", "exps"]>]> {
  let summary = "max of a block along one axis, exp against it, and its sum";
  let description = [{
    `max` = the maximum of `src` along `axis`, `exps` = `exp(src - max)`
    (the maximum repeated along the axis), `sum` = the sum of `exps` along
    it: what softmax, log_softmax and cross-entropy compute from a row,
    with the values of the ops it replaces,

    ```mlir
    %max = blk.reduce max %x axis 0 : tensor<1024xf32> -> f32
    %max_block = blk.splat %max : f32 -> tensor<1024xf32>
    %shifted = arith.subf %x, %max_block : tensor<1024xf32>
    %exps = math.exp %shifted : tensor<1024xf32>
    %sum = blk.reduce sum %exps axis 0 : tensor<1024xf32> -> f32
    ```

    including where `max` is not finite (`exps` and `sum` are NaN where
    `max` is -inf: `exp(-inf - -inf)`). Formed by blk-combine-reductions.
    On the GPU the partials are exchanged once per level (Milakov and
    Gimelshein's online normalizer, as QuACK does): a thread computes
    `exp` against the maximum of its own elements and sums it; (max, sum)
    pairs, packed into 64 bits, combine as
    `(M, s1 exp(m1 - M) + s2 exp(m2 - M))`, M = max(m1, m2); the thread's
    exps are then scaled by `exp(m - M)`: one `exp` an element, as before,
    and one barrier where the two reductions had two. Rounding differs
    from the ops it replaces by the rescaling (an ulp or two). On the CPU,
    the ops it replaces.

    ```mlir
    %max, %sum, %exps = blk.max_exp_sum %x axis 0
        : tensor<1024xf32> -> f32, f32, tensor<1024xf32>
    %m, %s, %e = blk.max_exp_sum %y axis 1
        : tensor<4x256xf32> -> tensor<4xf32>, tensor<4xf32>, tensor<4x256xf32>
    ```
  }];
  let arguments = (ins Blk_Block:$src, I64Attr:$axis);
  let results = (outs AnyTypeOf<[Blk_Block, F32]>:$max,
                      AnyTypeOf<[Blk_Block, F32]>:$sum, Blk_Block:$exps);
  let assemblyFormat = "$src `axis` $axis attr-dict `:` type($src) `->` "
                       "type($max) `,` type($sum) `,` type($exps)";
  let hasVerifier = 1;
}

def Blk_SumCenteredSquaresOp : Blk_Op<"sum_centered_squares", [Pure,
    DeclareOpInterfaceMethods<Blk_ReductionOpInterface>]> {
  let summary = "sum of a row and the sum of its squares about the mean";
  let description = [{
    Over the lanes of the 1-D f32 block `src` where `mask` is true (all of
    them without a mask): `sum` = the sum of `src`, and `squares` = the
    sum of `(src - sum / divisor)^2`. With `src` 0 where `mask` is false,
    these are the values of layer_norm's two reductions,

    ```mlir
    %sum = blk.reduce sum %x axis 0 : tensor<1024xf32> -> f32
    %mean = arith.divf %sum, %n : f32
    %mean_block = blk.splat %mean : f32 -> tensor<1024xf32>
    %difference = arith.subf %x, %mean_block : tensor<1024xf32>
    %centered = arith.select %in_bounds, %difference, %zeros
        : tensor<1024xi1>, tensor<1024xf32>
    %squares = arith.mulf %centered, %centered : tensor<1024xf32>
    %square_sum = blk.reduce sum %squares axis 0 : tensor<1024xf32> -> f32
    ```

    which it replaces (blk-combine-centered-squares). On the GPU the
    partials are exchanged once, where the reductions it replaces exchange
    twice, the second after the first: a thread takes the mean of its own
    lanes and the squares about it, and (count, sum, mean, squares)
    partials merge as Chan, Golub and LeVeque's parallel variance (the
    sums add as a sum's partials do),
    `squares = squares_a + squares_b + (mean_b - mean_a)^2 count_a count_b
    / count`; the squares about the row's mean are then those about the
    mean of the lanes counted plus `count (mean - sum / divisor)^2`. The
    rounding differs from the reductions it replaces (the squares are
    taken about each thread's mean first). A NaN or an infinity among the
    lanes counted makes `squares` NaN, as it makes the squares about the
    mean. On the CPU, the reductions it stands for.

    ```mlir
    %sum, %squares = blk.sum_centered_squares %x mask %in_bounds divisor %n
        axis 0 : tensor<1024xf32>, tensor<1024xi1>
    ```
  }];
  let arguments = (ins Blk_Block:$src, Optional<Blk_MaskBlock>:$mask,
                       F32:$divisor, I64Attr:$axis);
  let results = (outs F32:$sum, F32:$squares);
  let assemblyFormat = "$src (`mask` $mask^)? `divisor` $divisor `axis` $axis "
                       "attr-dict `:` type($src) (`,` type($mask)^)?";
  let hasVerifier = 1;
}

#endif // BLK_OPS_TD
