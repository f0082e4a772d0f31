// RUN: softmax-opt %s -split-input-file -verify-diagnostics --blk-stream-rows

// A row written back (log_softmax) must be read again after its reductions.
// expected-error @+1 {{cannot stream the row of @writes_its_row: a block of its row reaches blk.store, not only reductions of the row (it writes or keeps its row)}}
func.func @writes_its_row(%y: !blk.ptr<f32> {blk.arg = #blk.arg<output "y">},
                          %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                          %n_rows: i32 {blk.arg = #blk.arg<rows>},
                          %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %v = blk.load %x[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %ms = blk.splat %m [BLOCK] : f32 -> tensor<?xf32>
  %d = arith.subf %v, %ms : tensor<?xf32>
  blk.store %y[%cols], %d : !blk.ptr<f32>, tensor<?xi32>, tensor<?xf32>
  return
}

// -----

// Squares about the mean (layer_norm's variance): the row is needed again
// once its sum is known.
// expected-error @+1 {{cannot stream the row of @squares_about_the_mean: blk.splat computes a block of the row from a reduction of the row (not a max's sum of exps): the row is needed again after it}}
func.func @squares_about_the_mean(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                                  %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                                  %n_rows: i32 {blk.arg = #blk.arg<rows>},
                                  %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %v = blk.load %x[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %s = blk.reduce sum %v axis 0 : tensor<?xf32> -> f32
  %ss = blk.splat %s [BLOCK] : f32 -> tensor<?xf32>
  %d = arith.subf %v, %ss : tensor<?xf32>
  %q = arith.mulf %d, %d : tensor<?xf32>
  %var = blk.reduce sum %q axis 0 : tensor<?xf32> -> f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %vb = blk.splat %var [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %vb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// A max's exps summed twice (an entropy's sum of e * x beside the sum of e)
// are not a running pair.
// expected-error @+1 {{cannot stream the row of @exps_used_twice: blk.splat computes a block of the row from a reduction of the row (not a max's sum of exps): the row is needed again after it}}
func.func @exps_used_twice(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                           %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                           %n_rows: i32 {blk.arg = #blk.arg<rows>},
                           %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %v = blk.load %x[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %ms = blk.splat %m [BLOCK] : f32 -> tensor<?xf32>
  %d = arith.subf %v, %ms : tensor<?xf32>
  %e = math.exp %d : tensor<?xf32>
  %s = blk.reduce sum %e axis 0 : tensor<?xf32> -> f32
  %ex = arith.mulf %e, %v : tensor<?xf32>
  %t = blk.reduce sum %ex axis 0 : tensor<?xf32> -> f32
  %r = arith.divf %t, %s : f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %rb = blk.splat %r [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %rb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// A block of the row computed from a scalar that comes after the first
// reduction (the loop goes before it; a constant would move there).
// expected-error @+1 {{cannot stream the row of @value_after_first_reduction: blk.splat uses a value computed after the row's first reduction}}
func.func @value_after_first_reduction(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                                       %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                                       %n_rows: i32 {blk.arg = #blk.arg<rows>},
                                       %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %v = blk.load %x[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %two = arith.sitofp %n_rows : i32 to f32
  %twos = blk.splat %two [BLOCK] : f32 -> tensor<?xf32>
  %w = arith.mulf %v, %twos : tensor<?xf32>
  %s = blk.reduce sum %w axis 0 : tensor<?xf32> -> f32
  %r = arith.addf %m, %s : f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %rb = blk.splat %r [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %rb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// What blk-split-rows refuses, blk-stream-rows refuses too.
// expected-error @+1 {{cannot stream the row of @no_reduction: no blk.reduce combines its row}}
func.func @no_reduction(%n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  return
}

// -----

// An op with regions (scf.if): what its regions use is not seen from the
// body.
// expected-error @+1 {{cannot stream the row of @if_in_body: it has scf.if, whose regions the tiles would not see into}}
func.func @if_in_body(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                      %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                      %n_rows: i32 {blk.arg = #blk.arg<rows>},
                      %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %v = blk.load %x[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %zero = arith.constant 0.0 : f32
  %positive = arith.cmpf ogt, %m, %zero : f32
  %w = scf.if %positive -> (tensor<?xf32>) {
    %ms = blk.splat %m [BLOCK] : f32 -> tensor<?xf32>
    %d = arith.subf %v, %ms : tensor<?xf32>
    scf.yield %d : tensor<?xf32>
  } else {
    scf.yield %v : tensor<?xf32>
  }
  %s = blk.reduce sum %w axis 0 : tensor<?xf32> -> f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %sb = blk.splat %s [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %sb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// A row load after a store: the tiles' loads, before the first reduction,
// would move across it (here the program reads back what it wrote).
// expected-error @+1 {{cannot stream the row of @load_after_store: blk.store may write memory between the row's loads and its first reduction, where the tiles' loads go}}
func.func @load_after_store(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                            %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                            %n_rows: i32 {blk.arg = #blk.arg<rows>},
                            %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %v = blk.load %x[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce max %v axis 0 : tensor<?xf32> -> f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %mb = blk.splat %m [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %mb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  %rows = blk.splat %row [BLOCK] : i32 -> tensor<?xi32>
  %back = blk.load %out[%rows] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %s = blk.reduce sum %back axis 0 : tensor<?xf32> -> f32
  %sb = blk.splat %s [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %sb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}

// -----

// Reading the row block's value: a tile's length once walked.
// expected-error @+1 {{cannot stream the row of @reads_block: it reads the value of BLOCK (blk.constexpr), which is a tile's length once walked in tiles}}
func.func @reads_block(%out: !blk.ptr<f32> {blk.arg = #blk.arg<output "out", per_row>},
                       %x: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                       %n_rows: i32 {blk.arg = #blk.arg<rows>},
                       %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %row = blk.program_id x
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %v = blk.load %x[%cols] : !blk.ptr<f32>, tensor<?xi32> -> tensor<?xf32>
  %m = blk.reduce sum %v axis 0 : tensor<?xf32> -> f32
  %block = blk.constexpr BLOCK : i32
  %b = arith.sitofp %block : i32 to f32
  %r = arith.divf %m, %b : f32
  %here = blk.splat %row [1] : i32 -> tensor<1xi32>
  %rb = blk.splat %r [1] : f32 -> tensor<1xf32>
  blk.store %out[%here], %rb : !blk.ptr<f32>, tensor<1xi32>, tensor<1xf32>
  return
}
