// Every verifier message of the blk dialect, one case per split.
// RUN: softmax-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{pointer element type must be f32, f16, bf16, i32 or i64, but got 'i8'}}
func.func private @bad_pointee(!blk.ptr<i8>)

// -----

// expected-error @+1 {{num_warps must be a power of two from 1 to 32, but got 3}}
func.func @bad_warps() attributes {blk.kernel = #blk.kernel<num_warps = 3>} {
  return
}

// -----

// expected-error @+1 {{num_warps must be a power of two from 1 to 32, but got 64}}
func.func @too_many_warps() attributes {blk.kernel = #blk.kernel<num_warps = 64>} {
  return
}

// -----

// expected-error @+1 {{'blk.kernel' must be a #blk.kernel<...> attribute, but got 4 : i64}}
func.func @kernel_not_attr() attributes {blk.kernel = 4} {
  return
}

// -----

// expected-error @+1 {{'blk.warps' is not an operation attribute of the blk dialect (expected 'blk.kernel', 'blk.launch', 'blk.target', 'blk.tensor_map_params' on a function, 'blk.vector', 'blk.realign', 'blk.fallback', or 'blk.access' on a load or store and 'blk.accesses' on a module)}}
func.func @unknown_op_attr() attributes {blk.warps = 4} {
  return
}

// -----

// expected-error @+1 {{'blk.kernel' applies to func.func, not to 'builtin.module'}}
module attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
}

// -----

// expected-error @+1 {{a kernel returns nothing, but @returns_value returns 1 value(s)}}
func.func @returns_value(%x: i32) -> i32 attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return %x : i32
}

// -----

// expected-error @+1 {{kernel argument #1 has type 'tensor<4xf32>'; kernels take !blk.ptr pointers, !blk.tensor_map descriptors and scalars}}
func.func @tensor_argument(%p: !blk.ptr<f32>, %t: tensor<4xf32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{'blk.align' is not an argument attribute of the blk dialect (expected 'blk.divisibility', 'blk.arg' or 'blk.keep_f32')}}
func.func private @unknown_arg_attr(!blk.ptr<f32> {blk.align = 16})

// -----

// expected-error @+1 {{blk.divisibility of argument #0 must be a positive power of two, but got 12 : i64}}
func.func private @bad_divisibility(!blk.ptr<f32> {blk.divisibility = 12 : i64})

// -----

// expected-error @+1 {{blk.divisibility applies to pointer and integer arguments, but argument #0 has type 'f32'}}
func.func private @divisibility_on_float(f32 {blk.divisibility = 16 : i64})

// -----

// expected-error @+1 {{blk.keep_f32 is a unit attribute of a !blk.ptr<f32> argument, but argument #0 has type '!blk.ptr<i32>' and the attribute unit}}
func.func private @keep_f32_on_integers(!blk.ptr<i32> {blk.keep_f32})

// -----

// expected-error @+1 {{blk.keep_f32 is a unit attribute of a !blk.ptr<f32> argument, but argument #0 has type '!blk.ptr<f32>' and the attribute true}}
func.func private @keep_f32_not_unit(!blk.ptr<f32> {blk.keep_f32 = true})

// -----

func.func @constexpr_name() {
  // expected-error @+1 {{constant name '2x' is not an identifier}}
  %0 = "blk.constexpr"() {name = "2x"} : () -> i32
  return
}

// -----

func.func @arange_rank() {
  // expected-error @+1 {{result must be a 1-D block, but has rank 2}}
  %0 = blk.arange 0 to 4 : tensor<2x2xi32>
  return
}

// -----

func.func @arange_symbolic_start() {
  // expected-error @+1 {{a range ending at constant 'BLOCK' must start at 0, but starts at 4}}
  %0 = blk.arange 4 to BLOCK : tensor<?xi32>
  return
}

// -----

func.func @arange_symbolic_static() {
  // expected-error @+1 {{result dimension must be '?' until 'BLOCK' is bound, but got 1024}}
  %0 = blk.arange 0 to BLOCK : tensor<1024xi32>
  return
}

// -----

func.func @arange_empty() {
  // expected-error @+1 {{range [8, 8) is empty}}
  %0 = blk.arange 8 to 8 : tensor<0xi32>
  return
}

// -----

func.func @arange_wrong_size() {
  // expected-error @+1 {{result has 512 elements but the range [0, 1024) has 1024}}
  %0 = blk.arange 0 to 1024 : tensor<512xi32>
  return
}

// -----

func.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{result element type 'f16' does not match the splatted value's type 'f32'}}
  %0 = blk.splat %x : f32 -> tensor<4xf16>
  return
}

// -----

func.func @splat_unnamed_dynamic(%x: f32) {
  // expected-error @+1 {{result shape 4x? has dynamic dimensions; name the compile-time constants that fix them in a shape list, e.g. [BLOCK]}}
  %0 = blk.splat %x : f32 -> tensor<4x?xf32>
  return
}

// -----

func.func @splat_shape_rank(%x: f32) {
  // expected-error @+1 {{shape list has 1 entries but the result has rank 2}}
  %0 = blk.splat %x [BLOCK] : f32 -> tensor<4x?xf32>
  return
}

// -----

func.func @splat_shape_not_positive(%x: f32) {
  // expected-error @+1 {{shape entry #0 must be positive, but got 0}}
  %0 = blk.splat %x [0, BLOCK] : f32 -> tensor<0x?xf32>
  return
}

// -----

func.func @splat_shape_mismatch(%x: f32) {
  // expected-error @+1 {{shape entry #0 is 8 but the result dimension is 4}}
  %0 = blk.splat %x [8, BLOCK] : f32 -> tensor<4x?xf32>
  return
}

