// Split rows: each row is cut into SPLITS parts of BLOCK columns, each part
// handled by its own program, with a combine step (the tile reduction of
// seed 004's last section, across programs).
//
// Kernel 1: program (row, part) reduces its part to a partial (m, s):
// m = max x, s = sum exp(x - m), written to scratch memory.
// Kernel 2: program (row, part) reads the row's SPLITS partials, combines
// them into M = max m and S = sum s * exp(m - M), and writes
// exp(x - M) / S for its part.
// Traffic: two reads and one write per element (like the online kernel) plus
// 2 * SPLITS values per row, but a row is spread over SPLITS programs: the
// right choice for few, very long rows (64 x 1M), where one program per row
// leaves most of the GPU idle. Programs of a row meet only through memory
// between the two kernels: combining inside one launch would need a
// thread-block cluster and distributed shared memory, which the dialect
// cannot express yet.
//
//   softmax-run softmax_split.mlir --rows 64 --cols 1048576 --check
// Launch: each kernel with n_rows * SPLITS programs (program = row * SPLITS
// + part); softmax-run picks SPLITS and BLOCK from n_cols.

// maxes[row][part], sums[row][part] = the part's (m, s)
func.func @partials(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                    %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                    %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                    %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                    %n_rows: i32 {blk.arg = #blk.arg<rows>},
                    %n_cols: i32 {blk.arg = #blk.arg<cols>},
                    %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes">},
                    %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums">})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, row_block = BLOCK, row_splits = SPLITS>} {
  %pid = blk.program_id x
  %splits = blk.constexpr SPLITS : i32
  %block = blk.constexpr BLOCK : i32
  %row = arith.divui %pid, %splits : i32
  %part = arith.remui %pid, %splits : i32
  %row_start = arith.muli %row, %in_row_stride : i32
  %part_start = arith.muli %part, %block : i32
  %start = arith.addi %row_start, %part_start : i32
  %in_part = blk.addptr %in, %start : !blk.ptr<f32>, i32

  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %firsts = blk.splat %part_start [BLOCK] : i32 -> tensor<?xi32>
  %abs_cols = arith.addi %cols, %firsts : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %abs_cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %x = blk.load %in_part[%cols] mask %in_bounds other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
  // A part with no finite value (past the row's end, or all -inf) shifts by
  // 0, so that its sum is 0 rather than exp(-inf - -inf) = NaN.
  %none = arith.cmpf oeq, %m, %ninf : f32
  %shift = arith.select %none, %zero, %m : f32
  %shift_block = blk.splat %shift [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %x, %shift_block : tensor<?xf32>
  %e = math.exp %shifted : tensor<?xf32>
  %s = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32

  // The row's partials start its line of the scratch matrices. That line
  // is reached with blk.addptr, like the rows of x: row * n_cols grows with
  // the tensor, and a scalar offset can be made 64-bit (blk-widen-offsets)
  // where an element of an offsets block stays 32-bit.
  %slot_start = arith.muli %row, %n_cols : i32
  %maxes_row = blk.addptr %maxes, %slot_start : !blk.ptr<f32>, i32
  %sums_row = blk.addptr %sums, %slot_start : !blk.ptr<f32>, i32
  %at_part = blk.splat %part : i32 -> tensor<1xi32>
  %m1 = blk.splat %m : f32 -> tensor<1xf32>
  %s1 = blk.splat %s : f32 -> tensor<1xf32>
  blk.store %maxes_row[%at_part], %m1 : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  blk.store %sums_row[%at_part], %s1 : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// y[row][part's columns] = exp(x - M) / S from the row's partials
func.func @normalize(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                     %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                     %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                     %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                     %n_rows: i32 {blk.arg = #blk.arg<rows>},
                     %n_cols: i32 {blk.arg = #blk.arg<cols>},
                     %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes">},
                     %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums">})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, row_block = BLOCK, row_splits = SPLITS>} {
  // Parts in the reverse order of kernel 1: CTAs start roughly in launch
  // order, so the parts kernel 1 read last, still in L2, are read first.
  %launched = blk.program_id x
  %programs = blk.num_programs x
  %c1 = arith.constant 1 : i32
  %last = arith.subi %programs, %c1 : i32
  %pid = arith.subi %last, %launched : i32
  %splits = blk.constexpr SPLITS : i32
  %block = blk.constexpr BLOCK : i32
  %row = arith.divui %pid, %splits : i32
  %part = arith.remui %pid, %splits : i32

  // The row's partials: M = max m, S = sum s * exp(m - M).
  %slot_start = arith.muli %row, %n_cols : i32
  %maxes_row = blk.addptr %maxes, %slot_start : !blk.ptr<f32>, i32
  %sums_row = blk.addptr %sums, %slot_start : !blk.ptr<f32>, i32
  %parts = blk.arange 0 to SPLITS : tensor<?xi32>
  %m = blk.load %maxes_row[%parts] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %s = blk.load %sums_row[%parts] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %max = blk.reduce max %m axis 0 : tensor<?xf32> -> f32
  %max_parts = blk.splat %max [SPLITS] : f32 -> tensor<?xf32>
  %part_shift = arith.subf %m, %max_parts : tensor<?xf32>
  %part_scale = math.exp %part_shift : tensor<?xf32>
  %scaled = arith.mulf %s, %part_scale : tensor<?xf32>
  %sum = blk.reduce sum %scaled axis 0 : tensor<?xf32> -> f32

  %part_start = arith.muli %part, %block : i32
  %in_row_start = arith.muli %row, %in_row_stride : i32
  %in_start = arith.addi %in_row_start, %part_start : i32
  %in_part = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
  %out_row_start = arith.muli %row, %out_row_stride : i32
  %out_start = arith.addi %out_row_start, %part_start : i32
  %out_part = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %firsts = blk.splat %part_start [BLOCK] : i32 -> tensor<?xi32>
  %abs_cols = arith.addi %cols, %firsts : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %abs_cols, %n : tensor<?xi32>
  %x = blk.load %in_part[%cols] mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %x, %max_block : tensor<?xf32>
  %e = math.exp %shifted : tensor<?xf32>
  %sum_block = blk.splat %sum [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.divf %e, %sum_block : tensor<?xf32>
  blk.store %out_part[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
