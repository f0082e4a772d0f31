// RUN: softmax-opt %s --blk-distribute --convert-blk-to-gpu | FileCheck %s

// A block of 1536 f32, three layout tiles of 512 (4-element runs x 32 lanes
// x 4 warps), not a power of two: each thread holds 12 elements, three
// aligned 16-byte runs, and loads and stores each as one vector.
// CHECK-LABEL: gpu.func @three_tiles
// CHECK:       arith.constant dense<[0, 1, 2, 3, 512, 513, 514, 515, 1024, 1025, 1026, 1027]> : vector<12xi32>
// CHECK:       %[[OFFSETS:.*]] = arith.addi {{.*}} : vector<12xi32>
// CHECK:       %[[RUN0:.*]] = vector.extract %[[OFFSETS]][0] : i32 from vector<12xi32>
// CHECK:       %[[RUN1:.*]] = vector.extract %[[OFFSETS]][4] : i32 from vector<12xi32>
// CHECK:       %[[RUN2:.*]] = vector.extract %[[OFFSETS]][8] : i32 from vector<12xi32>
// CHECK:       llvm.getelementptr inbounds %{{.*}}[%[[RUN0]]]
// CHECK:       llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:       llvm.getelementptr inbounds %{{.*}}[%[[RUN1]]]
// CHECK:       llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:       llvm.getelementptr inbounds %{{.*}}[%[[RUN2]]]
// CHECK:       llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT:   llvm.load
// CHECK-COUNT-3: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT:   llvm.store
func.func @three_tiles(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                       %stride: i32 {blk.divisibility = 16 : i64})
    attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %row = blk.program_id x
  %start = arith.muli %row, %stride : i32
  %rowp = blk.addptr %p, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to 1536 : tensor<1536xi32>
  %x = blk.load %rowp[%cols] : !blk.ptr<f32>, tensor<1536xi32> -> tensor<1536xf32>
  %s = blk.reduce sum %x axis 0 : tensor<1536xf32> -> f32
  %b = blk.splat %s : f32 -> tensor<1536xf32>
  %y = arith.divf %x, %b : tensor<1536xf32>
  blk.store %rowp[%cols], %y : !blk.ptr<f32>, tensor<1536xi32>, tensor<1536xf32>
  return
}
