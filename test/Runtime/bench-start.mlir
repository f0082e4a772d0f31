// --bench on the CPU: the timed runs (no bounds checks) start where the
// checked run did, outputs poisoned again, so a kernel whose accesses
// depend on its own output makes the checked run's accesses (from what an
// earlier run left, this one read 2^28 floats past its row and segfaulted).
// RUN: softmax-run %s --target cpu --rows 4 --cols 8 --bench | FileCheck %s
// CHECK: bench: {{.*}} of a host copy

// The row's first input element is read at an offset that depends on what
// the kernel's own output held: poisoned (NaN: a fresh run) 0, else 2^28, far
// past the input. Each run writes the output.
func.func @reads_own_output(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                            %out_stride: i32 {blk.arg = #blk.arg<row_stride "y">},
                            %in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                            %in_stride: i32 {blk.arg = #blk.arg<row_stride "x">},
                            %n_rows: i32 {blk.arg = #blk.arg<rows>},
                            %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 1>} {
  %row = blk.program_id x
  %first = blk.arange 0 to 1 : tensor<1xi32>
  %out_start = arith.muli %row, %out_stride : i32
  %out_row = blk.addptr %out, %out_start : !blk.ptr<f32>, i32
  %at = arith.addi %first, %first : tensor<1xi32>
  %seen = blk.load %out_row[%at] : !blk.ptr<f32>, tensor<1xi32> -> tensor<1xf32>
  %fresh = arith.cmpf uno, %seen, %seen : tensor<1xf32>
  %zero = arith.constant dense<0> : tensor<1xi32>
  %far = arith.constant dense<268435456> : tensor<1xi32>
  %offset = arith.select %fresh, %zero, %far : tensor<1xi1>, tensor<1xi32>
  %start = arith.muli %row, %in_stride : i32
  %in_row = blk.addptr %in, %start : !blk.ptr<f32>, i32
  %v = blk.load %in_row[%offset] : !blk.ptr<f32>, tensor<1xi32> -> tensor<1xf32>
  blk.store %out_row[%at], %v : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
