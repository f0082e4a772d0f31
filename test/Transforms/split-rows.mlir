// RUN: softmax-opt %s -split-input-file --blk-split-rows | FileCheck %s

// A row's max and its sum of exp(x - max): the part's pair (its sum
// against its own max) meets the row's other parts once, at the row's
// counter; the row's max and sum replace the program's; the program's row
// and columns are the part's; a block of one (a label) is not met for.
// CHECK-LABEL: func.func @row_max_and_sum
// CHECK-SAME: %[[P:[a-z0-9]+]]: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "row_partials_f32">, blk.keep_f32}
// CHECK-SAME: %[[A:[a-z0-9]+]]: !blk.ptr<i64> {blk.arg = #blk.arg<scratch "row_arrivals", per_row>}
// CHECK-SAME: blk.kernel = #blk.kernel<num_warps = 4, grid = persistent, num_stages = 2, row_block = BLOCK, row_splits = SPLITS>
// CHECK: %[[FIRST:.*]] = blk.program_id x
// CHECK: %[[STEP:.*]] = blk.num_programs x
// CHECK: %[[SPLITS:.*]] = blk.constexpr SPLITS : i32
// CHECK: %[[BLOCK:.*]] = blk.constexpr BLOCK : i32
// CHECK: %[[ITEMS:.*]] = arith.muli %{{.*}}, %[[SPLITS]] : i32
// CHECK: scf.for %[[ITEM:.*]] = %[[FIRST]] to %[[ITEMS]] step %[[STEP]] : i32 {
// CHECK: %[[ROW:.*]] = arith.divui %[[ITEM]], %[[SPLITS]]
// CHECK: %[[PART:.*]] = arith.remui %[[ITEM]], %[[SPLITS]]
// CHECK: %[[FIRST_COL:.*]] = arith.muli %[[PART]], %[[BLOCK]]
// CHECK: %[[ARANGE:.*]] = blk.arange 0 to BLOCK
// CHECK: %[[FIRSTS:.*]] = blk.splat %[[FIRST_COL]] [BLOCK]
// CHECK: %[[COLS:.*]] = arith.addi %[[ARANGE]], %[[FIRSTS]]
// CHECK: arith.cmpi slt, %[[COLS]]
// CHECK: blk.reduce sum %{{.*}} : tensor<1xi64> -> i64
// CHECK: %[[X:.*]] = blk.load %{{.*}}[%[[COLS]]]
// CHECK: %[[M0:.*]] = blk.reduce max %[[X]] axis 0
// CHECK: %[[NONE:.*]] = arith.cmpf oeq, %[[M0]]
// CHECK: %[[SHIFT:.*]] = arith.select %[[NONE]], %{{.*}}, %[[M0]]
// CHECK: %[[SHIFTS:.*]] = blk.splat %[[SHIFT]] [BLOCK]
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[SHIFTS]]
// CHECK: %[[E0:.*]] = math.exp %[[D]]
// CHECK: %[[S0:.*]] = blk.reduce sum %[[E0]] axis 0
// CHECK: %[[MAX_SLOT:.*]] = blk.addptr %[[P]]
// CHECK: %[[SUM_SLOT:.*]] = blk.addptr %[[MAX_SLOT]], %[[SPLITS]]
// CHECK: %[[AT:.*]] = blk.splat %[[PART]] : i32 -> tensor<1xi32>
// CHECK: %[[M0B:.*]] = blk.splat %[[M0]] : f32 -> tensor<1xf32>
// CHECK: blk.store %[[MAX_SLOT]][%[[AT]]], %[[M0B]]
// CHECK: %[[S0B:.*]] = blk.splat %[[S0]] : f32 -> tensor<1xf32>
// CHECK: blk.store %[[SUM_SLOT]][%{{.*}}], %[[S0B]]
// CHECK: %[[COUNTER:.*]] = blk.addptr %[[A]], %[[ROW]]
// CHECK: blk.program_barrier %[[COUNTER]], %[[SPLITS]]
// CHECK: %[[MS:.*]] = blk.load %[[MAX_SLOT]][%{{.*}}]
// CHECK: %[[SS:.*]] = blk.load %[[SUM_SLOT]][%{{.*}}]
// CHECK: %[[M:.*]] = blk.reduce max %[[MS]] axis 0
// CHECK: %[[MB:.*]] = blk.splat %[[M]] [SPLITS]
// CHECK: %[[SCALES:.*]] = math.exp
// CHECK: %[[SCALED:.*]] = arith.mulf %[[SS]], %[[SCALES]]
// CHECK: %[[EMPTY:.*]] = arith.cmpf oeq, %[[MS]]
// CHECK: %[[COUNTED:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[SCALED]]
// CHECK: %[[S1:.*]] = blk.reduce sum %[[COUNTED]] axis 0
// CHECK: %[[NOTHING:.*]] = arith.cmpf oeq, %[[M]]
// CHECK: %[[S:.*]] = arith.select %[[NOTHING]], %{{.*}}, %[[S1]]
// CHECK-NOT: blk.program_barrier
// CHECK: %[[MBLOCK:.*]] = blk.splat %[[M]] [BLOCK]
// CHECK: %[[SHIFTED:.*]] = arith.subf %[[X]], %[[MBLOCK]]
// CHECK: %[[E:.*]] = math.exp %[[SHIFTED]]
// CHECK: %[[SBLOCK:.*]] = blk.splat %[[S]] [BLOCK]
// CHECK: arith.divf %[[E]], %[[SBLOCK]]
// CHECK: blk.store
// CHECK: }
// CHECK-NEXT: return
func.func @row_max_and_sum(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                           %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                           %labels: !blk.ptr<i64> {blk.arg = #blk.arg<input "labels", per_row>},
                           %stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                           %n_rows: i32 {blk.arg = #blk.arg<rows>},
                           %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %label_block = blk.load %labels[%here] : !blk.ptr<i64>, tensor<1xi32> -> tensor<1xi64>
  %label = blk.reduce sum %label_block axis 0 : tensor<1xi64> -> i64
  %start = arith.muli %row, %stride : i32
  %row_in = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %ninf = arith.constant 0xFF800000 : f32
  %x = blk.load %row_in[%cols] mask %in_bounds other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %max = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
  %max_block = blk.splat %max [BLOCK] : f32 -> tensor<?xf32>
  %shifted = arith.subf %x, %max_block : tensor<?xf32>
  %e = math.exp %shifted : tensor<?xf32>
  %sum = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %sum_block = blk.splat %sum [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.divf %e, %sum_block : tensor<?xf32>
  %row_out = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %row_out[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

// -----

// Names already taken get fresh ones; an integer reduction meets in its own
// scratch matrix.
// CHECK-LABEL: func.func @names_taken
// CHECK-SAME: #blk.arg<scratch "row_arrivals">
// CHECK-SAME: #blk.arg<scratch "row_partials_i32">
// CHECK-SAME: #blk.arg<scratch "row_arrivals_1", per_row>
// CHECK-SAME: row_splits = SPLITS_1
// CHECK: blk.constexpr SPLITS_1 : i32
// CHECK: blk.reduce max %{{.*}} : tensor<?xi32> -> i32
// CHECK: blk.arange 0 to SPLITS_1
func.func @names_taken(%out: !blk.ptr<i32> {blk.arg = #blk.arg<output "y", per_row>},
                       %in: !blk.ptr<i32> {blk.arg = #blk.arg<input "x">},
                       %taken: !blk.ptr<i64> {blk.arg = #blk.arg<scratch "row_arrivals">},
                       %n_rows: i32 {blk.arg = #blk.arg<rows>},
                       %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %unused = blk.constexpr SPLITS : i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %start = arith.muli %row, %n_cols : i32
  %row_in = blk.addptr %in, %start : !blk.ptr<i32>, i32
  %low = arith.constant -2147483648 : i32
  %x = blk.load %row_in[%cols] mask %in_bounds other %low
      : !blk.ptr<i32>, tensor<?xi32> -> tensor<?xi32>
  %max = blk.reduce max %x axis 0 : tensor<?xi32> -> i32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %max_one = blk.splat %max [1] : i32 -> tensor<1xi32>
  blk.store %out[%here], %max_one : !blk.ptr<i32>, tensor<1xi32>, tensor<1xi32>
  return
}

// -----

// A sum and its squares about the mean (layer_norm's): one meeting, for
// the part's sum, its count of columns below n_cols (no reduction: the
// mask is the bounds check, taken before the sum) and its squares about
// its own mean (sum / count); the row's sum and the parts' squares merged
// as Chan's replace the program's.
// CHECK-LABEL: func.func @mean_and_squares
// CHECK: %[[PART:.*]] = arith.remui
// CHECK: %[[FIRST_COL:.*]] = arith.muli %[[PART]], %{{.*}} : i32
// CHECK: %[[X:.*]] = blk.load %{{.*}} mask %[[MASK:[^ ]+]] other
// CHECK: %[[BELOW:.*]] = arith.subi %{{.*}}, %[[FIRST_COL]] : i32
// CHECK: %[[LOW:.*]] = arith.maxsi %[[BELOW]]
// CHECK: %[[LANES:.*]] = arith.minsi %[[LOW]]
// CHECK: %[[C0:.*]] = arith.sitofp %[[LANES]] : i32 to f32
// CHECK: %[[S0:.*]] = blk.reduce sum %[[X]] axis 0
// CHECK: %[[MEAN0:.*]] = arith.divf %[[S0]], %[[C0]] : f32
// CHECK: %[[MEANS0:.*]] = blk.splat %[[MEAN0]] [BLOCK]
// CHECK: %[[D0:.*]] = arith.subf %[[X]], %[[MEANS0]]
// CHECK: %[[CD0:.*]] = arith.select %[[MASK]], %[[D0]]
// CHECK: %[[SQ0:.*]] = arith.mulf %[[CD0]], %[[CD0]]
// CHECK: %[[Q0:.*]] = blk.reduce sum %[[SQ0]] axis 0
// CHECK: blk.program_barrier
// CHECK-NOT: blk.program_barrier
// CHECK: %[[SUMS:.*]] = blk.load
// CHECK: %[[COUNTS:.*]] = blk.load
// CHECK: %[[QS:.*]] = blk.load
// CHECK: %[[S:.*]] = blk.reduce sum %[[SUMS]] axis 0
// CHECK: %[[MEAN:.*]] = arith.divf %[[S]], %[[N:.*]] : f32
// CHECK: %[[PART_MEANS:.*]] = arith.divf %[[SUMS]], %[[COUNTS]]
// CHECK: %[[OFFSETS:.*]] = arith.subf %[[PART_MEANS]]
// CHECK: %[[OFF2:.*]] = arith.mulf %[[OFFSETS]], %[[OFFSETS]]
// CHECK: %[[SHIFTS:.*]] = arith.mulf %[[COUNTS]], %[[OFF2]]
// CHECK: %[[TERMS:.*]] = arith.addf %[[QS]], %[[SHIFTS]]
// CHECK: %[[KEPT:.*]] = arith.select %{{.*}}, %[[TERMS]]
// CHECK: %[[Q:.*]] = blk.reduce sum %[[KEPT]] axis 0
// CHECK-NOT: blk.reduce
// CHECK: arith.divf %[[S]], %[[N]]
// CHECK: arith.divf %[[Q]], %[[N]]
func.func @mean_and_squares(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                            %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                            %n_rows: i32 {blk.arg = #blk.arg<rows>},
                            %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %n_float = arith.sitofp %n_cols : i32 to f32
  %start = arith.muli %row, %n_cols : i32
  %row_in = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %x = blk.load %row_in[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sum = blk.reduce sum %x axis 0 : tensor<?xf32> -> f32
  %mean = arith.divf %sum, %n_float : f32
  %means = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>
  %difference = arith.subf %x, %means : tensor<?xf32>
  %centered = arith.select %in_bounds, %difference, %zeros
      : tensor<?xi1>, tensor<?xf32>
  %squares = arith.mulf %centered, %centered : tensor<?xf32>
  %square_sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %variance = arith.divf %square_sum, %n_float : f32
  %variances = blk.splat %variance [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.mulf %centered, %variances : tensor<?xf32>
  %row_out = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %row_out[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

// -----

// Without the select every lane counts: the part's count is its length.
// With a mask that is not the bounds check, the count is reduced. A select
// whose other value is not 0 is not the pattern: two meetings.
// CHECK-LABEL: func.func @every_lane_counts
// CHECK: blk.load
// CHECK: %[[LANES:.*]] = blk.constexpr BLOCK : i32
// CHECK: arith.sitofp %[[LANES]] : i32 to f32
// CHECK: blk.reduce sum
// CHECK: blk.program_barrier
// CHECK-NOT: blk.program_barrier
// CHECK-LABEL: func.func @counted_by_a_reduction
// CHECK: %[[ONES:.*]] = arith.select %{{.*}} : tensor<?xi1>, tensor<?xf32>
// CHECK: blk.reduce sum %[[ONES]]
// CHECK: blk.reduce sum
// CHECK: blk.program_barrier
// CHECK-NOT: blk.program_barrier
// CHECK-LABEL: func.func @not_centered_on_zero
// CHECK: blk.program_barrier
// CHECK: blk.program_barrier
func.func @every_lane_counts(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y", per_row>},
                             %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                             %n_rows: i32 {blk.arg = #blk.arg<rows>},
                             %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n_float = arith.sitofp %n_cols : i32 to f32
  %start = arith.muli %row, %n_cols : i32
  %row_in = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %x = blk.load %row_in[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sum = blk.reduce sum %x axis 0 : tensor<?xf32> -> f32
  %mean = arith.divf %sum, %n_float : f32
  %means = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>
  %difference = arith.subf %x, %means : tensor<?xf32>
  %squares = arith.mulf %difference, %difference : tensor<?xf32>
  %square_sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %at = blk.splat %row : i32 -> tensor<1xi32>
  %result = blk.splat %square_sum : f32 -> tensor<1xf32>
  blk.store %out[%at], %result : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
func.func @counted_by_a_reduction(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y", per_row>},
                                  %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                                  %n_rows: i32 {blk.arg = #blk.arg<rows>},
                                  %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %n_float = arith.sitofp %n_cols : i32 to f32
  %start = arith.muli %row, %n_cols : i32
  %row_in = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %raw = blk.load %row_in[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %positive = arith.cmpf ogt, %raw, %zeros : tensor<?xf32>
  %x = blk.load %row_in[%cols] mask %positive other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sum = blk.reduce sum %x axis 0 : tensor<?xf32> -> f32
  %mean = arith.divf %sum, %n_float : f32
  %means = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>
  %difference = arith.subf %x, %means : tensor<?xf32>
  %centered = arith.select %positive, %difference, %zeros
      : tensor<?xi1>, tensor<?xf32>
  %squares = arith.mulf %centered, %centered : tensor<?xf32>
  %square_sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %at = blk.splat %row : i32 -> tensor<1xi32>
  %result = blk.splat %square_sum : f32 -> tensor<1xf32>
  blk.store %out[%at], %result : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
func.func @not_centered_on_zero(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y", per_row>},
                                %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                                %n_rows: i32 {blk.arg = #blk.arg<rows>},
                                %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ones = blk.splat %one [BLOCK] : f32 -> tensor<?xf32>
  %n_float = arith.sitofp %n_cols : i32 to f32
  %start = arith.muli %row, %n_cols : i32
  %row_in = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %x = blk.load %row_in[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sum = blk.reduce sum %x axis 0 : tensor<?xf32> -> f32
  %mean = arith.divf %sum, %n_float : f32
  %means = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>
  %difference = arith.subf %x, %means : tensor<?xf32>
  %centered = arith.select %in_bounds, %difference, %ones
      : tensor<?xi1>, tensor<?xf32>
  %squares = arith.mulf %centered, %centered : tensor<?xf32>
  %square_sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %at = blk.splat %row : i32 -> tensor<1xi32>
  %result = blk.splat %square_sum : f32 -> tensor<1xf32>
  blk.store %out[%at], %result : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// Patterns whose sum another meeting replaces first meet alone: the
// squares of a row's squares (the second pattern's sum is the first's
// squares), and squares about the mean of exps (the sum is a max's sum of
// exps, met as a pair). Each ends in its own meeting.
// CHECK-LABEL: func.func @chained_squares
// CHECK: blk.program_barrier
// CHECK: blk.reduce sum
// CHECK: blk.program_barrier
// CHECK: blk.store
// CHECK-LABEL: func.func @squares_of_exps
// CHECK: blk.program_barrier
// CHECK: blk.reduce sum
// CHECK: blk.program_barrier
// CHECK: blk.store
func.func @chained_squares(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "q2", per_row>},
                           %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                           %stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                           %n_rows: i32 {blk.arg = #blk.arg<rows>},
                           %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %nf = arith.sitofp %n_cols : i32 to f32
  %start = arith.muli %row, %stride : i32
  %p = blk.addptr %x, %start : !blk.ptr<f32>, i32
  %xb = blk.load %p[%cols] mask %mask other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %s = blk.reduce sum %xb axis 0 : tensor<?xf32> -> f32
  %m = arith.divf %s, %nf : f32
  %mb = blk.splat %m [BLOCK] : f32 -> tensor<?xf32>
  %d = arith.subf %xb, %mb : tensor<?xf32>
  %c = arith.select %mask, %d, %zeros : tensor<?xi1>, tensor<?xf32>
  %sq = arith.mulf %c, %c : tensor<?xf32>
  %q = blk.reduce sum %sq axis 0 : tensor<?xf32> -> f32
  %m2 = arith.divf %q, %nf : f32
  %m2b = blk.splat %m2 [BLOCK] : f32 -> tensor<?xf32>
  %d2 = arith.subf %sq, %m2b : tensor<?xf32>
  %sq2 = arith.mulf %d2, %d2 : tensor<?xf32>
  %q2 = blk.reduce sum %sq2 axis 0 : tensor<?xf32> -> f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %v = blk.splat %q2 [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %v : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
func.func @squares_of_exps(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "q2", per_row>},
                           %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">, blk.divisibility = 16 : i64},
                           %stride: i32 {blk.arg = #blk.arg<row_stride "x">, blk.divisibility = 16 : i64},
                           %n_rows: i32 {blk.arg = #blk.arg<rows>},
                           %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %zeros = blk.splat %zero [BLOCK] : f32 -> tensor<?xf32>
  %nf = arith.sitofp %n_cols : i32 to f32
  %start = arith.muli %row, %stride : i32
  %p = blk.addptr %x, %start : !blk.ptr<f32>, i32
  %xb = blk.load %p[%cols] mask %mask other %ninf : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %mx = blk.reduce max %xb axis 0 : tensor<?xf32> -> f32
  %mxb = blk.splat %mx [BLOCK] : f32 -> tensor<?xf32>
  %sh = arith.subf %xb, %mxb : tensor<?xf32>
  %e = math.exp %sh : tensor<?xf32>
  %s = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %m = arith.divf %s, %nf : f32
  %mb = blk.splat %m [BLOCK] : f32 -> tensor<?xf32>
  %d = arith.subf %e, %mb : tensor<?xf32>
  %sq = arith.mulf %d, %d : tensor<?xf32>
  %q2 = blk.reduce sum %sq axis 0 : tensor<?xf32> -> f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %v = blk.splat %q2 [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %v : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// A sum alone: its partial meets the row's other parts, and the row's sum
// replaces it.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK: %[[S0:.*]] = blk.reduce sum %{{.*}} axis 0 : tensor<?xf32> -> f32
// CHECK: %[[SLOT:.*]] = blk.addptr
// CHECK: %[[S0B:.*]] = blk.splat %[[S0]] : f32 -> tensor<1xf32>
// CHECK: blk.store %[[SLOT]][%{{.*}}], %[[S0B]]
// CHECK: blk.program_barrier
// CHECK: %[[PARTS:.*]] = blk.arange 0 to SPLITS
// CHECK: %[[SS:.*]] = blk.load %[[SLOT]][%[[PARTS]]]
// CHECK: %[[S:.*]] = blk.reduce sum %[[SS]] axis 0
// CHECK: arith.divf %[[S]]
func.func @sum_of_squares(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                          %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                          %n_rows: i32 {blk.arg = #blk.arg<rows>},
                          %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %start = arith.muli %row, %n_cols : i32
  %row_in = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %zero = arith.constant 0.0 : f32
  %x = blk.load %row_in[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %squares = arith.mulf %x, %x : tensor<?xf32>
  %sum = blk.reduce sum %squares axis 0 : tensor<?xf32> -> f32
  %n_float = arith.sitofp %n_cols : i32 to f32
  %mean = arith.divf %sum, %n_float : f32
  %means = blk.splat %mean [BLOCK] : f32 -> tensor<?xf32>
  %y = arith.mulf %x, %means : tensor<?xf32>
  %row_out = blk.addptr %out, %start : !blk.ptr<f32>, i32
  blk.store %row_out[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

// -----

// Names are the module's: one kernel's own "row_arrivals" tensor and SPLITS
// constant keep both kernels off them, and both take the same fresh ones.
// CHECK-LABEL: func.func @takes_the_names
// CHECK-SAME: #blk.arg<scratch "row_arrivals_1", per_row>
// CHECK-SAME: row_splits = SPLITS_1
// CHECK-LABEL: func.func @plain
// CHECK-SAME: #blk.arg<scratch "row_partials_f32">
// CHECK-SAME: #blk.arg<scratch "row_arrivals_1", per_row>
// CHECK-SAME: row_splits = SPLITS_1
func.func @takes_the_names(%in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                           %own: !blk.ptr<i64> {blk.arg = #blk.arg<scratch "row_arrivals", per_row>},
                           %n_rows: i32 {blk.arg = #blk.arg<rows>},
                           %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %unused = blk.constexpr SPLITS : i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %s = blk.reduce sum %cols axis 0 : tensor<?xi32> -> i32
  return
}
func.func @plain(%in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                 %n_rows: i32 {blk.arg = #blk.arg<rows>},
                 %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %zero = arith.constant 0.0 : f32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %inside = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %x = blk.load %in[%cols] mask %inside other %zero : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %s = blk.reduce sum %x axis 0 : tensor<?xf32> -> f32
  return
}
