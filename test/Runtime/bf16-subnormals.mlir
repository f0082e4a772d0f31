// bf16 subnormals survive the CPU path: y = x + x on x = +-k 2^-133 (every
// one a bf16 subnormal, every result still one). A load's value crossing
// blocks (bounds-checked, or a masked row end) was rounded back to bf16 by
// x86's VCVTNEPS2BF16 on hosts with AVX512-BF16, which flushes subnormals:
// y came out 0 (lib/Target/CPU.cpp, generateHostObject).
// RUN: rm -rf %t && mkdir -p %t && python3 %S/Inputs/make-npy.py %t
// RUN: softmax-run %s --target cpu --dtype bf16 --input x=%t/bf16-subnormal.npy --check --output y=%t/y.npy | FileCheck %s
// RUN: softmax-run %s --target cpu --dtype bf16 --check-bounds=false --input x=%t/bf16-subnormal.npy --check | FileCheck %s
// RUN: od -A n -t f4 -j 128 -N 8 %t/y.npy | FileCheck %s --check-prefix=Y
// CHECK: max_abs=0 {{.*}} OK
// Y: 1.83671e-40 -3.67342e-40

func.func @twice(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                 %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                 %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %start = arith.muli %row, %n_cols : i32
  %x_row = blk.addptr %x, %start : !blk.ptr<f32>, i32
  %v = blk.load %x_row[%cols] mask %in_row : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %s = arith.addf %v, %v : tensor<?xf32>
  %y_row = blk.addptr %y, %start : !blk.ptr<f32>, i32
  blk.store %y_row[%cols], %s mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
