// RUN: softmax-opt %s --blk-storage-type=type=bf16 | FileCheck %s
// RUN: softmax-opt %s --blk-storage-type=type=f16 | FileCheck %s --check-prefix=F16
// RUN: softmax-opt %s --blk-storage-type=type=f32 | FileCheck %s --check-prefix=F32
// RUN: not softmax-opt %s --blk-storage-type=type=f64 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: blk-storage-type: type must be f16, bf16 or f32, not 'f64'

// CHECK-LABEL: func.func @row
// CHECK-SAME: (%[[OUT:.*]]: !blk.ptr<bf16>, %[[IN:.*]]: !blk.ptr<bf16>, %{{.*}}: i32)
// F16-LABEL: func.func @row
// F16-SAME: !blk.ptr<f16>
// F32-LABEL: func.func @row
// F32-SAME: !blk.ptr<f32>
func.func @row(%out: !blk.ptr<f32>, %in: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // CHECK: %[[ROW:.*]] = blk.addptr %[[IN]], %{{.*}} : !blk.ptr<bf16>, i32
  %row = blk.addptr %in, %n : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  %nb = blk.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %cols, %nb : tensor<128xi32>
  %ninf = arith.constant 0xFF800000 : f32
  // CHECK: %[[OTHER:.*]] = arith.truncf %{{.*}} : f32 to bf16
  // CHECK: %[[NARROW:.*]] = blk.load %[[ROW]][%{{.*}}] mask %{{.*}} other %[[OTHER]] : !blk.ptr<bf16>, tensor<128xi32> -> tensor<128xbf16>
  // CHECK: %[[WIDE:.*]] = arith.extf %[[NARROW]] : tensor<128xbf16> to tensor<128xf32>
  %x = blk.load %row[%cols] mask %mask other %ninf : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  // CHECK: math.exp %[[WIDE]] : tensor<128xf32>
  %e = math.exp %x : tensor<128xf32>
  // CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<128xf32> to tensor<128xbf16>
  // CHECK: blk.store %[[OUT]][%{{.*}}], %[[T]] mask %{{.*}} : !blk.ptr<bf16>, tensor<128xi32>, tensor<128xbf16>
  blk.store %out[%cols], %e mask %mask : !blk.ptr<f32>, tensor<128xi32>, tensor<128xf32>
  return
}

// Pointers carried through a loop are retyped as well.
// CHECK-LABEL: func.func @carried_pointer
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!blk.ptr<bf16>)
func.func @carried_pointer(%p: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cols = blk.arange 0 to 32 : tensor<32xi32>
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (!blk.ptr<f32>) : i32 {
    %x = blk.load %q[%cols] : !blk.ptr<f32>, tensor<32xi32> -> tensor<32xf32>
    blk.store %q[%cols], %x : !blk.ptr<f32>, tensor<32xi32>, tensor<32xf32>
    %next = blk.addptr %q, %c1 : !blk.ptr<f32>, i32
    scf.yield %next : !blk.ptr<f32>
  }
  return
}
