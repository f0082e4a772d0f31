// Not MLIR: on the GPU, a block holding a row (or a split row's part) is
// the fewest whole layout tiles (16-byte runs x 32 lanes x warps x CTAs)
// that cover it, with room for blk-peel-alignment's shift (a vector less
// one element) where the row is not a whole number of vectors; not the next
// power of two (Binding.h, tileRowBlocks). bf16 50256 on 8 CTAs of 4
// warps: 7 tiles of 8192; a softmax row of 16-bit data that is not a whole
// number of vectors (peeled) holds up to 128 elements a thread on a cluster
// (50257: 2 CTAs of 8 warps, 13 tiles of 4096; 100003 stays fused, on 4
// CTAs; 65535 would need 136, so 16 warps); f32 151936 kept on 8 CTAs of 8
// warps: 19 of 8192;
// 32767 f32 leaves no room in 32768, so it takes 17 tiles of 2048 (bf16:
// 9 tiles of 4096, also where a caller binds that block); a split
// row of 1048573 bf16 in 128 parts of 5 tiles of 2048 (8192 has no room).
// Powers of two, and rows within one tile (127 bf16 without room in 128
// still takes 128, not a tile of 1024), keep their blocks; the CPU, whose
// blocks are loops, keeps powers of two. A caller may bind the grown block.
// RUN: softmax-run auto --rows 2048 --cols 50257 --dtype bf16 --chip sm_90 --emit-ptx %t.ptx | FileCheck %s --check-prefix=WIDE
// RUN: softmax-run auto --rows 2048 --cols 50256 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=KEPT
// RUN: softmax-run auto --rows 333 --cols 100003 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=WIDE-LONG
// RUN: softmax-run auto --rows 4 --cols 65535 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=WIDE-CAPPED
// RUN: FileCheck %s --check-prefix=PEELED < %t.ptx
// RUN: softmax-run auto --rows 512 --cols 151936 --chip sm_90 --emit-ptx %t.f32.ptx | FileCheck %s --check-prefix=PADDED
// RUN: FileCheck %s --check-prefix=COPIED < %t.f32.ptx
// An f32 row stays on 16 CTAs of 4 warps, in registers, where 8 CTAs of 8
// warps could not keep it (262144: 128 KiB a CTA), and where the kernel
// loads in a loop (blk-async-fill does not copy there, so it is not kept).
// RUN: softmax-run auto --rows 256 --cols 262144 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=F32-FULL
// RUN: softmax-run softmax_persistent --rows 512 --cols 151936 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PADDED-LOOP
// A 16-bit row of a million held on a cluster (not split: --split-rows=never):
// on 8 CTAs of 16 warps a thread would hold 256 (refused), so a kept row's
// cap of 8 CTAs gives way to 16.
// RUN: softmax-run log_softmax --rows 8 --cols 1048576 --dtype bf16 --split-rows=never --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=MILLION
// RUN: softmax-run softmax_scaled_masked --rows 8 --cols 1048576 --dtype bf16 --const CAUSAL=1 --param scale=0.125,offset=0 --split-rows=never --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=MILLION
// MILLION: BLOCK=1048576 {{(CAUSAL=1 )?}}warps=16 ctas=16, grid 8
// With the shift's room, 1048573 bf16 would be 136 a thread on 16 x 16:
// twice the warps.
// RUN: softmax-run softmax_backward --rows 8 --cols 1048573 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=MILLION-ROOM
// MILLION-ROOM: BLOCK=1179648 warps=32 ctas=16, grid 8
// Nor where the row would not be copied, and so not kept: rows starting
// off the 16-byte grid (an odd stride), copies off or asking more runs, a
// stage-min-registers above its 76 a thread, a mask other than the row
// length (softmax_scaled_masked), or a caller's block too large for 8 CTAs.
// RUN: softmax-run log_softmax --rows 512 --cols 151936 --in-stride 151937 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PADDED-LOOP
// RUN: softmax-run log_softmax --rows 512 --cols 151936 --async-fill-min-runs 0 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PADDED-LOOP
// RUN: softmax-run log_softmax --rows 512 --cols 151936 --async-fill-min-runs 24 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PADDED-LOOP
// RUN: softmax-run log_softmax --rows 512 --cols 151936 --stage-min-registers 100 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PADDED-LOOP
// RUN: softmax-run softmax_scaled_masked --rows 512 --cols 151936 --const CAUSAL=1 --param scale=0.125,offset=0 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=MASKED
// RUN: softmax-run log_softmax --rows 512 --cols 151936 --const BLOCK=262144 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=CALLER-BLOCK-FULL
// 262143 f32 with its shift's room would be 132 a thread on 16 x 4: 8 warps.
// An f32 row alone takes 8 CTAs of 4 warps up to 100 elements a thread
// (102400), not past them (102404: 104), nor where the caller binds BLOCK.
// RUN: softmax-run auto --rows 333 --cols 100000 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=F32-FOUR-WARPS
// RUN: softmax-run auto --rows 333 --cols 102400 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=F32-FOUR-WARPS
// RUN: softmax-run auto --rows 333 --cols 102404 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=F32-PAST-100
// RUN: softmax-run %examples/softmax_fused.mlir --rows 333 --cols 100000 --const BLOCK=131072 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=F32-CALLER-BLOCK
// RUN: softmax-run auto --rows 512 --cols 131072 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=F32-EIGHT-WARPS
// RUN: softmax-run auto --rows 4 --cols 262143 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=PADDED-ROOM
// An aligned 16-bit softmax row kept in shared memory is on CTAs of 8
// warps (151936 and 262144: 8 of 16; 262144 then keeps 16 runs a thread,
// copied by cp.async), then fewer CTAs while a thread keeps fewer than 64
// elements (40000: 2 of 4) and a CTA's share fits the chip's kept-row
// shared memory (sm_120's 99 KiB keeps 50256 on 4), and stays fused to
// 262144.
// RUN: softmax-run auto --rows 256 --cols 262144 --dtype bf16 --chip sm_90 --emit-ptx %t.kept262k.ptx | FileCheck %s --check-prefix=KEPT-262144
// RUN: FileCheck %s --check-prefix=COPIED < %t.kept262k.ptx
// RUN: softmax-run auto --rows 333 --cols 50256 --dtype bf16 --chip sm_120 --emit-ptx %t.kept.ptx | FileCheck %s --check-prefix=KEPT-SM120
// RUN: FileCheck %s --check-prefix=KEPT-PTX < %t.kept.ptx
// RUN: softmax-run auto --rows 512 --cols 151936 --dtype bf16 --chip sm_90 --emit-ptx %t.kept.ptx | FileCheck %s --check-prefix=KEPT-PADDED
// RUN: FileCheck %s --check-prefix=KEPT-PTX < %t.kept.ptx
// RUN: softmax-run auto --rows 4096 --cols 40000 --dtype bf16 --chip sm_90 --emit-ptx %t.kept.ptx | FileCheck %s --check-prefix=KEPT-FEWER-CTAS
// RUN: FileCheck %s --check-prefix=KEPT-PTX < %t.kept.ptx
// RUN: softmax-run auto --rows 333 --cols 100000 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=KEPT-100000
// A caller's 4 warps would hold 152 a thread on the kept row's 8 CTAs: 16.
// RUN: softmax-run %examples/softmax_fused.mlir --rows 4 --cols 151936 --dtype bf16 --num-warps 4 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=KEPT-CALLER-WARPS
// RUN: softmax-run auto --rows 64 --cols 32767 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=ROOM
// RUN: softmax-run auto --rows 64 --cols 32767 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=WIDE-ROOM
// RUN: softmax-run auto --rows 64 --cols 1048573 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=SPLIT
// RUN: softmax-run auto --rows 64 --cols 1048576 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=SPLIT-POW2
// RUN: softmax-run auto --rows 64 --cols 65536 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=POW2
// RUN: softmax-run %examples/softmax_fused.mlir --rows 64 --cols 100 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=SHORT
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 64 --cols 50257 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=CLUSTER
// RUN: softmax-run %examples/softmax_fused.mlir --rows 64 --cols 127 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=WITHIN-TILE
// RUN: softmax-run %examples/softmax_fused.mlir --rows 64 --cols 32767 --dtype bf16 --const BLOCK=36864 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=WIDE-ROOM
// Such rows past 24576 columns with their room and up to 32768 run on 2
// CTAs of 4 warps instead of one CTA of 16 (32001: 8 tiles of 4096, 24577:
// 13 of 2048); 24001 (48 elements a thread on one CTA) stays on one.
// RUN: softmax-run auto --rows 64 --cols 32001 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=TWO-CTAS
// RUN: softmax-run auto --rows 64 --cols 24577 --dtype f16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=TWO-CTAS-SHORT
// RUN: softmax-run auto --rows 64 --cols 24001 --dtype bf16 --chip sm_90 --emit-ptx /dev/null | FileCheck %s --check-prefix=ONE-CTA
// RUN: softmax-run auto --rows 2 --cols 50257 --dtype bf16 --target cpu | FileCheck %s --check-prefix=CPU
// RUN: softmax-run %examples/softmax_fused.mlir --rows 2 --cols 50257 --dtype bf16 --chip sm_90 --const BLOCK=65536 --num-ctas 8 --emit-ptx /dev/null | FileCheck %s --check-prefix=BOUND
// CLUSTER: BLOCK=57344 ctas=8,
// An aligned softmax row keeps its row in shared memory on CTAs of 8 warps
// (16384 elements each), at least 64 elements a thread: 50256 on 2 CTAs (104
// a thread), not 4 (56).
// KEPT: BLOCK=53248 warps=8 ctas=2,
// TWO-CTAS: BLOCK=32768 ctas=2,
// TWO-CTAS-SHORT: BLOCK=26624 ctas=2,
// ONE-CTA: BLOCK=24576 warps=16,
// WIDE: softmax_fused.mlir
// WIDE-SAME: 2048 x 50257 bf16
// WIDE: BLOCK=53248 warps=8 ctas=2,
// WIDE-LONG: softmax_fused.mlir
// WIDE-LONG: BLOCK=106496 warps=8 ctas=4,
// WIDE-CAPPED: BLOCK=73728 warps=16 ctas=2,
// PEELED: ld.global.v4.b32
// PADDED: BLOCK=155648 warps=8 ctas=8,
// COPIED: blk_dynamic_shared
// COPIED: cp.async.cg.shared.global
// F32-FULL: BLOCK=262144 ctas=16,
// PADDED-LOOP: BLOCK=155648 ctas=16,
// CALLER-BLOCK-FULL: BLOCK=262144 ctas=16,
// MASKED: BLOCK=155648 CAUSAL=1 ctas=16,
// KEPT-262144: BLOCK=262144 warps=8 ctas=8,
// F32-FOUR-WARPS: BLOCK=102400 ctas=8,
// F32-PAST-100: BLOCK=106496 warps=8 ctas=8,
// F32-CALLER-BLOCK: BLOCK=131072 warps=8 ctas=8,
// F32-EIGHT-WARPS: BLOCK=131072 warps=8 ctas=8,
// KEPT-SM120: BLOCK=57344 warps=8 ctas=4,
// PADDED-ROOM: BLOCK=278528 warps=8 ctas=16,
// KEPT-PADDED: softmax_fused.mlir
// KEPT-PADDED: BLOCK=163840 warps=8 ctas=8,
// KEPT-FEWER-CTAS: BLOCK=40960 warps=8 ctas=2,
// KEPT-100000: softmax_fused.mlir
// KEPT-100000: BLOCK=106496 warps=8 ctas=4,
// KEPT-PTX: blk_dynamic_shared
// KEPT-CALLER-WARPS: BLOCK=163840 warps=4 ctas=16,
// ROOM: BLOCK=34816 warps=16,
// WIDE-ROOM: BLOCK=36864 warps=16,
// SPLIT: BLOCK=10240 SPLITS=128,
// SPLIT-POW2: BLOCK=8192 SPLITS=128,
// POW2: BLOCK=65536 warps=8 ctas=4,
// SHORT: BLOCK=128,
// WITHIN-TILE: BLOCK=128,
// CPU: BLOCK=8192 SPLITS=8,
// BOUND: BLOCK=65536 ctas=8,
