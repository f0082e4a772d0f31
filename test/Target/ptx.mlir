// Every example compiles to PTX with 16-byte accesses, shuffle reductions,
// barriers where several warps reduce, ex2.approx, and nothing external.
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefixes=PTX,BAR,SM90
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx="chip=sm_80 features=+ptx70" --emit=ptx | FileCheck %s --check-prefixes=PTX,BAR,SM80
// RUN: softmax-opt %examples/softmax_tiled.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefixes=PTX,BAR
// RUN: softmax-opt %examples/softmax_online.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefixes=PTX,BAR
// RUN: softmax-opt %examples/softmax_multirow.mlir --blk-specialize="ROWS=8 BLOCK=128" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefixes=PTX,NOBAR
// RUN: softmax-opt %examples/softmax_persistent.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx --emit=ptx | FileCheck %s --check-prefixes=PTX,BAR
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=65536" --blk-to-ptx="num-warps=8 num-ctas=8" --emit=ptx -o %t.cluster.ptx
// RUN: FileCheck %s --check-prefixes=PTX,BAR < %t.cluster.ptx
// RUN: FileCheck %s --check-prefix=CLUSTER < %t.cluster.ptx
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=32768" --blk-storage-type=type=bf16 --blk-to-ptx="num-warps=16" --emit=ptx -o %t.staged.ptx
// RUN: FileCheck %s --check-prefixes=PTX,BAR < %t.staged.ptx
// RUN: FileCheck %s --check-prefix=STAGED < %t.staged.ptx
// RUN: FileCheck %s --check-prefix=NODIVIDE < %t.staged.ptx
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=32768" --blk-storage-type=type=bf16 --blk-to-ptx="num-warps=16 divide-in-exponent=1" --emit=ptx | FileCheck %s --check-prefix=DIVIDE
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=32768" --blk-storage-type=type=bf16 --blk-to-ptx="num-warps=16 stage-min-registers=0" --emit=ptx | FileCheck %s --check-prefix=HELD
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=8192" --blk-to-ptx="num-warps=8 combine-reductions=1" --emit=ptx | FileCheck %s --check-prefix=PAIR
// RUN: softmax-opt %examples/layer_norm.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx="num-warps=16 min-ctas-per-sm=2" --emit=ptx | FileCheck %s --check-prefix=MIN-CTAS
// RUN: softmax-opt %examples/layer_norm.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx="num-warps=16 min-ctas-per-sm=1" --emit=ptx | FileCheck %s --check-prefix=ONE-CTA
// RUN: not softmax-opt %examples/layer_norm.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx="min-ctas-per-sm=33" --emit=ptx 2>&1 | FileCheck %s --check-prefix=MIN-CTAS-RANGE
// RUN: not softmax-run layer_norm --rows 4 --cols 12 --param eps=1e-5 --chip sm_90 --emit-ptx %t.never.ptx --min-ctas-per-sm -1 2>&1 | FileCheck %s --check-prefix=MIN-CTAS-FLAG
// RUN: softmax-opt %examples/log_softmax.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx="num-warps=4 hoist-combines=0" --emit=ptx | FileCheck %s --check-prefix=LEAVES-FIRST
// RUN: softmax-opt %examples/log_softmax.mlir --blk-specialize="BLOCK=2048" --blk-to-ptx="num-warps=4" --emit=ptx | FileCheck %s --check-prefix=HOISTED
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=65536" --blk-to-ptx="num-warps=8 num-ctas=8 combine-reductions=1" --emit=ptx | FileCheck %s --check-prefix=CLUSTER-PAIR
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=262144" --blk-to-ptx="num-warps=4 num-ctas=16 combine-reductions=1" --emit=ptx | FileCheck %s --check-prefix=CLUSTER16
// RUN: softmax-opt %examples/layer_norm.mlir --blk-specialize="BLOCK=8192" --blk-to-ptx="num-warps=8 combine-centered-squares=1" --emit=ptx | FileCheck %s --check-prefix=MOMENTS
// RUN: softmax-opt %examples/layer_norm.mlir --blk-specialize="BLOCK=8192" --blk-to-ptx="num-warps=8" --emit=ptx | FileCheck %s --check-prefix=TWO-EXCHANGES

// SM90: .version 8.0
// SM90: .target sm_90
// SM80: .version 7.0
// SM80: .target sm_80
// PTX-NOT: .extern .func
// PTX-NOT: .local
// PTX: .visible .entry softmax_
// PTX: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32
// BAR: bar.sync
// NOBAR-NOT: bar.sync
// PTX: ex2.approx.ftz.f32
// PTX: st.global.v4.b32

// A row over a cluster of 8 CTAs: the cluster shape is part of the kernel,
// a program is a cluster, and the CTAs read each other's partials.
// CLUSTER: .reqnctapercluster 8, 1, 1
// CLUSTER: %clusterid.x
// CLUSTER: %cluster_ctaid.x
// CLUSTER: barrier.cluster.arrive.aligned
// CLUSTER-NEXT: barrier.cluster.wait.aligned
// CLUSTER-NEXT: mapa.shared::cluster
// CLUSTER-NEXT: ld.shared::cluster.b32
// Two reductions and, before returning, one more cluster barrier.
// CLUSTER-COUNT-2: barrier.cluster.wait.aligned
// CLUSTER-NEXT: ret;

