// RUN: softmax-opt %s --blk-narrow-reductions --split-input-file | FileCheck %s
// RUN: softmax-opt %s --blk-attach-target=chip=sm_75 --blk-narrow-reductions --split-input-file | FileCheck %s --check-prefix=SM75

// Before sm_80 a 16-bit max is emulated: nothing is narrowed.
// SM75-NOT: blk.reduce {{.*}}bf16
// SM75-NOT: blk.reduce {{.*}}f16

#l = #blk.blocked<elems = [8], lanes = [32], warps = [8]>

// The max of a widened bf16 row is the widened bf16 max; the widened row,
// used only after it, is computed after it; the sum of exp stays in f32.
// CHECK-LABEL: func.func @softmax_bf16
// CHECK: %[[X:.*]] = blk.load
// CHECK-NEXT: %[[M16:.*]] = blk.reduce max %[[X]] axis 0 : tensor<2048xbf16, #{{.*}}> -> bf16
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[X]] : tensor<2048xbf16, #{{.*}}> to tensor<2048xf32, #{{.*}}>
// CHECK-NEXT: %[[M:.*]] = arith.extf %[[M16]] : bf16 to f32
// CHECK-NEXT: %[[MB:.*]] = blk.splat %[[M]]
// CHECK-NEXT: arith.subf %[[W]], %[[MB]]
// CHECK: blk.reduce sum %{{.*}} axis 0 : tensor<2048xf32, #{{.*}}> -> f32
func.func @softmax_bf16(%p: !blk.ptr<bf16>, %q: !blk.ptr<bf16>) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %cols = blk.arange 0 to 2048 : tensor<2048xi32, #l>
  %x = blk.load %p[%cols] : !blk.ptr<bf16>, tensor<2048xi32, #l> -> tensor<2048xbf16, #l>
  %w = arith.extf %x : tensor<2048xbf16, #l> to tensor<2048xf32, #l>
  %m = blk.reduce max %w axis 0 : tensor<2048xf32, #l> -> f32
  %mb = blk.splat %m : f32 -> tensor<2048xf32, #l>
  %d = arith.subf %w, %mb : tensor<2048xf32, #l>
  %e = math.exp %d : tensor<2048xf32, #l>
  %s = blk.reduce sum %e axis 0 : tensor<2048xf32, #l> -> f32
  %sb = blk.splat %s : f32 -> tensor<2048xf32, #l>
  %y = arith.divf %e, %sb : tensor<2048xf32, #l>
  %y16 = arith.truncf %y : tensor<2048xf32, #l> to tensor<2048xbf16, #l>
  blk.store %q[%cols], %y16 : !blk.ptr<bf16>, tensor<2048xi32, #l>, tensor<2048xbf16, #l>
  return
}

// -----

#l = #blk.blocked<elems = [4, 4], lanes = [1, 32], warps = [2, 4]>
#r = #blk.slice<dim = 1, parent = #l>

// A 2-D block's min along its rows: the result keeps its layout; the
// widening the min alone used goes.
// CHECK-LABEL: func.func @rows_min_f16
// CHECK-NOT: arith.extf
// CHECK: %[[M16:.*]] = blk.reduce min %{{.*}} axis 1 : tensor<8x512xf16, #{{.*}}> -> tensor<8xf16, #[[R:.*]]>
// CHECK-NEXT: %[[M:.*]] = arith.extf %[[M16]] : tensor<8xf16, #[[R]]> to tensor<8xf32, #[[R]]>
// CHECK-NEXT: return %[[M]]
func.func @rows_min_f16(%x: tensor<8x512xf16, #l>) -> tensor<8xf32, #r> {
  %w = arith.extf %x : tensor<8x512xf16, #l> to tensor<8x512xf32, #l>
  %m = blk.reduce min %w axis 1 : tensor<8x512xf32, #l> -> tensor<8xf32, #r>
  return %m : tensor<8xf32, #r>
}

// -----

// Left alone: a sum of widened values (it rounds in its type), a max of
// f32 data, and a max of a widening from f32.
// CHECK-LABEL: func.func @unchanged
// CHECK: blk.reduce sum %{{.*}} : tensor<256xf32> -> f32
// CHECK: blk.reduce max %{{.*}} : tensor<256xf32> -> f32
// CHECK: blk.reduce max %{{.*}} : tensor<256xf64> -> f64
// CHECK-NOT: blk.reduce {{.*}}bf16
func.func @unchanged(%x: tensor<256xbf16>, %y: tensor<256xf32>) -> (f32, f32, f64) {
  %w = arith.extf %x : tensor<256xbf16> to tensor<256xf32>
  %s = blk.reduce sum %w axis 0 : tensor<256xf32> -> f32
  %m = blk.reduce max %y axis 0 : tensor<256xf32> -> f32
  %d = arith.extf %y : tensor<256xf32> to tensor<256xf64>
  %md = blk.reduce max %d axis 0 : tensor<256xf64> -> f64
  return %s, %m, %md : f32, f32, f64
}

// -----

// A widening used before the max as well stays where it is.
// CHECK-LABEL: func.func @used_before
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : tensor<256xbf16> to tensor<256xf32>
// CHECK-NEXT: %[[S:.*]] = blk.reduce sum %[[W]]
// CHECK-NEXT: %[[M16:.*]] = blk.reduce max %{{.*}} : tensor<256xbf16> -> bf16
// CHECK-NEXT: arith.extf %[[M16]] : bf16 to f32
func.func @used_before(%x: tensor<256xbf16>) -> (f32, f32) {
  %w = arith.extf %x : tensor<256xbf16> to tensor<256xf32>
  %s = blk.reduce sum %w axis 0 : tensor<256xf32> -> f32
  %m = blk.reduce max %w axis 0 : tensor<256xf32> -> f32
  return %s, %m : f32, f32
}

// -----

#two = #blk.blocked<elems = [2], lanes = [32], warps = [4]>

// Two elements a thread: narrowing would cost more than it saves.
// CHECK-LABEL: func.func @two_a_thread
// CHECK: blk.reduce max %{{.*}} : tensor<256xf32, #{{.*}}> -> f32
func.func @two_a_thread(%x: tensor<256xbf16, #two>) -> f32 {
  %w = arith.extf %x : tensor<256xbf16, #two> to tensor<256xf32, #two>
  %m = blk.reduce max %w axis 0 : tensor<256xf32, #two> -> f32
  return %m : f32
}

// -----

// A widening outside the loop whose max is in it stays outside.
// CHECK-LABEL: func.func @loop
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : tensor<256xbf16> to tensor<256xf32>
// CHECK: scf.for
// CHECK-NEXT: blk.reduce max %{{.*}} : tensor<256xbf16> -> bf16
// CHECK-NEXT: arith.extf
// CHECK-NEXT: blk.reduce sum %[[W]]
func.func @loop(%x: tensor<256xbf16>, %n: index) -> f32 {
  %w = arith.extf %x : tensor<256xbf16> to tensor<256xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %m = blk.reduce max %w axis 0 : tensor<256xf32> -> f32
    %s = blk.reduce sum %w axis 0 : tensor<256xf32> -> f32
    %t = arith.addf %m, %s : f32
    %a = arith.addf %acc, %t : f32
    scf.yield %a : f32
  }
  return %r : f32
}
