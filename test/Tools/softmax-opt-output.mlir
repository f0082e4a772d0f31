// softmax-opt writes its output whole or not at all: a run that fails
// keeps the file that was there (MLIR's output file truncated it first,
// and removed it on the failure), and an output that cannot be written
// is an error, not an LLVM ERROR.
// RUN: printf 'previous' > %t.kept.mlir
// RUN: not softmax-opt %s --blk-specialize -o %t.kept.mlir 2>&1 | FileCheck %s --check-prefix=UNBOUND
// RUN: FileCheck %s --check-prefix=KEPT --input-file %t.kept.mlir
// RUN: not softmax-opt %s --blk-specialize=bind=BLOCK=64 -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not softmax-opt %s --blk-specialize=bind=BLOCK=64 2>&1 > /dev/full | FileCheck %s --check-prefix=STDOUT
// RUN: not softmax-opt --list-passes 2>&1 > /dev/full | FileCheck %s --check-prefix=STDOUT
// RUN: softmax-opt %s --blk-specialize=bind=BLOCK=64 -o %t.kept.mlir
// RUN: FileCheck %s --check-prefix=WRITTEN --input-file %t.kept.mlir
// A symbolic link is written through, not replaced by a file.
// RUN: rm -f %t.target.mlir %t.link.mlir && printf 'previous' > %t.target.mlir && ln -s %t.target.mlir %t.link.mlir
// RUN: softmax-opt %s --blk-specialize=bind=BLOCK=64 -o %t.link.mlir
// RUN: test -L %t.link.mlir
// RUN: FileCheck %s --check-prefix=WRITTEN --input-file %t.target.mlir
// UNBOUND: error: 'blk.arange' op compile-time constant 'BLOCK' is not bound
// KEPT: previous
// FULL-NOT: LLVM ERROR
// FULL: softmax-opt: cannot write '/dev/full': No space left on device
// STDOUT-NOT: LLVM ERROR
// STDOUT: softmax-opt: cannot write standard output: No space left on device
// WRITTEN: blk.arange 0 to 64

func.func @copy(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %x = blk.load %in[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  blk.store %out[%cols], %x mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