// A bf16 row of 32768 on 16 warps is kept in the launch's dynamic shared
// memory: each thread stores its 8 chunks of 16 bytes after the load, and
// reads them back after each of the two reductions (not combined:
// blk-combine-reductions). The row's max two bf16 at a time, widened once
// (blk-narrow-reductions), each pair's max as its chunks arrive
// (blk-hoist-combines), before the stores.
// STAGED: .extern .shared .align 16 .b8 blk_dynamic_shared[];
// STAGED: .visible .entry softmax_
// STAGED: max.NaN.bf16x2
// STAGED-NOT: cvt.f32.bf16
// STAGED-COUNT-8: st.shared.v4.b32
// STAGED: max.NaN.bf16{{[[:space:]]}}
// STAGED-NEXT: cvt.f32.bf16
// STAGED: bar.sync
// STAGED-COUNT-8: ld.shared.v4.b32
// STAGED: bar.sync
// STAGED-COUNT-8: ld.shared.v4.b32
// By default the write multiplies by 1 / sum; with divide-in-exponent it
// divides in the exponent (blk-divide-in-exponent): one
// lg2.approx a thread, then per element an fma by log2 e and ex2, no rcp.
// DIVIDE-NOT: rcp
// DIVIDE: lg2.approx.ftz.f32
// DIVIDE: fma.rn.f32 {{.*}}, 0f3FB8AA3B,
// DIVIDE: ex2.approx.ftz.f32
// DIVIDE-NOT: rcp
// NODIVIDE-NOT: lg2.approx
// NODIVIDE: rcp.rn.f32
// HELD-NOT: blk_dynamic_shared
// HELD-NOT: ld.shared.v4
// HELD-NOT: lg2.approx
// HELD: rcp.rn.f32

// With combine-reductions, softmax's max and sum of exp across 8 warps:
// one exchange of 64-bit (max, sum) pairs (blk-combine-reductions), one
// barrier where the two reductions had two; across a cluster, one cluster
// barrier and a 64-bit load of each CTA's pair, then the exit barrier.
// PAIR: st.shared.v2.b32
// PAIR: bar.sync
// PAIR: ld.shared.v2.b32
// PAIR-NOT: bar.sync
// CLUSTER-PAIR: barrier.cluster.arrive.aligned
// CLUSTER-PAIR-NEXT: barrier.cluster.wait.aligned
// CLUSTER-PAIR-NEXT: mapa.shared::cluster
// CLUSTER-PAIR: ld.shared::cluster.v2.b32
// CLUSTER-PAIR: barrier.cluster.wait.aligned
// CLUSTER-PAIR-NEXT: ret;

// On 16 CTAs the lanes share the reads of the others' pairs: lane i reads
// CTA i mod 16's (one 64-bit load a lane, not 16), and four shuffles of the
// maxima, one exp and four of the sums combine them.
// CLUSTER16: .reqnctapercluster 16, 1, 1
// CLUSTER16: barrier.cluster.wait.aligned
// CLUSTER16-NEXT: and.b32 [[SOURCE:%r[0-9]+]], %r{{[0-9]+}}, 15;
// CLUSTER16-NEXT: mapa.shared::cluster.u64 {{.*}}, [[SOURCE]];
// CLUSTER16-NEXT: ld.shared::cluster.v2.b32
// CLUSTER16-NOT: ld.shared::cluster
// CLUSTER16-COUNT-4: shfl.sync.bfly.b32 {{.*}}, {{1|2|4|8}}, 31, -1;
// CLUSTER16: ex2.approx.ftz.f32
// CLUSTER16-COUNT-4: shfl.sync.bfly.b32 {{.*}}, {{1|2|4|8}}, 31, -1;
// CLUSTER16: barrier.cluster.arrive.aligned

// log_softmax's sum of exps: without hoist-combines a thread's 16 exps,
// then the tree of their sums; with it (blk-hoist-combines, the default)
// each sum right after its two exps.
// LEAVES-FIRST: ex2.approx.ftz.f32 [[E0:%r[0-9]+]],
// LEAVES-FIRST-NEXT: mul.rn.f32
// LEAVES-FIRST-NEXT: ex2.approx.ftz.f32 [[E1:%r[0-9]+]],
// LEAVES-FIRST-NEXT: mul.rn.f32
// LEAVES-FIRST-NEXT: ex2.approx.ftz.f32
// HOISTED: ex2.approx.ftz.f32 [[E0:%r[0-9]+]],
// HOISTED-NEXT: mul.rn.f32
// HOISTED-NEXT: ex2.approx.ftz.f32 [[E1:%r[0-9]+]],
// HOISTED-NEXT: add.rn.f32 %r{{[0-9]+}}, [[E0]], [[E1]];

// min-ctas-per-sm asks ptxas for registers that let that many CTAs share
// an SM: the kernel's launch bounds say it.
// MIN-CTAS: .maxntid 512, 1, 1
// MIN-CTAS-NEXT: .minnctapersm 2
// One CTA an SM asks for nothing (.minnctapersm 1 would change ptxas's
// registers).
// ONE-CTA: .maxntid 512, 1, 1
// ONE-CTA-NOT: .minnctapersm
// MIN-CTAS-RANGE: error: min_ctas_per_sm must be from 0 (ptxas's choice) to 32, but got 33
// MIN-CTAS-FLAG: softmax-run: --min-ctas-per-sm must be 0 (the rules' choice) to 32, not -1

// layer_norm's sum and its squares about the mean across 8 warps: one
// exchange (blk-combine-centered-squares) of (count, sum, mean, squares)
// quadruples, four shuffles a butterfly step and a 16-byte store of each
// warp's partial, one barrier; without it, two exchanges and two barriers.
// (blk-sink-to-uses may place the row's index arithmetic between them.)
// MOMENTS-COUNT-4: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 31, -1;
// MOMENTS: st.shared.v4.b32
// MOMENTS-NEXT: bar.sync 0;
// MOMENTS-NOT: bar.sync
// TWO-EXCHANGES: bar.sync 0;
// TWO-EXCHANGES: bar.sync 0;
