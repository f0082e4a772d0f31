// Split rows read once: each row is cut into SPLITS parts of BLOCK columns,
// as in softmax_split, but the parts' programs meet inside one launch
// instead of between two kernels. A program reduces its part to a partial
// (m, s), writes it to scratch memory, waits at the row's counter until
// the row's SPLITS partials are written (blk.program_barrier), combines
// them into the row's (M, S) and writes its part from the registers it
// still holds: one read and one write per element, where softmax_split
// reads every element twice (two thirds of a copy at best).
//
// Programs that wait for each other must all be resident: the grid is
// persistent (as many programs as the GPU keeps at once, each walking the
// row parts with a stride of num_programs, in increasing order), and the
// runtime refuses a GPU that keeps fewer than SPLITS. Then the row with the
// lowest index not yet done always has all its parts in flight, and is
// done. GPU only: the CPU path runs programs one after another.
//
// num_stages = 2: the next part's load is issued before this part's
// meeting, so it is in flight while the program waits (f32 64 x 1048576 on
// an H100: 70.4% of a copy, 59.2% with one stage).
//
//   softmax-run softmax_split_resident.mlir --rows 64 --cols 1048576 --check
// Launch: grid = persistent, min(n_rows * SPLITS, programs resident);
// softmax-run picks SPLITS and BLOCK from n_cols.

func.func @softmax_split_resident(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">, blk.divisibility = 16 : i64},
                                  %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                                  %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                                  %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">, blk.divisibility = 16 : i64},
                                  %n_rows: i32 {blk.arg = #blk.arg<rows>},
                                  %n_cols: i32 {blk.arg = #blk.arg<cols>},
                                  %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes">},
                                  %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums">},
                                  %arrivals: !blk.ptr<i64> {blk.arg = #blk.arg<scratch "arrivals", per_row>})
    attributes {blk.kernel = #blk.kernel<num_warps = 8, grid = persistent, num_stages = 2, row_block = BLOCK, row_splits = SPLITS>} {
  %first = blk.program_id x
  %step = blk.num_programs x
  %splits = blk.constexpr SPLITS : i32
  %block = blk.constexpr BLOCK : i32
  %parts_of_rows = arith.muli %n_rows, %splits : i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %parts = blk.arange 0 to SPLITS : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32

  scf.for %item = %first to %parts_of_rows step %step : i32 {
    %row = arith.divui %item, %splits : i32
    %part = arith.remui %item, %splits : i32
    %part_start = arith.muli %part, %block : i32
    %firsts = blk.splat %part_start [BLOCK] : i32 -> tensor<?xi32>
    %abs_cols = arith.addi %cols, %firsts : tensor<?xi32>
    %in_bounds = arith.cmpi slt, %abs_cols, %n : tensor<?xi32>
    %in_row_start = arith.muli %row, %in_row_stride : i32
    %in_start = arith.addi %in_row_start, %part_start : i32
    %in_part = blk.addptr %in, %in_start : !blk.ptr<f32>, i32
    %x = blk.load %in_part[%cols] mask %in_bounds other %ninf
        : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>

    // The part's (m, s), shifted by 0 where the part has no finite value
    // (past the row's end, or all -inf), so that s is 0 rather than NaN.
    %m = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
    %none = arith.cmpf oeq, %m, %ninf : f32
    %shift = arith.select %none, %zero, %m : f32
    %shift_block = blk.splat %shift [BLOCK] : f32 -> tensor<?xf32>
    %shifted = arith.subf %x, %shift_block : tensor<?xf32>
    %e = math.exp %shifted : tensor<?xf32>
    %s = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32

    // Partials in the row's line of the scratch matrices (row * n_cols, as
    // softmax_split), then the row's other parts are waited for.
    %slot_start = arith.muli %row, %n_cols : i32
    %maxes_row = blk.addptr %maxes, %slot_start : !blk.ptr<f32>, i32
    %sums_row = blk.addptr %sums, %slot_start : !blk.ptr<f32>, i32
    %at_part = blk.splat %part : i32 -> tensor<1xi32>
    %m1 = blk.splat %m : f32 -> tensor<1xf32>
    %s1 = blk.splat %s : f32 -> tensor<1xf32>
    blk.store %maxes_row[%at_part], %m1 : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
    blk.store %sums_row[%at_part], %s1 : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
    %row_arrivals = blk.addptr %arrivals, %row : !blk.ptr<i64>, i32
    blk.program_barrier %row_arrivals, %splits : !blk.ptr<i64>, i32

    // M = max m, S = sum s * exp(m - M); the part's exp(x - shift) held
    // since becomes exp(x - M) / S with one multiplication by
    // exp(shift - M) / S: 0 for a part without a finite value in a row
    // with one (its exp(0 - M) could overflow), NaN in a row without any
    // (as softmax_split, whose S is NaN there).
    %ms = blk.load %maxes_row[%parts] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %ss = blk.load %sums_row[%parts] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
    %max = blk.reduce max %ms axis 0 : tensor<?xf32> -> f32
    %max_parts = blk.splat %max [SPLITS] : f32 -> tensor<?xf32>
    %part_shifts = arith.subf %ms, %max_parts : tensor<?xf32>
    %part_scales = math.exp %part_shifts : tensor<?xf32>
    %scaled = arith.mulf %ss, %part_scales : tensor<?xf32>
    %sum = blk.reduce sum %scaled axis 0 : tensor<?xf32> -> f32
    %own_shift = arith.subf %shift, %max : f32
    %own_scale = math.exp %own_shift : f32
    %own_ratio = arith.divf %own_scale, %sum : f32
    %row_has_finite = arith.cmpf one, %max, %ninf : f32
    %part_empty = arith.andi %none, %row_has_finite : i1
    %ratio = arith.select %part_empty, %zero, %own_ratio : f32
    %ratio_block = blk.splat %ratio [BLOCK] : f32 -> tensor<?xf32>
    %y = arith.mulf %e, %ratio_block : tensor<?xf32>
    %out_row_start = arith.muli %row, %out_row_stride : i32
    %out_start = arith.addi %out_row_start, %part_start : i32
    %out_part = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
    blk.store %out_part[%cols], %y mask %in_bounds
        : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  }
  return
}
