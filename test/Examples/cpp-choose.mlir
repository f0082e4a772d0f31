// python-free-examples/cpp/choose_program.cpp picks the built-in program for
// a shape with mlir::blk::chooseSoftmaxProgram, binds it with
// mlir::blk::chooseSpecialization and compiles it: the library's automatic
// choice, as softmax-run makes it.
// RUN: blk-choose-program 4096 100 f32 | FileCheck %s --check-prefix=SHORT
// RUN: blk-choose-program 1024 65536 f32 --chip=sm_90 | FileCheck %s --check-prefix=CLUSTER
// RUN: blk-choose-program 1024 65536 bf16 --chip=sm_90 | FileCheck %s --check-prefix=CLUSTER16
// RUN: blk-choose-program 1024 65536 f32 --chip=sm_80 | FileCheck %s --check-prefix=NOCLUSTER
// RUN: blk-choose-program 64 1048576 f32 --chip=sm_90 | FileCheck %s --check-prefix=RESIDENT
// RUN: blk-choose-program 64 1048576 f32 --chip=sm_90 --multiprocessors=64 | FileCheck %s --check-prefix=RESIDENT
// A MIG slice of 42 SMs keeps 84 programs, not a 2^20-column row's 128 parts.
// RUN: blk-choose-program 64 1048576 f32 --chip=sm_90 --multiprocessors=42 | FileCheck %s --check-prefix=SPLITMIG
// RUN: blk-choose-program 64 524288 f32 --chip=sm_90 --multiprocessors=42 | FileCheck %s --check-prefix=RESIDENTMIG
// 1000000 columns are 123 parts, bound as SPLITS = 128: 62 SMs keep 124.
// RUN: blk-choose-program 64 1000000 f32 --chip=sm_90 --multiprocessors=62 | FileCheck %s --check-prefix=SPLITMIG1M
// RUN: blk-choose-program 64 1048576 bf16 --chip=sm_90 | FileCheck %s --check-prefix=SPLIT16
// RUN: blk-choose-program 8 100000 bf16 --chip=sm_90 --multiprocessors=132 | FileCheck %s --check-prefix=FEWROWS
// RUN: blk-choose-program 8 100000 bf16 --chip=sm_90 | FileCheck %s --check-prefix=FEWROWS-UNKNOWN
// RUN: blk-choose-program 333 100000 bf16 --chip=sm_90 --multiprocessors=132 | FileCheck %s --check-prefix=FEWROWS-UNKNOWN
// RUN: blk-choose-program 66 100000 bf16 --chip=sm_90 --multiprocessors=132 | FileCheck %s --check-prefix=FEWROWS66
// RUN: blk-choose-program 67 100000 bf16 --chip=sm_90 --multiprocessors=132 | FileCheck %s --check-prefix=FEWROWS-UNKNOWN
// RUN: blk-choose-program 64 1048576 f32 --chip=sm_80 | FileCheck %s --check-prefix=SPLIT80
// RUN: blk-choose-program 64 2097152 f32 --chip=sm_90 | FileCheck %s --check-prefix=SPLIT2M
// RUN: blk-choose-program 200 300001 f32 --chip=sm_90 | FileCheck %s --check-prefix=SPLITODD
// RUN: not blk-choose-program 0 10 2>&1 | FileCheck %s --check-prefix=BAD

