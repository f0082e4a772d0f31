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

def Blk_AnyPtr : Type<CPred<"::llvm::isa<::mlir::blk::PtrType>($_self)">,
                      "blk pointer", "::mlir::blk::PtrType">;

// Blocks are builtin ranked tensors; a dimension may be dynamic (`?`) until a
// compile-time constant is bound by --blk-specialize.
def Blk_Block : RankedTensorOf<[AnyInteger, AnyFloat, Index]>;
def Blk_IntBlock : RankedTensorOf<[I32, I64]>;
def Blk_MaskBlock : RankedTensorOf<[I1]>;

#endif // BLK_TYPES_TD
