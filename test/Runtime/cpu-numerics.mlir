// Not MLIR: each RUN line has softmax-run specialize an example, JIT-compile
// it for the CPU (blk-to-cpu), run it on seeded random rows and compare it
// with the double-precision reference softmax. softmax-run exits non-zero
// when the relative L2 error exceeds 1e-5, when NaN positions differ from
// the reference, or when an element is left unwritten.
// --special puts -inf, all -inf, +inf, NaN, +-3e38 and tiny rows in.

// Fused: one row per program, BLOCK = the next power of two >= N.
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=1 --rows 1 --cols 1
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=4 --rows 5 --cols 3
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=128 --rows 7 --cols 100
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=1024 --rows 32 --cols 1000
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=4096 --rows 8 --cols 4096
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=8192 --rows 3 --cols 4097
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=16384 --rows 4 --cols 16000
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=128 --rows 9 --cols 100 --in-stride 128 --out-stride 128
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=1 --rows 14 --cols 1 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=4 --rows 14 --cols 3 --special
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --check --reference softmax --const BLOCK=1024 --rows 21 --cols 1000 --special

// Tiled: three passes over tiles of BLOCK columns, full and partial tiles.
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 1 --cols 1
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 3
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 100
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 1000
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 4096
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 3 --cols 4097
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=4096 --rows 4 --cols 1000
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=1024 --rows 2 --cols 30000 --in-stride 30016 --out-stride 30016
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=4 --rows 14 --cols 3 --special
// RUN: softmax-run %examples/softmax_tiled.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 21 --cols 1000 --special

// Online: two passes with a running (max, sum) per lane.
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 1 --cols 1
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 3
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 100
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 1000
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 6 --cols 4096
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 3 --cols 4097
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=4096 --rows 4 --cols 1000
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=1024 --rows 2 --cols 30000 --in-stride 30016 --out-stride 30016
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=4 --rows 14 --cols 3 --special
// RUN: softmax-run %examples/softmax_online.mlir --target cpu --check --reference softmax --const BLOCK=256 --rows 21 --cols 1000 --special

// Multirow: ROWS rows per program, ceil(M / ROWS) programs; the last
// program's rows past M are masked off.
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=4,BLOCK=1 --rows 3 --cols 1
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=4,BLOCK=4 --rows 5 --cols 3
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=4,BLOCK=128 --rows 9 --cols 100
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=8,BLOCK=256 --rows 17 --cols 200
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=2,BLOCK=1024 --rows 7 --cols 1000
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=2,BLOCK=4096 --rows 3 --cols 4096
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=4,BLOCK=128 --rows 5 --cols 100
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=4,BLOCK=128 --rows 9 --cols 100 --in-stride 112 --out-stride 112
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=4,BLOCK=4 --rows 14 --cols 3 --special
// RUN: softmax-run %examples/softmax_multirow.mlir --target cpu --check --reference softmax --const ROWS=4,BLOCK=128 --rows 21 --cols 100 --special

// Naive: five kernels run in order over shared scratch buffers.
// RUN: softmax-run %examples/softmax_naive.mlir --target cpu --check --reference softmax --rows 1 --cols 1
// RUN: softmax-run %examples/softmax_naive.mlir --target cpu --check --reference softmax --rows 9 --cols 1000 --in-stride 1003 --out-stride 1010
// RUN: softmax-run %examples/softmax_naive.mlir --target cpu --check --reference softmax --rows 14 --cols 37 --special
// RUN: softmax-run %examples/softmax_naive.mlir --target cpu --check --reference softmax --rows 8 --cols 300 --dtype bf16

// Split: rows cut into SPLITS parts, partials combined by a second kernel;
// some parts hold only the masked tail or nothing at all.
// RUN: softmax-run %examples/softmax_split.mlir --target cpu --check --reference softmax --rows 3 --cols 1
// RUN: softmax-run %examples/softmax_split.mlir --target cpu --check --reference softmax --rows 2 --cols 20000 --max-tile 4096
// RUN: softmax-run %examples/softmax_split.mlir --target cpu --check --reference softmax --rows 7 --cols 5000 --max-tile 1024 --special
// RUN: softmax-run %examples/softmax_split.mlir --target cpu --check --reference softmax --rows 2 --cols 9000 --const SPLITS=4,BLOCK=4096

// Persistent: any grid covers the rows.
// RUN: softmax-run %examples/softmax_persistent.mlir --target cpu --check --reference softmax --rows 13 --cols 100 --special

// A block too small for the row is refused before anything runs (it left
// columns unwritten); a constant softmax-run cannot derive must be given.
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --check --const BLOCK=512 --rows 2 --cols 1000 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not softmax-run %s.program --target cpu --check --rows 2 --cols 10 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// BLOCK: softmax_fused.mlir:{{[1-9][0-9]*}}:{{[0-9]+}}: error: row_block BLOCK = 512 covers 512 of the row's 1000 columns; a program that does not loop over its row must cover it
// UNKNOWN: error: the program uses compile-time constant 'WIDTH', which no kernel declares a role for (#blk.kernel's row_block, rows_per_program, row_splits or inner_block), so it cannot be derived from the problem; bind it explicitly (WIDTH=<value>)
