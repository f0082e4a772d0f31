// tanh, erf, powf, absf and sqrt, each into an output of its own:
// t = tanh(x), e = erf(x), p = x^q, s = sqrt(|x|). The GPU lowers them without libdevice
// (lib/Conversion/BlkToGPU/MathOps.cpp); --check compares every output with
// the program run in float64. Random inputs cover negative bases with
// non-integer exponents (NaN in both), --special adds +-inf, NaN and values
// near the float limits.
func.func @math_functions(%t: !blk.ptr<f32> {blk.arg = #blk.arg<output "t">},
                          %e: !blk.ptr<f32> {blk.arg = #blk.arg<output "e">},
                          %p: !blk.ptr<f32> {blk.arg = #blk.arg<output "p">},
                          %s: !blk.ptr<f32> {blk.arg = #blk.arg<output "s">},
                          %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                          %q: !blk.ptr<f32> {blk.arg = #blk.arg<input "q">},
                          %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %in_row = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %start = arith.muli %row, %n_cols : i32
  %x_row = blk.addptr %x, %start : !blk.ptr<f32>, i32
  %q_row = blk.addptr %q, %start : !blk.ptr<f32>, i32
  %xs = blk.load %x_row[%cols] mask %in_row : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %qs = blk.load %q_row[%cols] mask %in_row : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %tanh = math.tanh %xs : tensor<?xf32>
  %erf = math.erf %xs : tensor<?xf32>
  %pow = math.powf %xs, %qs : tensor<?xf32>
  %abs = math.absf %xs : tensor<?xf32>
  %sqrt = math.sqrt %abs : tensor<?xf32>
  %t_row = blk.addptr %t, %start : !blk.ptr<f32>, i32
  %e_row = blk.addptr %e, %start : !blk.ptr<f32>, i32
  %p_row = blk.addptr %p, %start : !blk.ptr<f32>, i32
  blk.store %t_row[%cols], %tanh mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  blk.store %e_row[%cols], %erf mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  blk.store %p_row[%cols], %pow mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  %s_row = blk.addptr %s, %start : !blk.ptr<f32>, i32
  blk.store %s_row[%cols], %sqrt mask %in_row : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}