// -----

func.func @splat_shape_entry_kind(%x: f32) {
  // expected-error @+1 {{shape entry #0 must be an integer or a constant name, but got 1.000000e+00 : f32}}
  %0 = "blk.splat"(%x) {shape = [1.0 : f32]} : (f32) -> tensor<?xf32>
  return
}

// -----

func.func @splat_named_static(%x: f32) {
  // expected-error @+1 {{shape entry #1 names 'BLOCK', so the result dimension must be '?' until it is bound, but got 128}}
  %0 = blk.splat %x [4, BLOCK] : f32 -> tensor<4x128xf32>
  return
}

// -----

func.func @expand_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{axis 2 is out of range for expanding a rank-1 block (expected 0..1)}}
  %0 = blk.expand_dims %x axis 2 : tensor<4xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @expand_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{result element type 'f16' does not match the source's 'f32'}}
  %0 = blk.expand_dims %x axis 1 : tensor<4xf32> -> tensor<4x1xf16>
  return
}

// -----

func.func @expand_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{result shape must be 4x1, but got 1x4}}
  %0 = blk.expand_dims %x axis 1 : tensor<4xf32> -> tensor<1x4xf32>
  return
}

// -----

func.func @convert_layout_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result shape must be the source's 4x8, but got 8x4}}
  %0 = blk.convert_layout %x : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @convert_layout_element_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result element type 'bf16' does not match the source's 'f32' (a conversion moves elements between threads)}}
  %0 = blk.convert_layout %x : tensor<4x8xf32> -> tensor<4x8xbf16>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{broadcast cannot change the rank (1 -> 2); use blk.expand_dims first}}
  %0 = blk.broadcast %x : tensor<4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: tensor<4x1xf32>) {
  // expected-error @+1 {{result element type 'i32' does not match the source's 'f32'}}
  %0 = blk.broadcast %x : tensor<4x1xf32> -> tensor<4x8xi32>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{dimension #1 of size 2 cannot be broadcast to 8 (only dimensions of size 1 can)}}
  %0 = blk.broadcast %x : tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_unnamed_dynamic(%x: tensor<4x1xf32>) {
  // expected-error @+1 {{result shape 4x? has dynamic dimensions}}
  %0 = blk.broadcast %x : tensor<4x1xf32> -> tensor<4x?xf32>
  return
}

// -----

func.func @load_other_without_mask(%p: !blk.ptr<f32>, %o: tensor<4xi32>, %c: f32) {
  // expected-error @+1 {{'other' needs a 'mask': it is the value of the masked-off elements}}
  %0 = "blk.load"(%p, %o, %c) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (!blk.ptr<f32>, tensor<4xi32>, f32) -> tensor<4xf32>
  return
}

// -----

func.func @load_shape(%p: !blk.ptr<f32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{result shape 8 does not match the offsets' shape 4}}
  %0 = blk.load %p[%o] : !blk.ptr<f32>, tensor<4xi32> -> tensor<8xf32>
  return
}

// -----

func.func @load_element_type(%p: !blk.ptr<f16>, %o: tensor<4xi32>) {
  // expected-error @+1 {{result element type 'f32' does not match the pointer's element type 'f16'}}
  %0 = blk.load %p[%o] : !blk.ptr<f16>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @load_mask_shape(%p: !blk.ptr<f32>, %o: tensor<4xi32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{failed to verify that mask is an i1 block of the offsets' shape}}
  %0 = "blk.load"(%p, %o, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!blk.ptr<f32>, tensor<4xi32>, tensor<8xi1>) -> tensor<4xf32>
  return
}

// -----

func.func @load_other_type(%p: !blk.ptr<f32>, %o: tensor<4xi32>, %m: tensor<4xi1>, %c: f16) {
  // expected-error @+1 {{failed to verify that other is a scalar of the loaded element type}}
  %0 = "blk.load"(%p, %o, %m, %c) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!blk.ptr<f32>, tensor<4xi32>, tensor<4xi1>, f16) -> tensor<4xf32>
  return
}

// -----

func.func @store_shape(%p: !blk.ptr<f32>, %o: tensor<4xi32>, %v: tensor<2x2xf32>) {
  // expected-error @+1 {{stored value shape 2x2 does not match the offsets' shape 4}}
  blk.store %p[%o], %v : !blk.ptr<f32>, tensor<4xi32>, tensor<2x2xf32>
  return
}

// -----

func.func @store_element_type(%p: !blk.ptr<bf16>, %o: tensor<4xi32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{stored value element type 'f32' does not match the pointer's element type 'bf16'}}
  blk.store %p[%o], %v : !blk.ptr<bf16>, tensor<4xi32>, tensor<4xf32>
  return
}

// -----

func.func @store_mask_shape(%p: !blk.ptr<f32>, %o: tensor<4xi32>, %v: tensor<4xf32>, %m: tensor<2xi1>) {
  // expected-error @+1 {{failed to verify that mask is an i1 block of the offsets' shape}}
  "blk.store"(%p, %o, %v, %m) : (!blk.ptr<f32>, tensor<4xi32>, tensor<4xf32>, tensor<2xi1>) -> ()
  return
}

// -----

func.func @reduce_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{reduce axis 1 is out of range for a rank-1 block}}
  %0 = blk.reduce max %x axis 1 : tensor<16xf32> -> f32
  return
}

// -----

func.func @reduce_element_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{result element type 'f16' does not match the source's 'f32'}}
  %0 = blk.reduce sum %x axis 0 : tensor<16xf32> -> f16
  return
}

// -----

func.func @reduce_1d_to_tensor(%x: tensor<16xf32>) {
  // expected-error @+1 {{reducing a 1-D block gives a scalar 'f32', but the result is 'tensor<1xf32>'}}
  %0 = blk.reduce sum %x axis 0 : tensor<16xf32> -> tensor<1xf32>
  return
}

// -----

func.func @max_exp_sum_f16(%x: tensor<16xf16>) {
  // expected-error @+1 {{expected a block of f32 (exp is computed in f32), but found elements of 'f16'}}
  %m, %s, %e = blk.max_exp_sum %x axis 0 : tensor<16xf16> -> f32, f32, tensor<16xf16>
  return
}

// -----

func.func @max_exp_sum_axis(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{reduce axis 2 is out of range for a rank-2 block}}
  %m, %s, %e = blk.max_exp_sum %x axis 2 : tensor<4x16xf32> -> tensor<4xf32>, tensor<4xf32>, tensor<4x16xf32>
  return
}

// -----

func.func @max_exp_sum_shape(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{result shape must be 4 (the source without axis 1), but got 'tensor<16xf32>'}}
  %m, %s, %e = blk.max_exp_sum %x axis 1 : tensor<4x16xf32> -> tensor<16xf32>, tensor<16xf32>, tensor<4x16xf32>
  return
}

// -----

func.func @max_exp_sum_results(%x: tensor<16xf32>) {
  // expected-error @+1 {{all of {max, sum} have same type}}
  %m, %s, %e = "blk.max_exp_sum"(%x) {axis = 0 : i64} : (tensor<16xf32>) -> (f32, tensor<1xf32>, tensor<16xf32>)
  return
}

// -----

func.func @max_exp_sum_exps(%x: tensor<16xf32>) {
  // expected-error @+1 {{all of {src, exps} have same type}}
  %m, %s, %e = "blk.max_exp_sum"(%x) {axis = 0 : i64} : (tensor<16xf32>) -> (f32, f32, tensor<8xf32>)
  return
}

// -----

func.func @sum_centered_squares_2d(%x: tensor<4x16xf32>, %n: f32) {
  // expected-error @+1 {{expected a 1-D block of f32 (a row), but found 'tensor<4x16xf32>'}}
  %s, %q = blk.sum_centered_squares %x divisor %n axis 0 : tensor<4x16xf32>
  return
}

// -----

func.func @sum_centered_squares_mask(%x: tensor<16xf32>, %m: tensor<8xi1>, %n: f32) {
  // expected-error @+1 {{expected a mask of the row's shape 16, but found 'tensor<8xi1>'}}
  %s, %q = blk.sum_centered_squares %x mask %m divisor %n axis 0 : tensor<16xf32>, tensor<8xi1>
  return
}

// -----

func.func @sum_centered_squares_axis(%x: tensor<16xf32>, %n: f32) {
  // expected-error @+1 {{reduce axis 1 is out of range for a rank-1 block}}
  %s, %q = blk.sum_centered_squares %x divisor %n axis 1 : tensor<16xf32>
  return
}

// -----

func.func @reduce_2d_shape(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{result shape must be 4 (the source without axis 1), but got 'tensor<16xf32>'}}
  %0 = blk.reduce sum %x axis 1 : tensor<4x16xf32> -> tensor<16xf32>
  return
}

