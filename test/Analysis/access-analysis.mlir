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

// -----

// K^T read from K's rows (element (d, j) at j * stride + d): along the rows
// one element at a time, down the columns runs of 8 bf16 (16 bytes): the
// column index d is consecutive, and each row of K starts at a multiple of
// the stride's 16. The mask on j is the same down each column; one on d
// whose start k0 is unknown may change within a run down them. (Along the
// rows, the facts above: a column of d is one element a row.)
func.func @transposed_tile(%k: !blk.ptr<bf16> {blk.divisibility = 16 : i64},
                           %stride: i32 {blk.divisibility = 16 : i64},
                           %n: i32 {blk.divisibility = 16 : i64}, %k0: i32,
                           %k1: i32 {blk.divisibility = 16 : i64}) {
  // expected-remark @+1 {{divisibility = 1073741824, contiguity = 64, constancy = 1}}
  %ds = blk.arange 0 to 64 : tensor<64xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %d_col = blk.expand_dims %ds axis 1 : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 32}}
  %d2 = blk.broadcast %d_col [64, 32] : tensor<64x1xi32> -> tensor<64x32xi32>
  // expected-remark @+1 {{divisibility = 1073741824, contiguity = 32, constancy = 1}}
  %js = blk.arange 0 to 32 : tensor<32xi32>
  // expected-remark @+1 {{divisibility = 1073741824, contiguity = 32, constancy = 1}}
  %j_row = blk.expand_dims %js axis 0 : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 32}}
  %s = blk.splat %stride : i32 -> tensor<1x32xi32>
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 1}}
  %starts = arith.muli %j_row, %s : tensor<1x32xi32>
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 1}}
  %starts2 = blk.broadcast %starts [64, 32] : tensor<1x32xi32> -> tensor<64x32xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %offsets = arith.addi %starts2, %d2 : tensor<64x32xi32>
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 32}}
  %n_row = blk.splat %n : i32 -> tensor<1x32xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 16}}
  %j_ok = arith.cmpi slt, %j_row, %n_row : tensor<1x32xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 16}}
  %j_mask = blk.broadcast %j_ok [64, 32] : tensor<1x32xi1> -> tensor<64x32xi1>
  // expected-remark @+1 {{vector width = 1, realignable = no; down columns: vector width = 8, mask whole = yes}}
  %kt = blk.load %k[%offsets] mask %j_mask : !blk.ptr<bf16>, tensor<64x32xi32> -> tensor<64x32xbf16>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %k0_col = blk.splat %k0 : i32 -> tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %d_abs = arith.addi %d_col, %k0_col : tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 1}}
  %n_col = blk.splat %n : i32 -> tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %d_ok = arith.cmpi slt, %d_abs, %n_col : tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 32}}
  %d_mask = blk.broadcast %d_ok [64, 32] : tensor<64x1xi1> -> tensor<64x32xi1>
  // A start k0 of unknown divisibility: K's rows are read at k0 + d, whose
  // runs down a column may straddle a multiple of n.
  // expected-remark @+1 {{down columns: vector width = 8, mask whole = no}}
  %kt2 = blk.load %k[%offsets] mask %d_mask : !blk.ptr<bf16>, tensor<64x32xi32> -> tensor<64x32xbf16>
  // A start divisible by 16 (a K loop's k0): the mask is the same over runs
  // of 16 down the columns.
  // expected-remark @+1 {{divisibility = 16, contiguity = 1, constancy = 1}}
  %k1_col = blk.splat %k1 : i32 -> tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %d1_abs = arith.addi %d_col, %k1_col : tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 1}}
  %d1_ok = arith.cmpi slt, %d1_abs, %n_col : tensor<64x1xi32>
  // expected-remark @+1 {{divisibility = 1, contiguity = 1, constancy = 32}}
  %d1_mask = blk.broadcast %d1_ok [64, 32] : tensor<64x1xi1> -> tensor<64x32xi1>
  // expected-remark @+1 {{down columns: vector width = 8, mask whole = yes}}
  %kt3 = blk.load %k[%offsets] mask %d1_mask : !blk.ptr<bf16>, tensor<64x32xi32> -> tensor<64x32xbf16>
  return
}
