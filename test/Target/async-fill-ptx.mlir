// Not MLIR: the PTX of rows kept in shared memory, compiled without a GPU.
// A bf16 row of 100000 on 4 CTAs of 8 warps keeps 13 runs of 16 bytes a
// thread: they go by cp.async.cg into the buffer (a run past the row gets
// -inf stored), one commit group, waited for before the row is read back.
// 131072 on 8 CTAs keeps 8 runs a thread: loaded into registers and stored
// (blk-async-fill's 12 runs); --async-fill-min-runs 0 keeps every row so.
// An f32 row of 65536 on 4 CTAs of 8 warps (16 runs a thread) is kept only
// because it is copied so (blk-stage-held-loads' wide-min-runs).
// RUN: softmax-run auto --rows 333 --cols 100000 --dtype bf16 --chip sm_90 --emit-ptx %t.copied.ptx | FileCheck %s --check-prefix=BINDING
// RUN: FileCheck %s --check-prefix=COPIED < %t.copied.ptx
// RUN: softmax-run auto --rows 333 --cols 100000 --dtype bf16 --chip sm_90 --async-fill-min-runs 0 --emit-ptx %t.stored.ptx
// RUN: FileCheck %s --check-prefix=STORED < %t.stored.ptx
// RUN: softmax-run auto --rows 512 --cols 131072 --dtype bf16 --chip sm_90 --emit-ptx %t.eight.ptx
// RUN: FileCheck %s --check-prefix=STORED < %t.eight.ptx
// RUN: softmax-run auto --rows 1024 --cols 65536 --dtype f32 --chip sm_90 --emit-ptx %t.f32.ptx
// RUN: FileCheck %s --check-prefix=F32 < %t.f32.ptx
// RUN: not softmax-run auto --rows 2 --cols 1024 --async-fill-min-runs -1 --chip sm_90 --emit-ptx %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// BINDING: BLOCK=106496 warps=8 ctas=4
// COPIED-COUNT-13: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// COPIED-NOT: cp.async.cg.shared.global
// COPIED: cp.async.commit_group;
// COPIED-NEXT: cp.async.wait_group 0;
// COPIED-NEXT: ld.shared.v4.b32
// COPIED-NOT: ld.global
// COPIED-NOT: st.shared.v4.b32 {{.*}}%r
// STORED-NOT: cp.async
// STORED: ld.global.v4.b32
// STORED: st.shared.v4.b32
// NEGATIVE: --async-fill-min-runs must be 0 (never) or positive, not -1
// F32-COUNT-16: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// F32: cp.async.wait_group 0;