// -----

// expected-error @+1 {{elems, lanes and warps must have one entry per dimension (got 1, 2, 1)}}
func.func private @layout_ranks(tensor<8xf32, #blk.blocked<elems = [1], lanes = [1, 32], warps = [4]>>)

// -----

// expected-error @+1 {{elems, lanes, warps and ctas must be powers of two}}
func.func private @layout_not_power_of_two(tensor<8xf32, #blk.blocked<elems = [3], lanes = [32], warps = [4]>>)

// -----

// expected-error @+1 {{lanes must multiply to 32 (a warp), but multiply to 16}}
func.func private @layout_lanes(tensor<8xf32, #blk.blocked<elems = [4], lanes = [16], warps = [4]>>)

// -----

// expected-error @+1 {{slice dimension 2 is out of range for a rank-2 parent (a slice needs rank 2 or more)}}
func.func private @slice_dim(tensor<8xf32, #blk.slice<dim = 2, parent = #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [4, 1]>>>)

// -----

// expected-error @+1 {{'blk.launch' must be a list of #blk.launch attributes on a builtin.module, each tensor map a #blk.tensor_map of a 2-D box}}
module attributes {blk.launch = [1]} {
}

// -----

func.func @vector_not_power_of_two(%p: !blk.ptr<f32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'blk.vector' must be a positive power of two on a blk.load, blk.store, blk.async_copy or blk.async_copy_into, but got 3 : i64}}
  %0 = blk.load %p[%o] {blk.vector = 3 : i64} : !blk.ptr<f32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{expected grid = rows or persistent, got 'waves'}}
func.func @bad_grid() attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = waves>} {
  return
}

// -----

// A count is an integer: `true` is not 1 (nor, as it was, -1).
// expected-error @+1 {{expected an integer, got 'true'}}
func.func @boolean_warps() attributes {blk.kernel = #blk.kernel<num_warps = true>} {
  return
}

// -----

// expected-error @+1 {{expected an integer, got 'false'}}
func.func @boolean_ctas() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = false>} {
  return
}

// -----

func.func @arange_past_i32() {
  // expected-error @+1 {{'blk.arange' op range [0, 4294967296) does not fit its element type 'i32'}}
  %cols = blk.arange 0 to 4294967296 : tensor<4294967296xi32>
  return
}

// -----

// expected-error @+1 {{'num_warps' is given twice}}
func.func @warps_twice() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_warps = 8>} {
  return
}

// -----

// expected-error @+1 {{'num_ctas' is given twice}}
func.func @twice() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 2, num_ctas = 4>} {
  return
}

