// RUN: softmax-opt %s --convert-blk-to-gpu --split-input-file -verify-diagnostics
// RUN: not softmax-opt %s --blk-attach-target="chip=sm_80 features=+ptx70" --convert-blk-to-gpu --split-input-file 2>&1 | FileCheck %s --check-prefix=NOCLUSTER
// RUN: not softmax-opt %s --blk-attach-target=chip=sm_60 --convert-blk-to-gpu 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not softmax-opt %s --blk-attach-target=chip=gfx90a --convert-blk-to-gpu 2>&1 | FileCheck %s --check-prefix=CHIP-NAME
// RUN: not softmax-opt %s --blk-attach-target=chip=sm_80x --convert-blk-to-gpu 2>&1 | FileCheck %s --check-prefix=CHIP-SUFFIX
// RUN: not softmax-opt %s --blk-attach-target="chip=sm_90 features=+ptx70" --convert-blk-to-gpu 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not softmax-opt %s --blk-attach-target="chip=sm_80 features=+sm80" --convert-blk-to-gpu 2>&1 | FileCheck %s --check-prefix=NOPTX

// CHIP: error: unsupported chip 'sm_60': expected sm_70 or newer (e.g. sm_80, sm_90)
// CHIP-NAME: error: unsupported chip 'gfx90a': expected sm_70 or newer
// CHIP-SUFFIX: error: unsupported chip 'sm_80x': expected sm_70 or newer
// PTX: error: PTX 7.0 (+ptx70) does not know sm_90; it needs +ptx78 or newer
// NOPTX: error: target features '+sm80' name no PTX version; add one, e.g. +ptx70

#row = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

func.func @no_layout(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{block 'tensor<1024xi32>' has no layout; run blk-distribute first}}
  %cols = blk.arange 0 to 1024 : tensor<1024xi32>
  return
}

// -----

func.func @exp_f16(%x: f16) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'math.exp' op on 'f16' is not supported: compute in f32 (arith.extf before, arith.truncf after)}}
  %e = math.exp %x : f16
  return
}

// -----

func.func @sin(%x: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'math.sin' op has no GPU lowering without libdevice; supported math ops are exp, exp2, log, log2, rsqrt, absf, fma, sqrt, tanh, erf and powf}}
  %e = math.sin %x : f32
  return
}

// -----

func.func @tanh_bf16(%x: bf16) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'math.tanh' op on 'bf16' is not supported: compute in f32 (arith.extf before, arith.truncf after)}}
  %e = math.tanh %x : bf16
  return
}

// -----

func.func @log_f16(%x: f16) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'math.log' op on 'f16' is not supported: compute in f32 (arith.extf before, arith.truncf after)}}
  %e = math.log %x : f16
  return
}

// -----

#wide = #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [1, 32]>

// expected-error @+1 {{kernel @shared_over_limit needs 65536 bytes of shared memory for its reductions, over the 49152-byte static limit; use fewer warps or rows}}
func.func @shared_over_limit() attributes {blk.kernel = #blk.kernel<num_warps = 32>} {
  %c = arith.constant dense<1.0> : tensor<16x4096xf32, #wide>
  %m = blk.reduce max %c axis 1 : tensor<16x4096xf32, #wide> -> tensor<16xf32, #blk.slice<dim = 1, parent = #wide>>
  return
}

// -----

#clustered = #blk.blocked<elems = [4], lanes = [32], warps = [4], ctas = [2]>

// Fine on sm_90 (the run above); on sm_80:
// NOCLUSTER: error: kernel @on_sm80 runs on 2 CTAs (num_ctas), but sm_80 has no thread-block clusters; they need sm_90 or newer
func.func @on_sm80(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 2>} {
  return
}

// -----

func.func @unspecialized(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'blk.arange' op block 'tensor<?xi32>' has a dynamic shape; run --blk-specialize first}}
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  return
}

// -----

func.func @unbound(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'blk.constexpr' op compile-time constant 'BLOCK' is not bound; run --blk-specialize first}}
  %b = blk.constexpr BLOCK : i32
  return
}

