#ifndef BLK_TYPES_TD
#define BLK_TYPES_TD

include "blk/IR/BlkDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Blk_PtrType : TypeDef<Blk_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "pointer to elements in global memory";
  let description = [{
    A scalar pointer to global memory holding elements of `pointeeType`
    (`f32`, `f16`, `bf16`, `i32` or `i64`). Offsets applied to it count elements.

    ```mlir
    !blk.ptr<f32>
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of one element, the unit of offsets.
    int64_t getElementBytes() const {
      return getPointeeType().getIntOrFloatBitWidth() / 8;
    }
  }];
}

def Blk_SharedType : TypeDef<Blk_Dialect, "Shared"> {
  let mnemonic = "shared";
  let summary = "a block kept in shared memory";
  let description = [{
    A block of `shape` x `elementType` kept in the shared memory of the CTA
    (Triton's `!ttg.memdesc`): made by `blk.local_alloc` from a block in
    registers and read back by `blk.local_load`. Each thread reads back the
    elements it wrote, so a block in shared memory costs no registers while
    it is held, and reading it back needs no barrier.

    With an `encoding` (`#blk.swizzled`), the buffer is arranged as `wgmma`
    reads it instead, and written by `blk.async_copy_into`: a 2-D block, or
    a ring of them (3-D, slot first) that `blk.local_index` takes a slot of.

    ```mlir
    !blk.shared<32768xbf16>
    !blk.shared<3x64x256xbf16, #blk.swizzled<>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        OptionalParameter<"::mlir::blk::SwizzledSharedAttr">:$encoding);
  let builders = [
    TypeBuilder<(ins "ArrayRef<int64_t>":$shape, "Type":$elementType), [{
      return $_get($_ctxt, shape, elementType, SwizzledSharedAttr());
    }]>,
  ];
  let assemblyFormat =
      "`<` custom<StaticShape>($shape, $elementType) (`,` qualified($encoding)^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// One slot of a ring (blk.local_index): the last two dimensions, the
    /// same element type and encoding.
    SharedType getSlotType() const {
      return SharedType::get(getContext(), getShape().drop_front(),
                             getElementType(), getEncoding());
    }
  }];
}

def Blk_TensorMapType : TypeDef<Blk_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a TMA descriptor of a matrix argument, passed by value";
  let description = [{
    A kernel argument the launcher builds (`cuTensorMapEncodeTiled`) and
    passes as a 128-byte grid constant: the matrix a tensor argument holds
    (its rows, columns and row stride as the launch gives them), read by
    the tensor memory accelerator in boxes of `box` (rows x columns) of
    `elementType`, arranged in shared memory with the 128-byte swizzle
    (`#blk.swizzled`), elements outside the matrix read as zeros.

    With a `rotation` [first, bits], a box lands with its rows permuted as
    a `#blk.swizzled` buffer rotates them (A's rows for wgmma): the launcher
    describes the matrix in 4 dimensions (columns; 2^first rows; blocks of
    2^(first + bits - 1) rows, the rotation's top bit; and the groups of
    2^first rows inside such a block) whose box of `box` rows, written in
    order, is the rotated arrangement: one copy instead of one per group of
    rows. Only blocks wholly inside the matrix are in it: a box that would
    cross its last row is copied through a plain map.

    blk-pipeline-dot-operands adds these arguments (`#blk.arg<tensor_map
    "a">`); `blk.tensor_copy_into` reads through them.

    ```mlir
    %a_map: !blk.tensor_map<8x64xbf16> {blk.arg = #blk.arg<tensor_map "a">}
    %a_rotated: !blk.tensor_map<128x64xbf16, rotation = [3, 4]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$box,
                        "::mlir::Type":$elementType,
                        DefaultValuedParameter<"int64_t", "0">:$rotationFirst,
                        DefaultValuedParameter<"int64_t", "0">:$rotationBits);
  let builders = [
    TypeBuilder<(ins "ArrayRef<int64_t>":$box, "Type":$elementType), [{
      return $_get($_ctxt, box, elementType, 0, 0);
    }]>,
  ];
  let assemblyFormat = [{
    `<` custom<StaticShape>($box, $elementType)
    (`,` `rotation` `=` `[` $rotationFirst^ `,` $rotationBits `]`)? `>`
  }];
  let genVerifyDecl = 1;
}

def Blk_BarriersType : TypeDef<Blk_Dialect, "Barriers"> {
  let mnemonic = "barriers";
  let summary = "mbarriers in shared memory, one per slot of a ring";
  let description = [{
    `count` transaction barriers (`mbarrier`) of the CTA in static shared
    memory, made by `blk.init_barriers`: barrier i completes a phase when
    the one arrival `blk.barrier_expect` makes and the bytes it announced
    (the copies of `blk.tensor_copy_into` into slot i) have all come;
    `blk.wait_barrier` waits for a phase.

    ```mlir
    !blk.barriers<3>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def Blk_AnyPtr : Type<CPred<"::llvm::isa<::mlir::blk::PtrType>($_self)">,
                      "blk pointer", "::mlir::blk::PtrType">;

// Blocks are builtin ranked tensors; a dimension may be dynamic (`?`) until a
// compile-time constant is bound by --blk-specialize.
def Blk_Block : RankedTensorOf<[AnyInteger, AnyFloat, Index]>;
def Blk_IntBlock : RankedTensorOf<[I32, I64]>;
def Blk_MaskBlock : RankedTensorOf<[I1]>;

#endif // BLK_TYPES_TD
