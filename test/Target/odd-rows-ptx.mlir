// Not MLIR: the PTX of odd row lengths, compiled without a GPU.
// A softmax row of 50257 bf16 (held by a cluster of 8 CTAs on sm_90) or of
// 32001 (one CTA) is peeled (blk-peel-alignment): 16-byte loads and stores
// on the shifted block, and no exchange between lanes; the fallback of an
// output on another part of the grid goes element by element (2-byte
// accesses). The aligned neighbour 50256 has neither: its row, kept in
// shared memory, comes by 16-byte cp.async (blk-async-fill). RMSNorm's
// weight, read at the same columns of every row, does not stop the peel:
// the row moves in 16-byte vectors, the weight element by element where
// the shift moved the row. A thread with one run (1001 columns on 2 CTAs
// of 2 warps) is not peeled: its row is realigned (shfl down for the
// loads, up for the stores).
// RUN: softmax-run auto --rows 2048 --cols 50257 --dtype bf16 --chip sm_90 --emit-ptx %t.odd.ptx
// RUN: FileCheck %s --check-prefix=PEELED < %t.odd.ptx
// RUN: softmax-run auto --rows 4096 --cols 32001 --dtype bf16 --chip sm_90 --emit-ptx %t.one.ptx
// RUN: FileCheck %s --check-prefix=PEELED < %t.one.ptx
// RUN: softmax-run auto --rows 2048 --cols 50256 --dtype bf16 --chip sm_90 --emit-ptx %t.even.ptx
// RUN: FileCheck %s --check-prefix=EVEN < %t.even.ptx
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 50 --cols 4099 --dtype bf16 --num-ctas 2 --chip sm_90 --emit-ptx %t.rms.ptx
// RUN: FileCheck %s --check-prefix=PEELED-NORM < %t.rms.ptx
// RUN: softmax-run %examples/rms_norm.mlir --param eps=1e-6 --rows 50 --cols 1001 --dtype bf16 --num-ctas 2 --num-warps 2 --chip sm_90 --emit-ptx %t.rms-one-run.ptx
// RUN: FileCheck %s --check-prefix=REALIGNED < %t.rms-one-run.ptx

// PEELED: ld.global.v4.b32
// PEELED: ld.global.b16
// PEELED-NOT: shfl.sync.up
// PEELED: st.global.v4.b32
// PEELED: st.global.b16
// EVEN: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// EVEN-NOT: ld.global.b16
// EVEN-NOT: shfl.sync.up
// EVEN: st.global.v4
// EVEN-NOT: st.global.b16
// PEELED-NORM-NOT: shfl.sync.up
// PEELED-NORM-NOT: shfl.sync.down
// PEELED-NORM: ld.global.v4.b32
// PEELED-NORM: ld.global.b16
// PEELED-NORM: st.global.v4.b32
// REALIGNED: ld.global.v4.b32
// REALIGNED: shfl.sync.down.b32
// REALIGNED: shfl.sync.up.b32
// REALIGNED: st.global.v4.b32
