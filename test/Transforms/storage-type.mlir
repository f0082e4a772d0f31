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

// A blk.keep_f32 tensor (attention's logsumexp) stays f32, and so do the
// pointers blk.addptr derives from it; the others narrow beside it.
// CHECK-LABEL: func.func @keep_f32
// CHECK-SAME: (%[[STAT:.*]]: !blk.ptr<f32> {blk.keep_f32}, %[[DATA:.*]]: !blk.ptr<bf16>, %{{.*}}: i32)
// CHECK: %[[ROW:.*]] = blk.addptr %[[STAT]], %{{.*}} : !blk.ptr<f32>, i32
// CHECK: %[[X:.*]] = blk.load %[[DATA]][%{{.*}}] : !blk.ptr<bf16>, tensor<32xi32> -> tensor<32xbf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[X]]
// CHECK: blk.store %[[ROW]][%{{.*}}], %[[WIDE]] : !blk.ptr<f32>, tensor<32xi32>, tensor<32xf32>
// F32-LABEL: func.func @keep_f32
func.func @keep_f32(%stat: !blk.ptr<f32> {blk.keep_f32}, %data: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.addptr %stat, %n : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 32 : tensor<32xi32>
  %x = blk.load %data[%cols] : !blk.ptr<f32>, tensor<32xi32> -> tensor<32xf32>
  blk.store %row[%cols], %x : !blk.ptr<f32>, tensor<32xi32>, tensor<32xf32>
  return
}

// A product's operand computed in f32 is rounded to the data's type where
// it is made: one made before the loop (attention's Q with the scale's
// sign) once there, one made in the loop (P) in it.
// CHECK-LABEL: func.func @computed_operands
// CHECK: %[[A:.*]] = arith.negf
// CHECK-NEXT: %[[A_NARROW:.*]] = arith.truncf %[[A]] : tensor<64x16xf32> to tensor<64x16xbf16>
// CHECK: scf.for
// CHECK: %[[P:.*]] = math.exp
// CHECK-NEXT: arith.truncf %[[P]] : tensor<64x64xf32> to tensor<64x64xbf16>
// CHECK: scf.yield
func.func @computed_operands(%x: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %rows = blk.arange 0 to 64 : tensor<64xi32>
  %rows_col = blk.expand_dims %rows axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  %a_offsets = blk.broadcast %rows_col [64, 16] : tensor<64x1xi32> -> tensor<64x16xi32>
  %a_loaded = blk.load %x[%a_offsets] : !blk.ptr<f32>, tensor<64x16xi32> -> tensor<64x16xf32>
  %a = arith.negf %a_loaded : tensor<64x16xf32>
  %b_offsets = blk.broadcast %rows_col [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %ks = blk.arange 0 to 16 : tensor<16xi32>
  %ks_col = blk.expand_dims %ks axis 1 : tensor<16xi32> -> tensor<16x1xi32>
  %k_offsets = blk.broadcast %ks_col [16, 64] : tensor<16x1xi32> -> tensor<16x64xi32>
  %acc0 = blk.splat %zero [64, 64] : f32 -> tensor<64x64xf32>
  %out = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %b = blk.load %x[%b_offsets] : !blk.ptr<f32>, tensor<64x64xi32> -> tensor<64x64xf32>
    %b16 = blk.load %x[%k_offsets] : !blk.ptr<f32>, tensor<16x64xi32> -> tensor<16x64xf32>
    %s = blk.dot %a, %b16, %acc : tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>
    %p = math.exp %s : tensor<64x64xf32>
    %next = blk.dot %p, %b, %acc : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  blk.store %x[%b_offsets], %out : !blk.ptr<f32>, tensor<64x64xi32>, tensor<64x64xf32>
  return
}
