// RUN: softmax-opt %s --blk-specialize="BLOCK=256 ROWS=4" | FileCheck %s
// RUN: softmax-opt %s --pass-pipeline='builtin.module(blk-specialize{bind=BLOCK=256,ROWS=4})' | FileCheck %s

// CHECK-LABEL: func.func @binds_names
func.func @binds_names(%p: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // CHECK: %[[BLOCK:.*]] = arith.constant 256 : i32
  // CHECK-NOT: blk.constexpr
  %block = blk.constexpr BLOCK : i32
  // CHECK: blk.arange 0 to 256 : tensor<256xi32>
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  // CHECK: blk.splat %{{.*}} : i32 -> tensor<256xi32>
  %nb = blk.splat %n [BLOCK] : i32 -> tensor<?xi32>
  // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<256xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<?xi32>
  // CHECK: blk.load {{.*}} -> tensor<256xf32>
  %x = blk.load %p[%cols] mask %mask : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  // CHECK: math.exp %{{.*}} : tensor<256xf32>
  %e = math.exp %x : tensor<?xf32>
  // CHECK: blk.reduce sum %{{.*}} axis 0 : tensor<256xf32> -> f32
  %s = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  // CHECK: blk.store {{.*}} : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  blk.store %p[%cols], %e mask %mask : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

// CHECK-LABEL: func.func @two_dimensional
func.func @two_dimensional(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // CHECK: blk.arange 0 to 4 : tensor<4xi32>
  %rows = blk.arange 0 to ROWS : tensor<?xi32>
  // CHECK: blk.expand_dims %{{.*}} axis 1 : tensor<4xi32> -> tensor<4x1xi32>
  %rows2 = blk.expand_dims %rows axis 1 : tensor<?xi32> -> tensor<?x1xi32>
  // CHECK: blk.broadcast %{{.*}} : tensor<4x1xi32> -> tensor<4x256xi32>
  %rowsb = blk.broadcast %rows2 [ROWS, BLOCK] : tensor<?x1xi32> -> tensor<?x?xi32>
  // CHECK: blk.load {{.*}} -> tensor<4x256xf32>
  %x = blk.load %p[%rowsb] : !blk.ptr<f32>, tensor<?x?xi32> -> tensor<?x?xf32>
  // CHECK: blk.reduce max %{{.*}} axis 1 : tensor<4x256xf32> -> tensor<4xf32>
  %m = blk.reduce max %x axis 1 : tensor<?x?xf32> -> tensor<?xf32>
  return
}

// CHECK-LABEL: func.func @through_regions
func.func @through_regions(%p: !blk.ptr<f32>, %n: i32, %flag: i1) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %c0 = arith.constant 0 : i32
  %block = blk.constexpr BLOCK : i32
  %zero = arith.constant 0.0 : f32
  %init = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<256xf32>)
  %sum = scf.for %i = %c0 to %n step %block iter_args(%acc = %init) -> (tensor<?xf32>) : i32 {
    // CHECK: blk.load {{.*}} -> tensor<256xf32>
    %x = blk.load %p[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    // CHECK: arith.addf %[[ACC]], %{{.*}} : tensor<256xf32>
    %next = arith.addf %acc, %x : tensor<?xf32>
    scf.yield %next : tensor<?xf32>
  }
  // CHECK: scf.if %{{.*}} -> (tensor<256xf32>)
  %picked = scf.if %flag -> (tensor<?xf32>) {
    scf.yield %sum : tensor<?xf32>
  } else {
    scf.yield %init : tensor<?xf32>
  }
  // CHECK: blk.reduce max %{{.*}} axis 0 : tensor<256xf32> -> f32
  %m = blk.reduce max %picked axis 0 : tensor<?xf32> -> f32
  return
}