// SHORT: softmax_multirow.mlir for 4096 x 100 f32 on sm_90: BLOCK=128 ROWS=4, grid 1024
// SHORT: kernel softmax_multirow: 128 threads x 1 CTAs, 1 16-byte loads, 0 16-byte copies to shared memory, 1 16-byte stores
// CLUSTER: softmax_fused.mlir for 1024 x 65536 f32 on sm_90: BLOCK=65536 warps=8 ctas=4, grid 1024
// CLUSTER: kernel softmax_fused: 256 threads x 4 CTAs, 0 16-byte loads, 16 16-byte copies to shared memory, 16 16-byte stores
// CLUSTER16: softmax_fused.mlir for 1024 x 65536 bf16 on sm_90: BLOCK=65536 warps=8 ctas=4, grid 1024
// CLUSTER16: kernel softmax_fused: 256 threads x 4 CTAs
// NOCLUSTER: softmax_split.mlir for 1024 x 65536 f32 on sm_80: BLOCK=8192 SPLITS=8, grid 8192
// NOCLUSTER: kernel partials
// NOCLUSTER: kernel normalize
// RESIDENT: softmax_split_resident.mlir for 64 x 1048576 f32 on sm_90: BLOCK=8192 SPLITS=128, grid 8192
// RESIDENT: kernel softmax_split_resident: 256 threads x 1 CTAs
// SPLITMIG: softmax_split.mlir for 64 x 1048576 f32 on sm_90: BLOCK=8192 SPLITS=128
// RESIDENTMIG: softmax_split_resident.mlir for 64 x 524288 f32 on sm_90: BLOCK=8192 SPLITS=64
// SPLITMIG1M: softmax_split.mlir for 64 x 1000000 f32 on sm_90
// 8 rows of a kept 100000-column row keep the rule's 8 CTAs where 132 SMs
// would otherwise idle: up to 66 rows, whose 4 fitted CTAs would be at most
// two an SM; with the SMs unknown, or 67 rows and more, the row takes 4
// CTAs, 104 elements a thread.
// FEWROWS66: BLOCK=114688 warps=8 ctas=8, grid 66
// FEWROWS: softmax_fused.mlir for 8 x 100000 bf16 on sm_90: BLOCK=114688 warps=8 ctas=8, grid 8
// FEWROWS-UNKNOWN: BLOCK=106496 warps=8 ctas=4,
// SPLIT16: softmax_split.mlir for 64 x 1048576 bf16 on sm_90: BLOCK=8192 SPLITS=128
// SPLIT80: softmax_split.mlir for 64 x 1048576 f32 on sm_80: BLOCK=8192 SPLITS=128
// SPLIT2M: softmax_split.mlir for 64 x 2097152 f32 on sm_90: BLOCK=8192 SPLITS=256
// SPLITODD: softmax_split.mlir for 200 x 300001 f32 on sm_90
// BAD: error: the problem must have at least one row and one column, but is 0 x 10

// blk-choose-program compiles exactly what softmax-run auto compiles for the
// same problem and chip: the same program, binding and PTX (both go through
// the compile driver: chooseBuiltinSoftmax, fitProgram, chooseBinding,
// compileProgram).
// RUN: blk-choose-program 4096 100 f32 --ptx %t.short.choose.ptx > /dev/null
// RUN: softmax-run auto --rows 4096 --cols 100 --chip sm_90 --emit-ptx %t.short.run.ptx | FileCheck %s --check-prefix=RUN-SHORT
// RUN: diff %t.short.choose.ptx %t.short.run.ptx
// RUN: blk-choose-program 1024 65536 bf16 --ptx %t.cluster.choose.ptx > /dev/null
// RUN: softmax-run auto --rows 1024 --cols 65536 --dtype bf16 --chip sm_90 --emit-ptx %t.cluster.run.ptx | FileCheck %s --check-prefix=RUN-CLUSTER
// RUN: diff %t.cluster.choose.ptx %t.cluster.run.ptx
// RUN: blk-choose-program 1024 65536 f32 --chip=sm_80 --ptx %t.split.choose.ptx > /dev/null
// RUN: softmax-run auto --rows 1024 --cols 65536 --chip sm_80 --emit-ptx %t.split.run.ptx > /dev/null
// RUN: diff %t.split.choose.ptx %t.split.run.ptx
// RUN-SHORT: softmax_multirow.mlir: 4096 x 100 f32 (auto)
// RUN-SHORT: PTX for sm_90, BLOCK=128 ROWS=4, grid 1024
// RUN-CLUSTER: softmax_fused.mlir: 1024 x 65536 bf16 (auto)
// RUN-CLUSTER: PTX for sm_90, BLOCK=65536 warps=8 ctas=4, grid 1024
