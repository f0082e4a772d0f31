// blk.dot (a x b + acc on 2-D blocks) on the CPU: a square matmul whose K
// loop feeds 16-wide tiles of A and B to blk.dot, checked against the
// program run in float64 (the interpreter's dot: sums in double); odd N
// (masked edges), one row, bf16 data. test/GPU/dot.mlir runs it on the GPU.
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --target cpu --rows 100 --cols 100 --check | FileCheck %s
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --target cpu --rows 37 --cols 37 --check --special | FileCheck %s
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --target cpu --rows 1 --cols 1 --check | FileCheck %s
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --target cpu --rows 64 --cols 64 --dtype bf16 --check | FileCheck %s
// The tiled matmul (a tile of C a program, ROWS x BLOCK, the grid over M
// and N: rows_per_program x row_splits):
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 100 --cols 100 --inner 100 --const ROWS=16,BLOCK=32,KT=32 --check --special | FileCheck %s
// RUN: softmax-run %examples/matmul.mlir --target cpu --rows 200 --cols 200 --inner 200 --dtype bf16 --const ROWS=64,BLOCK=64,KT=32 --check | FileCheck %s
// CHECK: check: {{.*}} OK (relative L2 tolerance {{.*}}, against {{the program in float64|the float64 matmul reference}})
//
// The PTX: bf16 or f16 data with 16 rows a program takes mma.sync on sm_80+
// (the dot takes the 16-bit blocks blk-storage-type widens: the fold of
// IR/canonicalize.mlir); f32 data, or sm_75, f32 multiplies and adds, each product rounded as
// blk.dot defines it (no fma; Conversion/blk-to-gpu-dot.mlir
// shows the IR).
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --rows 64 --cols 64 --dtype bf16 --const ROWS=16 --chip sm_90 --emit-ptx %t.bf16.ptx
// RUN: FileCheck %s --check-prefix=MMA-BF16 < %t.bf16.ptx
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --rows 100 --cols 100 --dtype f16 --const ROWS=32 --chip sm_80 --emit-ptx %t.f16.ptx
// RUN: FileCheck %s --check-prefix=MMA-F16 < %t.f16.ptx
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --rows 64 --cols 64 --chip sm_90 --emit-ptx %t.f32.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t.f32.ptx
// RUN: softmax-run %S/../GPU/Inputs/matmul_square.mlir --rows 64 --cols 64 --dtype f16 --const ROWS=16 --chip sm_75 --emit-ptx %t.sm75.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t.sm75.ptx
// On sm_90a (what an H100 or H200 compiles for) a tile whose warps make
// whole warpgroups along M takes wgmma (Conversion/blk-to-gpu-wgmma.mlir
// shows the IR): its operands in 1024-byte-aligned dynamic shared memory,
// fenced for the asynchronous proxy; B transposed (the last 1).
// RUN: softmax-run %examples/matmul.mlir --rows 512 --cols 512 --inner 512 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --chip sm_90a --tensor-maps=false --emit-ptx %t.wgmma.ptx
// RUN: FileCheck %s --check-prefix=WGMMA < %t.wgmma.ptx
// WGMMA: .target sm_90a
// WGMMA: .extern .shared .align 1024 .b8 blk_dynamic_shared[];
// WGMMA: fence.proxy.async.shared::cta;
// WGMMA: wgmma.fence.sync.aligned;
// WGMMA-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA: wgmma.wait_group.sync.aligned 0;
// WGMMA-NOT: mma.sync
// With num_stages = 3 and rows of whole 16-byte runs (and tensor maps
// off), blk-pipeline-dot-operands copies A and B by cp.async straight into
// rings of swizzled buffers (Transforms/pipeline-dot-operands.mlir shows
// the IR): two groups
// of copies before the loop; in it, the wait for this step's group, the
// fence and barrier, the products left in flight (wait 1), a second
// barrier (another warpgroup's products of the step before may still read
// the slot), then the copies two steps ahead (the source size 0 where
// masked off); no operand passes through registers.
// RUN: softmax-run %examples/matmul.mlir --rows 512 --cols 512 --inner 512 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --num-stages 3 --chip sm_90a --tensor-maps=false --emit-ptx %t.ring.ptx
// RUN: FileCheck %s --check-prefix=RING < %t.ring.ptx
// RING-NOT: ld.global
// RING: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// RING: cp.async.commit_group;
// RING: cp.async.commit_group;
// RING: cp.async.wait_group 1;
// RING: fence.proxy.async.shared::cta;
// RING-NEXT: bar.sync 0;
// RING: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// RING: wgmma.commit_group.sync.aligned;
// RING-NEXT: wgmma.wait_group.sync.aligned 1;
// RING-NEXT: bar.sync 0;
// RING-NOT: st.shared
// RING: cp.async.cg.shared.global
// RING: cp.async.commit_group;
// RING: cp.async.wait_group 0;
// RING-NOT: ld.global
// With 4 stages the products stay in flight too, with no second barrier
// (the copies go to the slot read two steps before), and the epilogue waits
// for the last before it reads the accumulator (the wait takes the
// registers: nothing reads them before).
// RUN: softmax-run %examples/matmul.mlir --rows 512 --cols 512 --inner 512 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --num-stages 4 --chip sm_90a --tensor-maps=false --emit-ptx %t.flight.ptx
// RUN: FileCheck %s --check-prefix=FLIGHT < %t.flight.ptx
// FLIGHT: wgmma.commit_group.sync.aligned;
// FLIGHT-NEXT: wgmma.wait_group.sync.aligned 1;
// FLIGHT-NOT: bar.sync
// FLIGHT: cp.async.commit_group;
// FLIGHT: cp.async.wait_group 0;
// FLIGHT-NOT: cvt.rn.bf16x2.f32
// FLIGHT: wgmma.wait_group.sync.aligned 0;
// FLIGHT: cvt.rn.bf16x2.f32
// By default TMA copies them (A and B read boxes of their matrices): the
// kernel takes 128-byte tensor maps after its arguments, read where they
// lie (grid constants: cvta.param); thread 0 initializes a barrier a slot
// and, for each K step, announces its 32 KiB; A's tile goes as one 4-D box
// that lands rotated (thread 0) where it lies inside the matrix, else as
// 16 boxes of 8 rows (one instruction, 16 threads), B as 2 panels of 64
// columns (one instruction, 2 threads). In the loop every thread waits at
// its slot's barrier, and the products follow with no fence or barrier
// before them; one barrier after them orders the next copies.
// RUN: softmax-run %examples/matmul.mlir --rows 512 --cols 512 --inner 512 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --num-stages 3 --chip sm_90a --emit-ptx %t.tma.ptx
// RUN: FileCheck %s --check-prefix=TMA < %t.tma.ptx
// TMA: .param .align 64 .b8 matmul_param_9[128],
// TMA-NEXT: .param .align 64 .b8 matmul_param_10[128],
// TMA-NEXT: .param .align 64 .b8 matmul_param_11[128]
// TMA: cvta.param.u64
// TMA: mbarrier.init.shared.b64 [{{.*}}], 1;
// TMA: fence.mbarrier_init.release.cluster;
// TMA-NEXT: bar.sync 0;
// TMA: mbarrier.arrive.expect_tx.shared.b64 _, [{{.*}}], 32768;
// TMA: cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}, {{[{]}}{{.*}},0,{{.*}},0} ]
// TMA-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// TMA: mbarrier.try_wait.parity.shared.b64
// TMA-NOT: bar.sync
// TMA: wgmma.fence.sync.aligned;
// TMA: wgmma.commit_group.sync.aligned;
// TMA-NEXT: wgmma.wait_group.sync.aligned 1;
// TMA-NEXT: bar.sync 0;
// TMA: mbarrier.arrive.expect_tx.shared.b64 _, [{{.*}}], 32768;
// TMA: cp.async.bulk.tensor.4d
// TMA-COUNT-2: cp.async.bulk.tensor.2d
// TMA-NOT: cp.async.cg
// TMA-NOT: ld.global
// With 4 stages the copies go to the slot read two steps before, but still
// after a barrier: the products make none, and without it one warpgroup
// could still read the slot thread 0 refills.
// RUN: softmax-run %examples/matmul.mlir --rows 512 --cols 512 --inner 512 --dtype bf16 --const ROWS=128,BLOCK=128,KT=64 --num-warps 8 --num-stages 4 --chip sm_90a --emit-ptx %t.tma4.ptx
// RUN: FileCheck %s --check-prefix=TMA4 < %t.tma4.ptx
// TMA4: mbarrier.try_wait.parity.shared.b64
// TMA4: wgmma.commit_group.sync.aligned;
// TMA4-NEXT: wgmma.wait_group.sync.aligned 1;
// TMA4-NEXT: bar.sync 0;
// TMA4: mbarrier.arrive.expect_tx.shared.b64 _, [{{.*}}], 32768;
// Rings that would not fit a CTA (128 x 256 x 128, 3 stages: 288 KiB): the
// operands stay loads through registers, as before the rings.
// RUN: softmax-run %examples/matmul.mlir --rows 4096 --cols 4096 --inner 4096 --dtype bf16 --const ROWS=128,BLOCK=256,KT=128 --num-warps 8 --num-stages 3 --chip sm_90a --emit-ptx %t.nofit.ptx
// RUN: FileCheck %s --check-prefix=NOFIT < %t.nofit.ptx
// NOFIT-NOT: cp.async
// NOFIT: wgmma.mma_async
// MMA-BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MMA-F16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SCALAR-NOT: mma.sync
// SCALAR-NOT: fma.rn.f32
// SCALAR: mul.rn.f32
// SCALAR-NOT: mma.sync
// SCALAR-NOT: fma.rn.f32
