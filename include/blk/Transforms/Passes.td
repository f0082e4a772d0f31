#ifndef BLK_TRANSFORMS_PASSES_TD
#define BLK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BlkSpecialize : Pass<"blk-specialize", "::mlir::ModuleOp"> {
  let summary = "Bind compile-time constants and make every block shape static";
  let description = [{
    A block program names its compile-time constants (`blk.constexpr BLOCK`,
    shapes such as `[BLOCK]`). This pass binds them, as Triton binds
    `tl.constexpr` arguments when a kernel is launched:

    * each `blk.constexpr NAME` becomes an `arith.constant`;
    * each shape entry `NAME` in `blk.arange`, `blk.splat`, `blk.broadcast`
      becomes the number;
    * the now static shapes are propagated through every op that uses them
      (elementwise `arith`/`math` ops, `blk` ops, `scf.for`/`scf.if` results
      and region arguments).

    Bindings are written `NAME=VALUE`, separated by spaces or commas:
    `--blk-specialize="BLOCK=1024"` or
    `--pass-pipeline='builtin.module(blk-specialize{bind=ROWS=4,BLOCK=128})'`.
    A constant that is used but not bound, or a shape that stays dynamic, is
    an error at the op that needs it.
  }];
  let options = [
    ListOption<"bindings", "bind", "std::string",
               "Compile-time constants to bind, as NAME=VALUE">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // BLK_TRANSFORMS_PASSES_TD
