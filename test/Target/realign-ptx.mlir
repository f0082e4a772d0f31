// Not MLIR: the PTX of odd row lengths, compiled without a GPU. A bf16 row
// of 50257 (held by a cluster of 8 CTAs on sm_90) is realigned: 16-byte
// chunk loads and stores, exchanged between lanes (shfl down for the loads,
// up for the stores). The aligned neighbour 50256 needs no exchange, and a
// row of 32001 on one CTA goes element by element (2-byte accesses).
// RUN: softmax-run auto --rows 2048 --cols 50257 --dtype bf16 --chip sm_90 --emit-ptx %t.odd.ptx
// RUN: FileCheck %s --check-prefix=ODD < %t.odd.ptx
// RUN: softmax-run auto --rows 2048 --cols 50256 --dtype bf16 --chip sm_90 --emit-ptx %t.even.ptx
// RUN: FileCheck %s --check-prefix=EVEN < %t.even.ptx
// RUN: softmax-run auto --rows 4096 --cols 32001 --dtype bf16 --chip sm_90 --emit-ptx %t.one.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t.one.ptx

// ODD: ld.global.v4.b32
// ODD: shfl.sync.down.b32
// ODD: shfl.sync.up.b32
// ODD: st.global.v4.b32
// EVEN: ld.global.v4
// EVEN-NOT: shfl.sync.up
// EVEN: st.global.v4
// ONE-NOT: ld.global.v4
// ONE: ld.global.b16
// ONE-NOT: shfl.sync.up
// ONE: st.global.b16
