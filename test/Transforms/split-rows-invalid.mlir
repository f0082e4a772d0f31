// RUN: softmax-opt %s -split-input-file -verify-diagnostics --blk-split-rows

// A program that walks its row in tiles holds no row to split.
// expected-error @+1 {{cannot split the rows of @walks_its_row: it loops (over its row, or over rows)}}
func.func @walks_its_row(%in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                         %n_rows: i32 {blk.arg = #blk.arg<rows>},
                         %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n_cols step %c1 : i32 {
    %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  }
  return
}

// -----

// Several rows a program.
// expected-error @+1 {{cannot split the rows of @rows_of_a_program: it declares row_splits or rows_per_program}}
func.func @rows_of_a_program(%n_rows: i32 {blk.arg = #blk.arg<rows>},
                             %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK, rows_per_program = ROWS>} {
  %rows = blk.arange 0 to ROWS : tensor<?xi32>
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  return
}

// -----

// A block whose length is another constant than the row's.
// expected-error @+1 {{cannot split the rows of @other_length: a block's length is 'TILE', not the row's block BLOCK}}
func.func @other_length(%n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %tile = blk.arange 0 to TILE : tensor<?xi32>
  return
}

// -----

// Nothing to meet for: no reduction of the row.
// expected-error @+1 {{cannot split the rows of @no_reduction: no blk.reduce combines its row}}
func.func @no_reduction(%n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  return
}

// -----

// A cluster of the kernel's own.
// expected-error @+1 {{cannot split the rows of @on_a_cluster: it runs on a cluster of 4 CTAs}}
func.func @on_a_cluster(%n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 4, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  return
}

// -----

// A reduction to i1 ("any"): scratch memory keeps f32, i32 and i64 partials.
// expected-error @+1 {{cannot split the rows of @any_positive: it reduces its row to i1, whose partials scratch memory does not keep (f32, i32 and i64 it does)}}
func.func @any_positive(%in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                        %n_rows: i32 {blk.arg = #blk.arg<rows>},
                        %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %n = blk.splat %n_cols [BLOCK] : i32 -> tensor<?xi32>
  %inside = arith.cmpi slt, %cols, %n : tensor<?xi32>
  %any = blk.reduce max %inside axis 0 : tensor<?xi1> -> i1
  return
}

// -----

// Rows and cols of 64 bits: the parts are counted in i32.
// expected-error @+1 {{cannot split the rows of @wide_rows: its rows and cols arguments are not both i32 (the parts are counted in i32)}}
func.func @wide_rows(%in: !blk.ptr<f32> {blk.arg = #blk.arg<input "x">},
                     %n_rows: i64 {blk.arg = #blk.arg<rows>},
                     %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %s = blk.reduce sum %cols axis 0 : tensor<?xi32> -> i32
  return
}

// -----

// The row block's value, which a split makes a part's length.
// expected-error @+1 {{cannot split the rows of @reads_the_block: it reads the value of BLOCK (blk.constexpr), which is a part's length once split}}
func.func @reads_the_block(%n_rows: i32 {blk.arg = #blk.arg<rows>},
                           %n_cols: i32 {blk.arg = #blk.arg<cols>})
    attributes {blk.kernel = #blk.kernel<num_warps = 4, row_block = BLOCK>} {
  %block = blk.constexpr BLOCK : i32
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  %s = blk.reduce sum %cols axis 0 : tensor<?xi32> -> i32
  return
}
