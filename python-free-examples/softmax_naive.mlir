// Naive softmax: the five steps of seed 000's `naive_softmax` (max,
// subtract, exp, sum, divide), each a kernel of its own with its result in
// global memory, as a framework runs five separate operators.
//
// softmax-run runs the kernels of a file in order, over the same grid (one
// program per row), and allocates the buffers marked `blk.scratch`: the
// k-th scratch argument of every kernel is the same buffer ("rows": one
// value per row; "matrix": n_rows x n_cols, row stride n_cols).
// Traffic per element: 5 reads and 3 writes of the M x N tensor or its
// intermediates (plus 2 per row): about 4x the fused kernel. It is here to
// be measured against, never the right choice.
//
//   softmax-run softmax_naive.mlir --rows 4096 --cols 1024 --check
// Launch: each kernel with one program per row (grid = n_rows).

// maxes[row] = max_j x[row][j]
func.func @row_max(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                   %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                   %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                   %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                   %n_rows: i32 {blk.arg = #blk.arg<rows>},
                   %n_cols: i32 {blk.arg = #blk.arg<cols>},
                   %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes", per_row>},
                   %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums", per_row>},
                   %work: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "work">})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %start = arith.muli %row, %in_row_stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %x = blk.load %in_row[%cols] mask %in_bounds other %ninf
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %max = blk.reduce max %x axis 0 : tensor<?xf32> -> f32
  %at_row = blk.splat %row : i32 -> tensor<1xi32>
  %value = blk.splat %max : f32 -> tensor<1xf32>
  blk.store %maxes[%at_row], %value : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// work[row][j] = x[row][j] - maxes[row]
func.func @subtract_max(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                        %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                        %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                        %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                        %n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>},
                        %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes", per_row>},
                        %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums", per_row>},
                        %work: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "work">})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %start = arith.muli %row, %in_row_stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %x = blk.load %in_row[%cols] mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %at_row = blk.splat %row [BLOCK] : i32 -> tensor<?xi32>
  %max = blk.load %maxes[%at_row] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %shifted = arith.subf %x, %max : tensor<?xf32>
  %work_start = arith.muli %row, %n_cols : i32
  %work_row = blk.addptr %work, %work_start : !blk.ptr<f32>, i32
  blk.store %work_row[%cols], %shifted mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

// work[row][j] = exp(work[row][j])
func.func @exponentiate(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                        %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                        %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                        %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                        %n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>},
                        %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes", per_row>},
                        %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums", per_row>},
                        %work: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "work">})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %work_start = arith.muli %row, %n_cols : i32
  %work_row = blk.addptr %work, %work_start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %z = blk.load %work_row[%cols] mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %e = math.exp %z : tensor<?xf32>
  blk.store %work_row[%cols], %e mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

// sums[row] = sum_j work[row][j]
func.func @row_sum(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                   %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                   %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                   %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                   %n_rows: i32 {blk.arg = #blk.arg<rows>},
                   %n_cols: i32 {blk.arg = #blk.arg<cols>},
                   %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes", per_row>},
                   %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums", per_row>},
                   %work: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "work">})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %work_start = arith.muli %row, %n_cols : i32
  %work_row = blk.addptr %work, %work_start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %zero = arith.constant 0.0 : f32
  %e = blk.load %work_row[%cols] mask %in_bounds other %zero
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %sum = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %at_row = blk.splat %row : i32 -> tensor<1xi32>
  %value = blk.splat %sum : f32 -> tensor<1xf32>
  blk.store %sums[%at_row], %value : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// y[row][j] = work[row][j] / sums[row]
func.func @divide(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                  %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                  %in_row_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                  %out_row_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                  %n_rows: i32 {blk.arg = #blk.arg<rows>},
                  %n_cols: i32 {blk.arg = #blk.arg<cols>},
                  %maxes: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "maxes", per_row>},
                  %sums: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "sums", per_row>},
                  %work: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "work">})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %work_start = arith.muli %row, %n_cols : i32
  %work_row = blk.addptr %work, %work_start : !blk.ptr<f32>, i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_bounds = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %e = blk.load %work_row[%cols] mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %at_row = blk.splat %row [BLOCK] : i32 -> tensor<?xi32>
  %sum = blk.load %sums[%at_row] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %y = arith.divf %e, %sum : tensor<?xf32>
  %out_start = arith.muli %row, %out_row_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  blk.store %out_row[%cols], %y mask %in_bounds
      : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
