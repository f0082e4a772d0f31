#ifndef BLK_INTERFACES_TD
#define BLK_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Blk_MemoryAccessOpInterface : OpInterface<"MemoryAccessOpInterface"> {
  let cppNamespace = "::mlir::blk";
  let description = [{
    An op that reads or writes global memory at `base[offsets[i]]` for every
    element `i` of an offsets block, where an optional mask holds. Passes that
    only need where an access goes and what it moves (layouts, vector widths,
    the storage type of memory) ask this interface, so that they do not tell
    `blk.load` from `blk.store` by hand.
  }];
  let methods = [
    InterfaceMethod<"The pointer the offsets count elements from.",
      "::mlir::TypedValue<::mlir::blk::PtrType>", "getBase">,
    InterfaceMethod<"The block of element offsets, one per element accessed.",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getOffsets">,
    InterfaceMethod<"The operand holding the base pointer.",
      "::mlir::OpOperand &", "getBaseMutable">,
    InterfaceMethod<"The operand holding the offsets block.",
      "::mlir::OpOperand &", "getOffsetsMutable">,
    InterfaceMethod<[{The i1 block (of the offsets' shape) selecting the
      elements accessed, or null when every element is.}],
      "::mlir::Value", "getMask">,
    InterfaceMethod<[{The block of values moved, of the offsets' shape: the
      result of a read, the stored operand of a write.}],
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getDataBlock">,
    InterfaceMethod<"Whether the op reads memory; otherwise it writes it.",
      "bool", "isRead">,
    InterfaceMethod<[{The scalar the masked-off elements of a read take, or
      null (for a write, or a read without one).}],
      "::mlir::Value", "getFillValue">,
  ];
  let extraClassDeclaration = [{
    /// The type of the elements read or written.
    ::mlir::Type getAccessedElementType() {
      return getDataBlock().getType().getElementType();
    }
    /// The block a write stores; null for a read.
    ::mlir::Value getStoredValue() {
      return isRead() ? ::mlir::Value() : ::mlir::Value(getDataBlock());
    }
  }];
}

def Blk_ConstantNamesOpInterface : OpInterface<"ConstantNamesOpInterface"> {
  let cppNamespace = "::mlir::blk";
  let description = [{
    An op that may name compile-time constants (Triton's `tl.constexpr`): in
    its value (`blk.constexpr`) or in a block shape (the end of `blk.arange`,
    the shape list of `blk.splat` and `blk.broadcast`). `--blk-specialize`
    binds the names through this interface and knows none of these ops.
  }];
  let methods = [
    InterfaceMethod<[{The compile-time constants this op names, in order of
      appearance (empty when it names none).}],
      "::llvm::SmallVector<::llvm::StringRef>", "getConstantNames">,
    InterfaceMethod<[{Replaces every constant this op names by its value in
      `constants`, rewriting the op (or replacing it) through `rewriter`; a
      result type becomes static where names fixed its dimensions. Fails,
      with a diagnostic at the op, when a name is unbound or its value does
      not fit where it is used.}],
      "::llvm::LogicalResult", "bindConstants",
      (ins "::mlir::RewriterBase &":$rewriter,
           "const ::llvm::StringMap<int64_t> &":$constants)>,
  ];
}

def Blk_ReductionOpInterface : OpInterface<"ReductionOpInterface"> {
  let cppNamespace = "::mlir::blk";
  let description = [{
    An op that combines the elements of a block along one axis. Its reduced
    results have the block's shape without that axis (a scalar for a 1-D
    block); any other result is a block of the source's shape, computed
    element by element beside the reduction. `blk.reduce` has one reduced
    result; `blk.max_exp_sum` two, combined in one exchange, and the block
    of exps; `blk.sum_centered_squares` two, a row's sum and its squares
    about the mean, also in one exchange. Passes that only need what is reduced and along which axis
    (specialization, layouts, kept rows, shared-memory planning) ask this
    interface.
  }];
  let methods = [
    InterfaceMethod<"The block reduced.",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getSrc">,
    InterfaceMethod<"The axis of the block the elements are combined along.",
      "int64_t", "getAxis">,
    InterfaceMethod<[{Whether result `index` has the reduced shape (else it
      has the source's).}],
      "bool", "isReducedResult", (ins "unsigned":$index)>,
  ];
}

#endif // BLK_INTERFACES_TD