// -----

#staged1 = #blk.blocked<elems = [8], lanes = [32], warps = [4]>
#other1 = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

func.func @local_load_layout(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %x = arith.constant dense<1.0> : tensor<1024xbf16, #staged1>
  %b = blk.local_alloc %x : tensor<1024xbf16, #staged1> -> !blk.shared<1024xbf16>
  // expected-error @+1 {{'blk.local_load' op expected the layout of the block written, 'tensor<1024xbf16, #blk.blocked<elems = [8], lanes = [32], warps = [4]>>', but found 'tensor<1024xbf16, #blk.blocked<elems = [4], lanes = [32], warps = [4]>>'}}
  %y = blk.local_load %b : !blk.shared<1024xbf16> -> tensor<1024xbf16, #other1>
  return
}

// -----

#copied = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @async_copy_small_runs(%p: !blk.ptr<bf16>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #copied>
  // expected-error @+1 {{'blk.async_copy' op expected runs of 16 bytes (blk.vector) that its mask takes whole or not at all, but found runs of 8 bytes}}
  %b = blk.async_copy %p[%cols] {blk.vector = 4 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #copied> -> !blk.shared<1024xbf16>
  return
}

// -----

#copied2 = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @async_copy_not_waited(%p: !blk.ptr<bf16>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #copied2>
  %b = blk.async_copy %p[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #copied2> -> !blk.shared<1024xbf16>
  // expected-error @+1 {{'blk.local_load' op expected a blk.async_wait of its buffer before it (the copies of the blk.async_copy may not have landed)}}
  %x = blk.local_load %b : !blk.shared<1024xbf16> -> tensor<1024xbf16, #copied2>
  blk.async_wait %b : !blk.shared<1024xbf16>
  return
}

// -----

#copied3 = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @async_copy_in_loop(%p: !blk.ptr<bf16>, %n: index) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %cols = blk.arange 0 to 1024 : tensor<1024xi32, #copied3>
    // expected-error @+1 {{'blk.async_copy' op expected outside loops (a next copy would not wait for the reads of the last)}}
    %b = blk.async_copy %p[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #copied3> -> !blk.shared<1024xbf16>
    blk.async_wait %b : !blk.shared<1024xbf16>
  }
  return
}

// -----

#copied4 = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @kernel(%p: !blk.ptr<bf16>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}

// A kept block outside a kernel has no shared memory to live in: refused
// with every blk op there.
func.func @async_copy_outside_kernel(%p: !blk.ptr<bf16>) {
  // expected-error @+1 {{'blk.arange' op is outside a kernel; the GPU path converts blk ops only inside functions marked blk.kernel (inline the helper into the kernel)}}
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #copied4>
  %b = blk.async_copy %p[%cols] {blk.vector = 8 : i64} : !blk.ptr<bf16>, tensor<1024xi32, #copied4> -> !blk.shared<1024xbf16>
  return
}

// -----

#staged2 = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @local_load_argument(%p: !blk.ptr<f32>, %n: index) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %x = arith.constant dense<1.0> : tensor<1024xbf16, #staged2>
  %b = blk.local_alloc %x : tensor<1024xbf16, #staged2> -> !blk.shared<1024xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 iter_args(%carried = %b) -> (!blk.shared<1024xbf16>) {
    // expected-error @+1 {{'blk.local_load' op expected its buffer to be the result of a blk.local_alloc or blk.async_copy, but found a block argument}}
    %y = blk.local_load %carried : !blk.shared<1024xbf16> -> tensor<1024xbf16, #staged2>
    scf.yield %carried : !blk.shared<1024xbf16>
  }
  return
}

// -----

#staged3 = #blk.blocked<elems = [8], lanes = [32], warps = [32]>

// expected-error @+1 {{kernel @too_much_shared needs 0 bytes of shared memory for its reductions and 262144 for the blocks it keeps (blk.local_alloc) and its products' operands (blk.dot), over the 232448 bytes a CTA of sm_90 may have}}
func.func @too_much_shared(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 32>} {
  %x = arith.constant dense<1.0> : tensor<131072xbf16, #staged3>
  %b = blk.local_alloc %x : tensor<131072xbf16, #staged3> -> !blk.shared<131072xbf16>
  return
}

