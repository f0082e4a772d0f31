// python-free-examples/cpp/build_fused.cpp builds the fused softmax with the
// C++ API (OpBuilder) and compiles it with mlir::blk::compileToPTX. Its PTX
// must be that of the fused kernel: 16-byte vector loads and stores, warp
// shuffles for the reductions, ex2.approx for exp, nothing spilled to local
// memory and no dynamic shared memory.
// RUN: blk-build-fused | FileCheck %s --implicit-check-not=.local --implicit-check-not=.extern
// RUN: blk-build-fused 1024 --chip=sm_80 | FileCheck %s --check-prefix=SM80

// The library route and the tool route give the same kernel. The built IR
// is that of softmax_fused.mlir:
// RUN: softmax-opt %examples/softmax_fused.mlir > %t.tool.mlir
// RUN: blk-build-fused --print-ir 2> %t.library.mlir > /dev/null
// RUN: diff %t.library.mlir %t.tool.mlir
// and its PTX is the PTX softmax-opt writes, once the header (up to the
// first blank line) is dropped (both use PTX 8.0 for sm_90:
// getDefaultFeatures and the --blk-to-ptx default agree).
// RUN: blk-build-fused 1024 | sed '1,/^$/d' > %t.library.ptx
// RUN: softmax-opt %examples/softmax_fused.mlir --blk-specialize="BLOCK=1024" --blk-to-ptx --emit=ptx > %t.tool.ptx
// RUN: diff %t.library.ptx %t.tool.ptx

// Bad arguments are refused with a message about the argument.
// RUN: not blk-build-fused 1000 2>&1 | FileCheck %s --check-prefix=NOT-POW2
// RUN: not blk-build-fused 12x 2>&1 | FileCheck %s --check-prefix=NOT-NUMBER
// RUN: not blk-build-fused --chip=volta 2>&1 | FileCheck %s --check-prefix=BAD-CHIP

// CHECK:      // kernel softmax_fused, BLOCK=1024, sm_90 +ptx80
// CHECK-NEXT: //   threads per program: 128
// CHECK-NEXT: //   shared memory: {{[0-9]+}} bytes static, 0 bytes dynamic
// CHECK-NEXT: //   grid: rows
// CHECK-NEXT: //   arguments: !blk.ptr<f32>, !blk.ptr<f32>, i32, i32, i32, i32
// CHECK-EMPTY:
// CHECK:      .target sm_90
// CHECK:      .visible .entry softmax_fused(
// CHECK:      ld.global.v4.b32
// CHECK:      shfl.sync.bfly
// CHECK:      ex2.approx
// CHECK:      st.global.v4.b32

// SM80:       // kernel softmax_fused, BLOCK=1024, sm_80 +ptx80
// SM80:       .version 8.0
// SM80:       .target sm_80
// SM80:       .visible .entry softmax_fused(

// NOT-POW2: blk-build-fused: the block size must be a power of two below 2^32, not '1000'

// NOT-NUMBER: blk-build-fused: the block size must be a power of two below 2^32, not '12x'

// BAD-CHIP: error: unsupported chip 'volta': expected sm_70 or newer
