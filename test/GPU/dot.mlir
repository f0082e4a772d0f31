// REQUIRES: cuda-gpu
// blk.dot on the GPU (convert-blk-to-gpu's DotOp.cpp), checked against the
// program run in float64: the square matmul of Inputs/matmul_square.mlir,
// each program ROWS rows of C, its K loop feeding 16-wide tiles to blk.dot.
// f32 data takes f32 multiplies and adds; bf16 and f16 data with ROWS a multiple of 16
// take mma.sync (m16n8k16, f32 accumulators); odd N masks the edges of
// every tile (zeros in A and B), so 100, 129 and 255 check the padding. A
// failed check exits non-zero.
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 100 --cols 100 --check
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 37 --cols 37 --check --special
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 1 --cols 1 --check
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 256 --cols 256 --const ROWS=16 --check
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 64 --cols 64 --dtype bf16 --const ROWS=16 --check
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 100 --cols 100 --dtype bf16 --const ROWS=16 --check
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 255 --cols 255 --dtype bf16 --const ROWS=32 --check
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 512 --cols 512 --dtype bf16 --const ROWS=16 --check
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 129 --cols 129 --dtype f16 --const ROWS=16 --check --special
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --rows 64 --cols 64 --dtype bf16 --check
// f32 inputs multiplied as tf32 (the tiled matmul's dot made `precision
// tf32`): mma.sync m16n8k8 on sm_80+ (each input rounded by cvt.rna; the
// rules' 128 x 128 x 32 tile on 8 warps, and a 32 x 64 x 32 one), f32
// products of inputs rounded in arith on sm_75; checked against the
// program in float64, which rounds them the same way. Against the float64
// matmul reference (no rounding) the same outputs must fail.
// RUN: sed -e 's/%acc_in :/%acc_in precision tf32 :/' %examples/matmul.mlir > %t.tf32.mlir
// RUN: softmax-run %t.tf32.mlir --target gpu --rows 300 --cols 200 --inner 100 --check
// RUN: softmax-run %t.tf32.mlir --target gpu --rows 333 --cols 129 --inner 77 --check --special
// RUN: softmax-run %t.tf32.mlir --target gpu --chip sm_80 --rows 256 --cols 256 --inner 256 --check
// RUN: softmax-run %t.tf32.mlir --target gpu --rows 300 --cols 200 --inner 100 --const ROWS=32,BLOCK=64,KT=32 --num-warps 4 --check
// RUN: softmax-run %t.tf32.mlir --target gpu --chip sm_75 --rows 100 --cols 100 --inner 100 --check
// RUN: not softmax-run %t.tf32.mlir --target gpu --rows 300 --cols 200 --inner 100 --check --reference matmul
// Ties away from zero, as cvt.rna rounds (test/Runtime/dot-tf32.mlir):
// RUN: rm -rf %t.npy.d && mkdir -p %t.npy.d && python3 %S/../Runtime/Inputs/make-npy.py %t.npy.d
// RUN: softmax-run %t.tf32.mlir --target gpu --rows 16 --cols 16 --inner 16 --input a=%t.npy.d/tf32-tie-a.npy --input b=%t.npy.d/tf32-identity.npy --expect c=%t.npy.d/tf32-tie-c.npy
// RUN: softmax-run %t.tf32.mlir --target gpu --rows 16 --cols 16 --inner 16 --input a=%t.npy.d/tf32-edges-a.npy --input b=%t.npy.d/tf32-identity.npy --check
// sm_80 code (mma.sync without anything of sm_90) on this GPU:
// RUN: softmax-run %S/Inputs/matmul_square.mlir --target gpu --chip sm_80 --rows 100 --cols 100 --dtype bf16 --const ROWS=16 --check
// The tiled matmul's sm_80 code with the rules' tile (128 x 256 x 64, 8
// warps as 2 x 4 mma fragments, C stored through a blk.convert_layout), and
// a 4-warp tile:
// RUN: softmax-run %examples/matmul.mlir --target gpu --chip sm_80 --rows 1000 --cols 520 --inner 777 --dtype bf16 --check --special
// RUN: softmax-run %examples/matmul.mlir --target gpu --chip sm_80 --rows 300 --cols 200 --inner 100 --dtype f16 --const ROWS=64,BLOCK=64,KT=32 --num-warps 4 --check
// The tiled matmul (python-free-examples/matmul.mlir, M x N x K): a ROWS x
// BLOCK tile of C a program, its K loop in steps of KT; edges masked in M,
// N and K.
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 100 --cols 100 --inner 100 --const ROWS=16,BLOCK=32,KT=32 --check --special
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 1000 --cols 600 --inner 300 --dtype bf16 --const ROWS=64,BLOCK=128,KT=32 --num-warps 4 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 333 --cols 333 --inner 333 --dtype f16 --const ROWS=128,BLOCK=64,KT=32 --num-warps 8 --check
// The binding rules' tile (128 x 256 x 64 on 8 warps, 3 stages on sm_90a;
// 64 x 64 on 4 warps for M <= 64) with special values in A against the
// float64 matmul reference, and rows of A and C with strides (16-byte
// multiples: copied ahead; 501: loads through registers):
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 300 --cols 1000 --inner 520 --dtype bf16 --check --special
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 1 --cols 1000 --inner 1000 --dtype bf16 --check
// Few rows whose programs leave SMs idle take deeper K steps (256 where
// they are at most the SMs, 128 where at most twice): K a whole number of
// steps, K ending inside a step, and 64 rows of f16 with special values.
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 1 --cols 4096 --inner 4096 --dtype bf16 --check --verbose > %t.deep.log
// RUN: grep -q "KT=256" %t.deep.log
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 3 --cols 4000 --inner 1000 --dtype bf16 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 64 --cols 11000 --inner 777 --dtype f16 --check --special --verbose > %t.deeper.log
// RUN: grep -q "KT=128" %t.deeper.log
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 200 --cols 300 --inner 512 --in-stride 520 --out-stride 320 --dtype f16 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 200 --cols 300 --inner 500 --in-stride 501 --dtype bf16 --check
// K steps of 64 with the loads of the next step issued during this one. On
// an H100 or H200 (compute capability 9.0) the device's chip is sm_90a, and
// a tile whose warps make whole warpgroups along M, N a multiple of 64 up
// to 256 and K a multiple of 64 takes wgmma (m64nNk16): one tile a group,
// two tiles a group (256 rows), 256 columns, two K panels (KT=128), f16
// with special values; --chip sm_90 keeps mma.sync on the same tile.
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 500 --cols 500 --inner 500 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --num-stages 2 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 1000 --cols 520 --inner 777 --dtype bf16 --const ROWS=256,BLOCK=128,KT=64 --num-warps 8 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 999 --cols 999 --inner 999 --dtype f16 --const ROWS=64,BLOCK=256,KT=64 --num-warps 4 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 777 --cols 777 --inner 777 --dtype bf16 --const ROWS=128,BLOCK=128,KT=128 --num-warps 8 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 129 --cols 129 --inner 129 --dtype f16 --const ROWS=128,BLOCK=64,KT=64 --num-warps 4 --check --special
// After static shared memory (a reduction's buffer of 512 bytes), the
// dynamic shared memory's start is rounded up to the 1024 bytes wgmma's
// panels need:
// RUN: softmax-run %S/Inputs/matmul_static_shared.mlir --target gpu --rows 300 --cols 300 --dtype bf16 --const ROWS=64,BLOCK=128,KT=64 --num-warps 4 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --chip sm_90 --rows 500 --cols 500 --inner 500 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --num-stages 2 --check
// With num_stages >= 3 and rows of whole 16-byte runs (N a multiple of 8),
// blk-pipeline-dot-operands copies A and B with cp.async straight into
// rings of num_stages swizzled buffers, num_stages - 1 K steps ahead (at 4
// stages 2, the products left in flight), and blk.warpgroup_dot
// multiplies from there: exact tiles, masked edges in M, N and K (1000,
// 136), 3 and 4 stages, two tiles a warpgroup (256 rows),
// two K panels (KT=128), f16 with special values, fewer K steps than
// stages ahead (72: two steps), after static shared memory:
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 512 --cols 512 --inner 512 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --num-stages 3 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 1000 --cols 700 --inner 2000 --dtype bf16 --const ROWS=128,BLOCK=256,KT=64 --num-warps 8 --num-stages 3 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 300 --cols 1000 --inner 1000 --dtype f16 --const ROWS=64,BLOCK=128,KT=64 --num-warps 4 --num-stages 4 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 776 --cols 776 --inner 776 --dtype bf16 --const ROWS=256,BLOCK=128,KT=64 --num-warps 8 --num-stages 3 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 776 --cols 776 --inner 776 --dtype bf16 --const ROWS=128,BLOCK=128,KT=128 --num-warps 8 --num-stages 3 --check
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 136 --cols 136 --inner 136 --dtype f16 --const ROWS=128,BLOCK=64,KT=64 --num-warps 4 --num-stages 3 --check --special
// RUN: softmax-run %examples/matmul.mlir --target gpu --rows 72 --cols 72 --inner 72 --dtype bf16 --const ROWS=64,BLOCK=64,KT=64 --num-warps 4 --num-stages 4 --check
// RUN: softmax-run %S/Inputs/matmul_static_shared.mlir --target gpu --rows 304 --cols 304 --dtype bf16 --const ROWS=64,BLOCK=128,KT=64 --num-warps 4 --num-stages 3 --check
