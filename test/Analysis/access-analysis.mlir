// What AccessAnalysis proves (contiguity, constancy, divisibility; a
// pointer's alignment; the vector a load or store may move), printed by
// blk-test-print-access as remarks, one per integer value and access.
// RUN: softmax-opt %s --blk-test-print-access --split-input-file -verify-diagnostics

// A row through an aligned base and a stride divisible by 16: 16-byte
// vectors (4 f32). The mask `cols < n` with n of unknown divisibility is
// the same only over runs of 1; the access may still be realigned at run
// time (consecutive along the row, masked by a prefix).
func.func @aligned_row(%x: !blk.ptr<f32> {blk.divisibility = 16 : i64},
                       %stride: i32 {blk.divisibility = 16 : i64},
                       %n: i32, %row: i32) {
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 1}}
  %start = arith.muli %row, %stride : i32
  // expected-remark @+1 {{pointer divisibility = 16 bytes}}
  %p = blk.addptr %x, %start : !blk.ptr<f32>, i32
  // expected-remark @+1 {{divisibility = 1073741824, contiguity = 1024, constancy = 1}}
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1024}}
  %nb = blk.splat %n : i32 -> tensor<1024xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %m = arith.cmpi slt, %cols, %nb : tensor<1024xi32>
  // expected-remark @+1 {{vector width = 4, realignable = yes}}
  %v = blk.load %p[%cols] mask %m : !blk.ptr<f32>, tensor<1024xi32> -> tensor<1024xf32>
  return
}

// -----

// A bound divisible by 16 keeps the mask the same over runs of 16, so a
// 16-byte run of bf16 (8) is all in or all out; a base of unknown
// alignment allows no vector, and an offset block shifted by 3 keeps its
// runs but not their alignment.
func.func @bound_and_base(%x: !blk.ptr<bf16>, %n: i32 {blk.divisibility = 16 : i64}) {
  // expected-remark @+1 {{divisibility = 1073741824, contiguity = 512, constancy = 1}}
  %cols = blk.arange 0 to 512 : tensor<512xi32>
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 512}}
  %nb = blk.splat %n : i32 -> tensor<512xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 16}}
  %m = arith.cmpi slt, %cols, %nb : tensor<512xi32>
  // expected-remark @+1 {{vector width = 1, realignable = yes}}
  %v = blk.load %x[%cols] mask %m : !blk.ptr<bf16>, tensor<512xi32> -> tensor<512xbf16>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 512}}
  %three = arith.constant dense<3> : tensor<512xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 512, constancy = 1}}
  %shifted = arith.addi %cols, %three : tensor<512xi32>
  // expected-remark @+1 {{vector width = 1, realignable = yes}}
  blk.store %x[%shifted], %v : !blk.ptr<bf16>, tensor<512xi32>, tensor<512xbf16>
  return
}

// -----

// A product keeps no runs: offsets `cols * 2` read every other element.
// A comparison with `>` reads its bound on the left.
func.func @strided(%x: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 8 : i64}) {
  // expected-remark @+1 {{divisibility = 1073741824, contiguity = 256, constancy = 1}}
  %cols = blk.arange 0 to 256 : tensor<256xi32>
  // expected-remark @+1 {{divisibility = 2, contiguity = 1, constancy = 256}}
  %two = arith.constant dense<2> : tensor<256xi32>
  // expected-remark @+1 {{divisibility = 2, contiguity = 1, constancy = 1}}
  %even = arith.muli %cols, %two : tensor<256xi32>
  // expected-remark @+1 {{vector width = 1, realignable = no}}
  %v = blk.load %x[%even] : !blk.ptr<f32>, tensor<256xi32> -> tensor<256xf32>
  // expected-remark @+1 {{divisibility = 8, contiguity = 1, constancy = 256}}
  %nb = blk.splat %n : i32 -> tensor<256xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 8}}
  %m = arith.cmpi sgt, %nb, %cols : tensor<256xi32>
  // expected-remark @+1 {{vector width = 4, realignable = no}}
  blk.store %x[%cols], %v mask %m : !blk.ptr<f32>, tensor<256xi32>, tensor<256xf32>
  return
}