// -----

// expected-error @+1 {{compile-time constant 'BLOCK' is given two roles (row_block, rows_per_program, row_splits, inner_block)}}
func.func @two_roles() attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK, row_splits = BLOCK>} {
  return
}

// -----

// expected-error @+1 {{row_block = BLOCK: kernel @unused_role uses no compile-time constant of that name}}
func.func @unused_role() attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  return
}

// -----

// expected-error @+1 {{kernel @declared has no body: a kernel must be defined}}
func.func private @declared(!blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>}

// -----

// expected-error @+1 {{expected a tensor shape (matrix, per_row, per_col, rows_by_inner, inner_by_cols), got 'cols'}}
func.func private @bad_extent(!blk.ptr<f32> {blk.arg = #blk.arg<scratch "s", cols>})

// -----

// expected-error @+1 {{expected an argument role (input, output, scratch, row_stride, rows, cols, inner, param, batch, heads, batch_stride, head_stride, tensor_map), got 'weight'}}
func.func private @bad_role(!blk.ptr<f32> {blk.arg = #blk.arg<weight "w">})

// -----

// expected-error @+1 {{a input argument needs a name, e.g. #blk.arg<input "x">}}
func.func private @unnamed(!blk.ptr<f32> {blk.arg = #blk.arg<input>})

// -----

// expected-error @+1 {{the rows argument takes no name, but got "m"}}
func.func private @named_rows(i32 {blk.arg = #blk.arg<rows "m">})

// -----

// expected-error @+1 {{only tensors (input, output, scratch) have a shape, but the param argument has per_row}}
func.func private @param_shape(f32 {blk.arg = #blk.arg<param "eps", per_row>})

// -----

// expected-error @+1 {{argument #0 is declared #blk.arg<scratch "s", per_row>, which needs a !blk.ptr, but has type 'i32'}}
func.func private @scratch_on_integer(i32 {blk.arg = #blk.arg<scratch "s", per_row>})

// -----

// expected-error @+1 {{argument #0 is declared #blk.arg<cols>, which needs an integer, but has type 'f32'}}
func.func private @float_cols(f32 {blk.arg = #blk.arg<cols>})

// -----

// expected-error @+1 {{kernel argument #1 declares no role (blk.arg), but others of @partly do: declare every argument or none}}
func.func @partly(%x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">}, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel argument #1 declares "x", which another argument of @twice_named already names}}
func.func @twice_named(%x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">}, %y: !blk.ptr<f32> {blk.arg = #blk.arg<output "x">}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel argument #1 is the row stride of "y", but @stray_stride has no matrix tensor of that name}}
func.func @stray_stride(%x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">}, %s: i32 {blk.arg = #blk.arg<row_stride "y">}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel @two_cols declares 0 rows, 2 cols, 0 inner, 0 batch and 0 heads arguments; at most one of each}}
func.func @two_cols(%a: i32 {blk.arg = #blk.arg<cols>}, %b: i32 {blk.arg = #blk.arg<cols>}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel @two_inner declares 0 rows, 0 cols, 2 inner, 0 batch and 0 heads arguments; at most one of each}}
func.func @two_inner(%a: i32 {blk.arg = #blk.arg<inner>}, %b: i32 {blk.arg = #blk.arg<inner>}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel @two_heads declares 0 rows, 0 cols, 0 inner, 0 batch and 2 heads arguments; at most one of each}}
func.func @two_heads(%a: i32 {blk.arg = #blk.arg<heads>}, %b: i32 {blk.arg = #blk.arg<heads>}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel argument #1 is the head_stride of "y", but @stray_head_stride has no tensor of that name}}
func.func @stray_head_stride(%x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">}, %s: i64 {blk.arg = #blk.arg<head_stride "y">}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel @batch_alone declares 1 batch and 0 heads arguments; a batch of problems takes both}}
func.func @batch_alone(%a: i32 {blk.arg = #blk.arg<batch>}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel @batched_scratch takes a batch (batch, heads) and a scratch tensor; scratch tensors are not kept per problem of a batch}}
func.func @batched_scratch(%a: i32 {blk.arg = #blk.arg<batch>}, %b: i32 {blk.arg = #blk.arg<heads>}, %s: !blk.ptr<f32> {blk.arg = #blk.arg<scratch "s">}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{the batch argument takes no name, but got "x"}}
func.func private @named_batch(i32 {blk.arg = #blk.arg<batch "x">})

// -----

// expected-error @+1 {{the inner argument takes no name, but got "k"}}
func.func @named_inner(%k: i32 {blk.arg = #blk.arg<inner "k">}) {
  return
}

// -----

// expected-error @+1 {{inner_block = KT: kernel @unused_inner_block uses no compile-time constant of that name}}
func.func @unused_inner_block() attributes {blk.kernel = #blk.kernel<num_warps = 4, inner_block = KT>} {
  return
}

// -----

// expected-error @+1 {{num_ctas must be a power of two from 1 to 16, but got 3}}
func.func @bad_ctas() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 3>} {
  return
}

// -----

// expected-error @+1 {{num_stages must be from 1 to 4, but got 5}}
func.func @deep_pipeline() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 5>} {
  return
}

// -----

// expected-error @+1 {{num_stages must be from 1 to 4, but got 0}}
func.func @no_stage() attributes {blk.kernel = #blk.kernel<num_warps = 4, num_stages = 0>} {
  return
}

// -----

// expected-error @+1 {{min_ctas_per_sm = 8 CTAs of 16 warps is more than an SM's 2048 threads}}
func.func @more_threads_than_an_sm() attributes {blk.kernel = #blk.kernel<num_warps = 16, min_ctas_per_sm = 8>} {
  return
}

// -----

// expected-error @+1 {{min_ctas_per_sm must be from 0 (ptxas's choice) to 32, but got 33}}
func.func @too_many_ctas_per_sm() attributes {blk.kernel = #blk.kernel<num_warps = 4, min_ctas_per_sm = 33>} {
  return
}

// -----

// expected-error @+1 {{ctas must have one entry per dimension (2) or be left out, but has 1}}
func.func private @layout_ctas(tensor<4x8xf32, #blk.blocked<elems = [1, 4], lanes = [4, 8], warps = [1, 4], ctas = [2]>>)

// -----

func.func @realign_without_vector(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  // expected-error @+1 {{'blk.realign' must be a unit attribute on a blk.load or blk.store that has 'blk.vector', but got unit on 'blk.load'}}
  %x = blk.load %p[%cols] {blk.realign} : !blk.ptr<f32>, tensor<128xi32> -> tensor<128xf32>
  return
}

// -----

func.func @fallback_not_an_access() attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'blk.fallback' must be a unit attribute on a blk.load or blk.store, but got unit on 'blk.arange'}}
  %cols = blk.arange 0 to 128 {blk.fallback} : tensor<128xi32>
  return
}

// -----

func.func @local_alloc_shape(%x: tensor<1024xbf16>) {
  // expected-error @+1 {{'blk.local_alloc' op expected the source to have the shape and element type of '!blk.shared<2048xbf16>', but found 'tensor<1024xbf16>'}}
  %b = blk.local_alloc %x : tensor<1024xbf16> -> !blk.shared<2048xbf16>
  return
}

// -----

func.func @local_alloc_dynamic(%x: tensor<?xbf16>) {
  // expected-error @+1 {{'blk.local_alloc' op expected a block of static shape, but found 'tensor<?xbf16>'}}
  %b = blk.local_alloc %x : tensor<?xbf16> -> !blk.shared<1024xbf16>
  return
}

// -----

func.func @async_copy_no_layout(%p: !blk.ptr<bf16>, %cols: tensor<1024xi32>) {
  // expected-error @+1 {{'blk.async_copy' op expected offsets laid out over threads (the op comes after blk-distribute), but found 'tensor<1024xi32>'}}
  %b = blk.async_copy %p[%cols] : !blk.ptr<bf16>, tensor<1024xi32> -> !blk.shared<1024xbf16>
  return
}

// -----

#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @async_copy_shape(%p: !blk.ptr<bf16>, %cols: tensor<1024xi32, #row>) {
  // expected-error @+1 {{'blk.async_copy' op expected the offsets to have the shape and element type of '!blk.shared<2048xbf16>', but found 'tensor<1024xbf16>'}}
  %b = blk.async_copy %p[%cols] : !blk.ptr<bf16>, tensor<1024xi32, #row> -> !blk.shared<2048xbf16>
  return
}


// -----

#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @async_copy_pointer(%p: !blk.ptr<f32>, %cols: tensor<1024xi32, #row>) {
  // expected-error @+1 {{'blk.async_copy' op buffer element type 'bf16' does not match the pointer's element type 'f32'}}
  %b = blk.async_copy %p[%cols] : !blk.ptr<f32>, tensor<1024xi32, #row> -> !blk.shared<1024xbf16>
  return
}

// -----

#row = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @async_copy_other_without_mask(%p: !blk.ptr<bf16>, %cols: tensor<1024xi32, #row>, %o: bf16) {
  // expected-error @+1 {{'blk.async_copy' op 'other' needs a 'mask': it is the value of the masked-off elements}}
  %b = blk.async_copy %p[%cols] other %o : !blk.ptr<bf16>, tensor<1024xi32, #row> -> !blk.shared<1024xbf16>
  return
}

// -----

func.func @local_alloc_nothing_kept() {
  // expected-error @+1 {{'blk.local_alloc' op expected a #blk.swizzled buffer where there is no block to keep, but found '!blk.shared<64x64xbf16>'}}
  %b = blk.local_alloc -> !blk.shared<64x64xbf16>
  return
}

// -----

func.func @local_alloc_swizzled_unlaid(%x: tensor<64x64xbf16>) {
  // expected-error @+1 {{'blk.local_alloc' op expected a 2-D block laid out #blk.blocked of the swizzled buffer's shape and element type, '!blk.shared<64x64xbf16, #blk.swizzled<>>', but found 'tensor<64x64xbf16>'}}
  %b = blk.local_alloc %x : tensor<64x64xbf16> -> !blk.shared<64x64xbf16, #blk.swizzled<>>
  return
}

// -----

#l = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>
func.func @local_alloc_swizzled_other_shape(%x: tensor<64x128xbf16, #l>) {
  // expected-error @+1 {{'blk.local_alloc' op expected a 2-D block laid out #blk.blocked of the swizzled buffer's shape and element type, '!blk.shared<64x64xbf16, #blk.swizzled<>>', but found 'tensor<64x128xbf16, #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>>'}}
  %b = blk.local_alloc %x : tensor<64x128xbf16, #l> -> !blk.shared<64x64xbf16, #blk.swizzled<>>
  return
}

// -----

#l = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [8, 1]>
func.func @local_alloc_swizzled_other_warps(%v: bf16) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %x = blk.splat %v : bf16 -> tensor<64x64xbf16, #l>
  // expected-error @+1 {{'blk.local_alloc' op expected the block laid out over the kernel's 4 warps of one CTA, but found #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [8, 1]>}}
  %b = blk.local_alloc %x : tensor<64x64xbf16, #l> -> !blk.shared<64x64xbf16, #blk.swizzled<>>
  return
}

// -----

// expected-error @+2 {{expected no row rotation in a transposed swizzled block (B read K-major), but found rotation_bits = 2}}
// expected-error @+1 {{failed to parse Blk_SharedType parameter 'encoding'}}
func.func private @swizzled_transposed_rotated(!blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 2, transposed = true>>)

// -----

// expected-error @+1 {{expected a transposed swizzled block of rows a multiple of 64 and columns a multiple of 8, but found 32x64}}
func.func private @swizzled_transposed_half_panel(!blk.shared<32x64xbf16, #blk.swizzled<transposed = true>>)

// -----

// expected-error @+1 {{expected f16 or bf16 elements in a swizzled block, but found 'f32'}}
func.func private @swizzled_f32(!blk.shared<64x64xf32, #blk.swizzled<>>)

// -----

// expected-error @+1 {{expected a swizzled block of rows a multiple of 8 and columns a multiple of 64, but found 64x32}}
func.func private @swizzled_half_panel(!blk.shared<64x32xbf16, #blk.swizzled<>>)

// -----

// expected-error @+1 {{expected a swizzled block of 2 dimensions, or a ring of them (3), but found 1}}
func.func private @swizzled_row(!blk.shared<64xbf16, #blk.swizzled<>>)

// -----

// expected-error @+1 {{expected the rotated row bits within the block's 64 rows, but they reach bit 6}}
func.func private @swizzled_rotation(!blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 4>>)

// -----

// expected-error @+2 {{expected row bits to rotate within 0 .. 29, but found rotation_first = 28, rotation_bits = 3}}
// expected-error @+1 {{failed to parse Blk_SharedType parameter 'encoding'}}
func.func private @swizzled_far(!blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 28, rotation_bits = 3>>)

// -----

func.func @local_index_slot(%ring: !blk.shared<3x64x64xbf16, #blk.swizzled<>>, %i: i32) {
  // expected-error @+1 {{'blk.local_index' op expected a slot of type '!blk.shared<64x64xbf16, #blk.swizzled<>>', but found '!blk.shared<64x64xf16, #blk.swizzled<>>'}}
  %s = blk.local_index %ring[%i] : !blk.shared<3x64x64xbf16, #blk.swizzled<>> -> !blk.shared<64x64xf16, #blk.swizzled<>>
  return
}

// -----

func.func @local_index_not_a_ring(%b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %i: i32) {
  // expected-error @+1 {{'blk.local_index' op expected a ring of #blk.swizzled buffers (3-D), but found '!blk.shared<64x64xbf16, #blk.swizzled<>>'}}
  %s = blk.local_index %b[%i] : !blk.shared<64x64xbf16, #blk.swizzled<>> -> !blk.shared<64xbf16>
  return
}

// -----

#tile = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>

func.func @async_copy_into_kept(%p: !blk.ptr<bf16>, %offsets: tensor<64x64xi32, #tile>, %b: !blk.shared<64x64xbf16>) {
  // expected-error @+1 {{'blk.async_copy_into' op expected a #blk.swizzled buffer to copy into, but found '!blk.shared<64x64xbf16>'}}
  blk.async_copy_into %p[%offsets] into %b : !blk.ptr<bf16>, tensor<64x64xi32, #tile>, !blk.shared<64x64xbf16>
  return
}

// -----

func.func @async_copy_into_no_layout(%p: !blk.ptr<bf16>, %offsets: tensor<64x64xi32>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>) {
  // expected-error @+1 {{'blk.async_copy_into' op expected offsets laid out over threads (the op comes after blk-distribute), but found 'tensor<64x64xi32>'}}
  blk.async_copy_into %p[%offsets] into %b : !blk.ptr<bf16>, tensor<64x64xi32>, !blk.shared<64x64xbf16, #blk.swizzled<>>
  return
}

// -----

#tile = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>

func.func @async_copy_into_shape(%p: !blk.ptr<bf16>, %offsets: tensor<64x64xi32, #tile>, %b: !blk.shared<64x128xbf16, #blk.swizzled<>>) {
  // expected-error @+1 {{'blk.async_copy_into' op expected the offsets to have the shape and element type of '!blk.shared<64x128xbf16, #blk.swizzled<>>', but found 'tensor<64x64xbf16>'}}
  blk.async_copy_into %p[%offsets] into %b : !blk.ptr<bf16>, tensor<64x64xi32, #tile>, !blk.shared<64x128xbf16, #blk.swizzled<>>
  return
}

// -----

#tile = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>

func.func @async_copy_into_pointer(%p: !blk.ptr<f16>, %offsets: tensor<64x64xi32, #tile>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>) {
  // expected-error @+1 {{'blk.async_copy_into' op buffer element type 'bf16' does not match the pointer's element type 'f16'}}
  blk.async_copy_into %p[%offsets] into %b : !blk.ptr<f16>, tensor<64x64xi32, #tile>, !blk.shared<64x64xbf16, #blk.swizzled<>>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

func.func @warpgroup_dot_rotation(%a: !blk.shared<64x64xbf16, #blk.swizzled<>>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected A to be a 2-D buffer arranged #blk.swizzled<rotation_first = 3, rotation_bits = 3>, but found '!blk.shared<64x64xbf16, #blk.swizzled<>>'}}
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [2, 2]>

func.func @warpgroup_dot_layout(%a: !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected the accumulator laid out for wgmma, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>, but found #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [2, 2]>}}
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

func.func @warpgroup_dot_shapes(%a: !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, %b: !blk.shared<128x64xbf16, #blk.swizzled<>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected A (M x K), B (K x N) and the accumulator (M x N) to agree, but found 64x64, 128x64 and 64x64}}
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<128x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

func.func @warpgroup_dot_types(%a: !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, %b: !blk.shared<64x64xf16, #blk.swizzled<>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected A and B of one element type, but found 'bf16' and 'f16'}}
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>
#rows = #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>

func.func @warpgroup_dot_register_a_layout(%a: tensor<64x64xbf16, #rows>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected A in registers to be a 2-D 16-bit block of K a multiple of 16 laid out as the accumulator, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>, but found 'tensor<64x64xbf16, #blk.blocked<elems = [1, 8], lanes = [4, 8], warps = [4, 1]>>'}}
  %d = blk.warpgroup_dot %a, %b, %c : tensor<64x64xbf16, #rows>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

func.func @warpgroup_dot_register_a_index(%a: tensor<64x64xindex, #mma>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected A in registers to be a 2-D 16-bit block of K a multiple of 16 laid out as the accumulator, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>, but found 'tensor<64x64xindex, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>'}}
  %d = blk.warpgroup_dot %a, %b, %c : tensor<64x64xindex, #mma>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

func.func @warpgroup_dot_wide(%a: !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, %b: !blk.shared<64x320xbf16, #blk.swizzled<>>, %c: tensor<64x320xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected whole warpgroups, M a multiple of 64 rows a warpgroup and N at most 256, but found 4 warps, M = 64, N = 320}}
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x320xbf16, #blk.swizzled<>>, tensor<64x320xf32, #mma>
  return
}

// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

func.func @warpgroup_dot_pending(%a: !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 1}}
  %d = blk.warpgroup_dot %a, %b, %c {pending = 2 : i64} : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}
// -----

#mma = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>

func.func @warpgroup_dot_kernel_warps(%i: i32, %x: f32) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %ring_a = blk.local_alloc -> !blk.shared<1x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  %ring_b = blk.local_alloc -> !blk.shared<1x64x64xbf16, #blk.swizzled<>>
  %a = blk.local_index %ring_a[%i] : !blk.shared<1x64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>> -> !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>
  %b = blk.local_index %ring_b[%i] : !blk.shared<1x64x64xbf16, #blk.swizzled<>> -> !blk.shared<64x64xbf16, #blk.swizzled<>>
  %c = blk.splat %x : f32 -> tensor<64x64xf32, #mma>
  // expected-error @+1 {{'blk.warpgroup_dot' op expected the accumulator laid out over the kernel's 8 warps, but found 4}}
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf32, #mma>
  return
}

// -----

func.func @async_wait_group_count() {
  // expected-error @+1 {{'blk.async_wait_group' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 7}}
  blk.async_wait_group 8
  return
}

// -----

func.func @local_load_swizzled(%b: !blk.shared<64x64xbf16, #blk.swizzled<>>) {
  // expected-error @+1 {{'blk.local_load' op expected a buffer a block was kept in (no encoding), but found '!blk.shared<64x64xbf16, #blk.swizzled<>>'}}
  %x = blk.local_load %b : !blk.shared<64x64xbf16, #blk.swizzled<>> -> tensor<64x64xbf16>
  return
}
// -----

func.func @warpgroup_dot_accumulator(%a: !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %c: tensor<64x64xf16>) {
  // expected-error @+1 {{'blk.warpgroup_dot' op expected a 2-D f32 accumulator laid out over threads, but found 'tensor<64x64xf16>'}}
  %d = blk.warpgroup_dot %a, %b, %c : !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.shared<64x64xbf16, #blk.swizzled<>>, tensor<64x64xf16>
  return
}

// -----

func.func @local_load_type(%b: !blk.shared<1024xbf16>) {
  // expected-error @+1 {{'blk.local_load' op expected the result to have the shape and element type of '!blk.shared<1024xbf16>', but found 'tensor<1024xf32>'}}
  %x = blk.local_load %b : !blk.shared<1024xbf16> -> tensor<1024xf32>
  return
}

// -----

// expected-error @+1 {{shared block must have a static shape of positive dimensions}}
func.func @shared_zero(%b: !blk.shared<0xbf16>) {
  return
}

// -----

// expected-error @+1 {{shared block element type must be an integer or float of 8, 16, 32 or 64 bits, but got 'i12'}}
func.func @shared_i12(%b: !blk.shared<64xi12>) {
  return
}

// -----

func.func @barrier_on_f32(%c: !blk.ptr<f32>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent>} {
  // expected-error @+1 {{expected a pointer to an i64 counter, but found '!blk.ptr<f32>'}}
  blk.program_barrier %c, %n : !blk.ptr<f32>, i32
  return
}

// -----

func.func @barrier_outside_kernel(%c: !blk.ptr<i64>, %n: i32) {
  // expected-error @+1 {{expected to be in a kernel (a function marked blk.kernel)}}
  blk.program_barrier %c, %n : !blk.ptr<i64>, i32
  return
}

// -----

func.func @barrier_on_rows_grid(%c: !blk.ptr<i64>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{expected a kernel of grid = persistent (the programs that meet here must all be resident), but found grid = rows}}
  blk.program_barrier %c, %n : !blk.ptr<i64>, i32
  return
}

// -----

func.func @barrier_on_cluster(%c: !blk.ptr<i64>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent, num_ctas = 2>} {
  // expected-error @+1 {{expected a kernel of one CTA a program, but found num_ctas = 2}}
  blk.program_barrier %c, %n : !blk.ptr<i64>, i32
  return
}

// -----

func.func @barrier_of_no_one(%c: !blk.ptr<i64>) attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent>} {
  %zero = arith.constant 0 : i32
  // expected-error @+1 {{expected a count of at least 1 program, but found 0}}
  blk.program_barrier %c, %zero : !blk.ptr<i64>, i32
  return
}

// -----

// expected-error @+1 {{unsupported chip 'sm_60': expected sm_70 or newer (e.g. sm_80, sm_90)}}
module attributes {blk.target = #blk.target<chip = "sm_60", features = "+ptx80">} {
}

// -----

// expected-error @+1 {{'blk.target' must be a #blk.target on a module, but got "sm_90" on 'func.func'}}
func.func @target_on_func() attributes {blk.target = "sm_90"} {
  return
}

// -----

func.func @dot_shapes(%a: tensor<4x8xbf16>, %b: tensor<16x4xbf16>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'blk.dot' op expected a M x K, b K x N and acc M x N, but found 4x8, 16x4 and 4x4}}
  %d = blk.dot %a, %b, %c : tensor<4x8xbf16>, tensor<16x4xbf16>, tensor<4x4xf32>
  return
}

// -----

func.func @dot_accumulator(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>, %c: tensor<4x4xbf16>) {
  // expected-error @+1 {{'blk.dot' op expected f16, bf16 or f32 inputs and an f32 accumulator, but found 'bf16' inputs and a 'bf16' accumulator}}
  %d = blk.dot %a, %b, %c : tensor<4x8xbf16>, tensor<8x4xbf16>, tensor<4x4xbf16>
  return
}

// -----

func.func @dot_tf32_of_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'blk.dot' op expected f32 inputs for precision tf32 (it rounds f32 to tf32), but found 'bf16' inputs}}
  %d = blk.dot %a, %b, %c precision tf32 : tensor<4x8xbf16>, tensor<8x4xbf16>, tensor<4x4xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<4x8xf16>, %b: tensor<8x4xbf16>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'blk.dot' op expected a and b of one element type, but found 'f16' and 'bf16'}}
  %d = blk.dot %a, %b, %c : tensor<4x8xf16>, tensor<8x4xbf16>, tensor<4x4xf32>
  return
}

// -----

func.func @dot_rank(%a: tensor<8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'blk.dot' op expected 2-D blocks, but 'a' is 'tensor<8xf32>'}}
  %d = blk.dot %a, %b, %c : tensor<8xf32>, tensor<8x4xf32>, tensor<4x4xf32>
  return
}

// -----

// expected-error @+1 {{expected box rows of 128 bytes (the swizzle's width), but got 32 elements of 2 bytes}}
func.func private @narrow_box(!blk.tensor_map<8x32xbf16>)

// -----

// expected-error @+1 {{expected 16-bit elements, but got 'f32'}}
func.func private @f32_map(!blk.tensor_map<8x32xf32>)

// -----

// expected-error @+1 {{expected a rotation of 2 or more bits whose rows make the box's 64, but got rotation = [3, 4]}}
func.func private @rotation_not_the_box(!blk.tensor_map<64x64xbf16, rotation = [3, 4]>)

// -----

// expected-error @+1 {{expected 1 to 8 barriers, but got 0}}
func.func private @no_barriers(!blk.barriers<0>)

// -----

func.func @box_across_rotated_groups(%map: !blk.tensor_map<16x64xbf16>, %b: !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, %bars: !blk.barriers<3>, %i: i32) {
  // expected-error @+1 {{'blk.tensor_copy_into' op expected boxes of at most 8 rows, which the buffer's row rotation keeps together, but found 16}}
  blk.tensor_copy_into %map[%i, %i] into %b, %bars[%i] : !blk.tensor_map<16x64xbf16>, !blk.shared<64x64xbf16, #blk.swizzled<rotation_first = 3, rotation_bits = 3>>, !blk.barriers<3>
  return
}

// -----

func.func @rotated_map_other_rotation(%map: !blk.tensor_map<64x64xbf16, rotation = [3, 3]>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %bars: !blk.barriers<3>, %i: i32) {
  // expected-error @+1 {{'blk.tensor_copy_into' op expected a buffer of one box of the rotated map, 64 x 64 with its rows rotated as the map's, but found '!blk.shared<64x64xbf16, #blk.swizzled<>>'}}
  blk.tensor_copy_into %map[%i, %i] into %b, %bars[%i] : !blk.tensor_map<64x64xbf16, rotation = [3, 3]>, !blk.shared<64x64xbf16, #blk.swizzled<>>, !blk.barriers<3>
  return
}

// -----

func.func @copy_into_other_elements(%map: !blk.tensor_map<8x64xf16>, %b: !blk.shared<64x64xbf16, #blk.swizzled<>>, %bars: !blk.barriers<3>, %i: i32) {
  // expected-error @+1 {{'blk.tensor_copy_into' op expected the buffer's elements to be the tensor map's, 'f16', but found 'bf16'}}
  blk.tensor_copy_into %map[%i, %i] into %b, %bars[%i] : !blk.tensor_map<8x64xf16>, !blk.shared<64x64xbf16, #blk.swizzled<>>, !blk.barriers<3>
  return
}

// -----

// expected-error @+1 {{kernel argument #1 is a tensor map of "w", but @map_of_nothing has no matrix tensor of that name}}
func.func @map_of_nothing(%x: !blk.ptr<bf16> {blk.arg = #blk.arg<input "x">}, %m: !blk.tensor_map<8x64xbf16> {blk.arg = #blk.arg<tensor_map "w">}) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{kernel argument #0 is a '!blk.tensor_map<8x64xbf16>', which needs #blk.arg<tensor_map "x"> naming the matrix the launcher describes}}
func.func @undeclared_map(%m: !blk.tensor_map<8x64xbf16>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// -----

// expected-error @+1 {{argument #0 is declared #blk.arg<tensor_map "x">, which needs a !blk.tensor_map, but has type 'i32'}}
func.func private @map_not_a_map(i32 {blk.arg = #blk.arg<tensor_map "x">})
