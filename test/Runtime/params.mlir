// Scalar kernel parameters (#blk.arg<param>) from --param NAME=VALUE: parsed
// for the declared type, every declared one required, no other accepted.
// The kernel is softmax(scale * x); with scale = 1 it is checked against the
// softmax reference.
// RUN: softmax-run %s --target cpu --rows 8 --cols 100 --param scale=1 --check | FileCheck %s --check-prefix=OK
// RUN: not softmax-run %s --target cpu --rows 8 --cols 100 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not softmax-run %s --target cpu --rows 8 --cols 100 --param scale=1,zz=3 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not softmax-run %s --target cpu --rows 8 --cols 100 --param scale=1,scale=2 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not softmax-run %s --target cpu --rows 8 --cols 100 "--param=scale= 1" 2>&1 | FileCheck %s --check-prefix=SPACE
// RUN: not softmax-run %s --target cpu --rows 8 --cols 100 --param scale=1e400 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not softmax-run %s --target cpu --rows 8 --cols 100 --param scale=1e-50 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: not softmax-run %s --target cpu --rows 8 --cols 100 --param scale=0x10 2>&1 | FileCheck %s --check-prefix=HEX
// OK: check: {{.*}} OK
// MISSING: softmax-run: kernel @scaled_softmax takes parameter 'scale' (f32); give it with --param scale=<value>
// UNKNOWN: softmax-run: --param zz: the program has no parameter of that name (its parameters: scale)
// TWICE: softmax-run: --param scale=2: scale is given twice
// SPACE: kernel @scaled_softmax argument #2 (scale) is f32, which cannot hold ' 1'
// HUGE: which cannot hold '1e400'
// TINY: which cannot hold '1e-50'
// HEX: which cannot hold '0x10'

func.func @scaled_softmax(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                          %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                          %scale: f32 {blk.arg = #blk.arg<param "scale">},
                          %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                          %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                          %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %in_start = arith.muli %row, %in_row_stride : i32
  %in_row = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %scales = blk.splat %scale [BLOCK] : f32 -> tensor<?xf32>
  %scaled = arith.mulf %x, %scales : tensor<?xf32>
  %max = blk.reduce max %scaled axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %scaled, %max_block : tensor<?xf32>
  %e = math.exp %shifted : tensor<?xf32>
  %sum = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %sum_block = blk.splat %sum [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.divf %e, %sum_block : tensor<?xf32>
  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
