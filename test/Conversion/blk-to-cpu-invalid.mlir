// RUN: softmax-opt %s --convert-blk-to-cpu --split-input-file -verify-diagnostics

func.func @unbound(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{'blk.constexpr' op compile-time constant 'BLOCK' is not bound; run --blk-specialize first}}
  %block = blk.constexpr BLOCK : i32
  return
}

// -----

func.func @dynamic(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{block 'tensor<?xi32>' has a dynamic shape; the CPU path needs a specialized program (run --blk-specialize first)}}
  %cols = blk.arange 0 to BLOCK : tensor<?xi32>
  return
}

// -----

#row = #blk.blocked<elems = [4], lanes = [32], warps = [4]>

func.func @distributed(%p: !blk.ptr<f32>) attributes {blk.kernel = #blk.kernel<num_warps = 4>} {
  // expected-error @+1 {{carries a layout; the CPU path takes the specialized program before blk-distribute}}
  %cols = blk.arange 0 to 1024 : tensor<1024xi32, #row>
  return
}

// -----

func.func @helper(%p: !blk.ptr<f32>, %n: i32) {
  // expected-error @+1 {{'blk.addptr' op is outside a kernel; the CPU path converts blk ops only inside functions marked blk.kernel}}
  %q = blk.addptr %p, %n : !blk.ptr<f32>, i32
  return
}

// -----

func.func @barrier(%c: !blk.ptr<i64>, %n: i32) attributes {blk.kernel = #blk.kernel<num_warps = 4, grid = persistent>} {
  // expected-error @+1 {{'blk.program_barrier' op waits for other programs, but the CPU path runs a kernel's programs one after another}}
  blk.program_barrier %c, %n : !blk.ptr<i64>, i32
  return
}