// -----

#staged4 = #blk.blocked<elems = [8], lanes = [32], warps = [4]>

func.func @local_alloc_warps(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 8>} {
  %x = arith.constant dense<1.0> : tensor<1024xbf16, #staged4>
  // expected-error @+1 {{'blk.local_alloc' op expected a block laid out over the kernel's 8 warps (run blk-distribute), but found 'tensor<1024xbf16, #blk.blocked<elems = [8], lanes = [32], warps = [4]>>'}}
  %b = blk.local_alloc %x : tensor<1024xbf16, #staged4> -> !blk.shared<1024xbf16>
  return
}

// -----

func.func @barrier_count_at_run_time(%c: !blk.ptr<i64>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent>} {
  // expected-error @+1 {{'blk.program_barrier' op expected a count known when the kernel is compiled (the launcher keeps that many programs resident), but found a value computed at run time}}
  blk.program_barrier %c, %n : !blk.ptr<i64>, i32
  return
}

// -----

// A helper function using blk ops beside a kernel: it has no launch and no
// layout (this crashed the conversion before).
func.func @k(%out: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  return
}
func.func @helper(%p: !blk.ptr<f32>) {
  // expected-error @+1 {{'blk.arange' op is outside a kernel; the GPU path converts blk ops only inside functions marked blk.kernel (inline the helper into the kernel)}}
  %cols = blk.arange 0 to 128 : tensor<128xi32>
  return
}

// -----

#clustered2d = #blk.blocked<elems = [1, 4], lanes = [2, 16], warps = [4, 1], ctas = [1, 2]>

// A dot's operands meet in one CTA's shared memory.
func.func @dot_over_ctas(%x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4, num_ctas = 2>} {
  %a = blk.splat %x : bf16 -> tensor<16x16xbf16, #clustered2d>
  %b = blk.splat %x : bf16 -> tensor<16x128xbf16, #clustered2d>
  %c = blk.splat %y : f32 -> tensor<16x128xf32, #clustered2d>
  // expected-error @+1 {{'blk.dot' op expected operands laid out over one CTA, but 'a' is spread over 2 (num_ctas = 1 for a kernel with blk.dot)}}
  %d = blk.dot %a, %b, %c : tensor<16x16xbf16, #clustered2d>, tensor<16x128xbf16, #clustered2d>, tensor<16x128xf32, #clustered2d>
  return
}

// -----

#two_warps = #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [2, 1]>

// The lowering spreads a dot's fragments over the kernel's warps.
func.func @dot_over_fewer_warps(%x: bf16, %y: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %a = blk.splat %x : bf16 -> tensor<32x16xbf16, #two_warps>
  %b = blk.splat %x : bf16 -> tensor<16x8xbf16, #two_warps>
  %c = blk.splat %y : f32 -> tensor<32x8xf32, #two_warps>
  // expected-error @+1 {{'blk.dot' op expected operands laid out over the kernel's 4 warps, but 'a' is laid out over 2}}
  %d = blk.dot %a, %b, %c : tensor<32x16xbf16, #two_warps>, tensor<16x8xbf16, #two_warps>, tensor<32x8xf32, #two_warps>
  return
}

// -----

// A conversion's layouts spread the block over the kernel's warps: the
// scratch and the barriers are the CTA's.
func.func @convert_layout_other_warps(%x: f32) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  %c = blk.splat %x : f32 -> tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>>
  // expected-error @+1 {{'blk.convert_layout' op expected blocks laid out over the kernel's 4 warps of one CTA (run blk-distribute), but found 'tensor<64x128xf32, #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [8, 1]>>'}}
  %r = blk.convert_layout %c : tensor<64x128xf32, #blk.blocked<elems = [1, 2], lanes = [8, 4], warps = [4, 1]>> -> tensor<64x128xf32, #blk.blocked<elems = [1, 4], lanes = [1, 32], warps = [8, 1]>>
  return
}
