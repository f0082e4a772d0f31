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
    threads); it must be a power of two from 1 to 32.

    ```mlir
    func.func @softmax(...) attributes {blk.kernel = #blk.kernel<num_warps = 4>}
    ```
  }];
  let parameters = (ins "int64_t":$numWarps);
  let assemblyFormat = "`<` `num_warps` `=` $numWarps `>`";
  let genVerifyDecl = 1;
}

#endif // BLK_ATTRS_TD
