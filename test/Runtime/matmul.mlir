// A product's problem, M x N x K (--rows, --cols, --inner): A of rows x
// inner and B of inner x cols (#blk.arg's rows_by_inner and
// inner_by_cols), each tensor with its own row stride, bound by the product
// rules (a tile of C a program; Binding.h) and checked on the CPU against
// the float64 matmul reference (blk/Runtime/Reference.h: the kernel is
// named @matmul). test/GPU/dot.mlir runs python-free-examples/matmul.mlir
// on the GPU.
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 100 --cols 70 --inner 50 --check | FileCheck %s --check-prefix=CPU
// CPU: matmul.mlir: 100 x 70 x 50 (M x N x K) f32
// CPU: target: CPU (JIT), BLOCK=64 KT=32 ROWS=32 SPLITS=2 warps=4, grid 8,
// CPU: check: {{.*}} unwritten=0  OK (relative L2 tolerance {{.*}}, against the float64 matmul reference)
// The shape from the operands' files alone: A 3 x 20 and B 20 x 5 give
// M = 3, N = 5, K = 20; a B of 19 rows does not multiply.
// RUN: rm -rf %t.npy.d && mkdir -p %t.npy.d && python3 %S/Inputs/make-npy.py %t.npy.d
// RUN: softmax-run %examples/matmul.mlir --target cpu --input a=%t.npy.d/mm-a.npy --input b=%t.npy.d/mm-b.npy --check | FileCheck %s --check-prefix=FILES
// FILES: matmul.mlir: 3 x 5 x 20 (M x N x K) f32
// FILES: OK (relative L2 tolerance
// RUN: not softmax-run %examples/matmul.mlir --target cpu --input a=%t.npy.d/mm-a.npy --input b=%t.npy.d/mm-b19.npy 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: softmax-run: the operands do not multiply: {{.*}}mm-a.npy is 3 x 20 (M x K) and {{.*}}mm-b19.npy is 19 x 5 (K x N)
// One row, K not a multiple of anything; bf16; strided rows of A and C;
// special values in A (rows of NaN, +-inf and both, zeros, 1e15: what torch
// defines for a product whatever the order of its sums) in f32, bf16, f16:
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 1 --cols 300 --inner 17 --check | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 37 --cols 129 --inner 200 --dtype bf16 --check | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 37 --cols 129 --inner 200 --in-stride 210 --out-stride 130 --check --special | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 37 --cols 129 --inner 200 --dtype bf16 --check --special | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 37 --cols 129 --inner 200 --dtype f16 --check --special | FileCheck %s --check-prefix=OK
// The reference needs the product's shapes: a square program's matrices are
// not A and B.
// RUN: not softmax-run %S/../GPU/Inputs/matmul_square.mlir --target cpu --rows 10 --cols 10 --check --reference matmul 2>&1 | FileCheck %s --check-prefix=CONTRACT
// CONTRACT: softmax-run: --reference matmul: a matmul kernel has input 'a' as a rows_by_inner of floats, but the program declares it an input matrix of f32
// OK: check: {{.*}} unwritten=0  OK
//
// Files take the operands' shapes: C written, then expected by a second run
// of the same seed; C's 20 x 30 is not A's 20 x 40.
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 20 --cols 30 --inner 40 --seed 3 --output c=%t.c.npy
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 20 --cols 30 --inner 40 --seed 3 --expect c=%t.c.npy | FileCheck %s --check-prefix=OK
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 20 --cols 30 --inner 40 --input a=%t.c.npy 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: softmax-run: --input a={{.*}}: the file holds 20 x 30 values, but 'a' is 20 x 40
//
// The rules on the GPU's chips (PTX only): 128 x 256 x 64 on 8 warps with 3
// stages on sm_90a, any number of column tiles (11008 / 256: 43); 64 x 64
// on 4 warps where M <= 64; 2 stages with mma.sync (sm_80).
// RUN: softmax-run %examples/matmul.mlir --rows 4096 --cols 11008 --inner 4096 --dtype bf16 --chip sm_90a --emit-ptx %t.wide.ptx | FileCheck %s --check-prefix=WIDE
// WIDE: PTX for sm_90a, BLOCK=256 KT=64 ROWS=128 SPLITS=43 warps=8 stages=3, grid 1376:
// RUN: FileCheck %s --check-prefix=TMA < %t.wide.ptx
// TMA-NOT: ld.global
// TMA: cp.async.bulk.tensor.2d.shared::cluster.global
// TMA: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// RUN: softmax-run %examples/matmul.mlir --rows 1 --cols 4096 --inner 4096 --dtype bf16 --chip sm_90a --emit-ptx %t.row.ptx | FileCheck %s --check-prefix=ROW
// ROW: PTX for sm_90a, BLOCK=64 KT=64 ROWS=64 SPLITS=64 warps=4 stages=3, grid 64:
// RUN: softmax-run %examples/matmul.mlir --rows 4096 --cols 4096 --inner 4096 --dtype f16 --chip sm_80 --emit-ptx %t.sm80.ptx | FileCheck %s --check-prefix=SM80
// SM80: PTX for sm_80, BLOCK=256 KT=64 ROWS=128 SPLITS=16 warps=8 stages=2, grid 512:
//
// Problems that do not fit the program, and bindings that do not cover C:
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 10 --cols 10 2>&1 | FileCheck %s --check-prefix=NO-INNER
// NO-INNER: matmul.mlir:{{[0-9]+}}:1: error: the program multiplies along an inner dimension (an `inner` argument or a rows_by_inner / inner_by_cols tensor), but the problem gives it as 0; give it at least 1
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 10 --cols 10 --inner 5 2>&1 | FileCheck %s --check-prefix=NO-PRODUCT
// NO-PRODUCT: softmax_fused.mlir:{{[0-9]+}}:1: error: the problem gives an inner dimension of 5, but no kernel of the program takes one
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 10 --cols 10 --inner 0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: softmax-run: --inner must be at least 1, not 0
// RUN: not softmax-run %examples/matmul.mlir --target cpu --input %t.c.npy --inner 4 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: softmax-run: a product's shape is given with --rows M --cols N --inner K (its operands as --input NAME=FILE)
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 10 --cols 100 --inner 50 --in-stride 40 2>&1 | FileCheck %s --check-prefix=STRIDE
// STRIDE: error: the row stride of "a" (40) is less than the row length (50)
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 10 --cols 100 --inner 10 --const SPLITS=1 2>&1 | FileCheck %s --check-prefix=SPLITS
// SPLITS: error: row_splits SPLITS = 1 x row_block BLOCK = 64 must cover the 100 columns of C with no program past them: row_splits = 2
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 10 --cols 100 --inner 10 --const ROWS=48 2>&1 | FileCheck %s --check-prefix=POW2
// POW2: error: constant ROWS = 48 sizes a block of a product's tile, so it must be a power of two
