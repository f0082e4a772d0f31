// Fused attention backward (python-free-examples/attention_bwd.mlir: three
// kernels, delta, dK and dV a key tile a program, dQ a query tile a
// program) run on the CPU and checked against the float64
// attention_backward reference (blk/Runtime/Reference.h: the module is
// named @attention_backward), whose o and lse inputs are the forward's in
// float64 of the random q, k and v. Odd lengths, more keys than queries
// (@dkdv's programs then walk several key tiles) and fewer, causal
// masking, [B, S, H, D] strides, special values in Q, 16-bit data with the
// logsumexp and delta kept f32 (blk.keep_f32). test/GPU/attention-backward.mlir
// runs it on the GPU.
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 2 --heads 3 --rows 100 --inner 130 --cols 64 --param scale=0.125 --const CAUSAL=0 --check | FileCheck %s --check-prefix=CPU
// CPU: attention_bwd.mlir: 2 x 3 (batch x heads) of 100 x 64 x 130 (M x N x K) f32
// CPU: target: CPU (JIT), CAUSAL=0 HEAD_DIM=64 KV=32 ROWS=32 warps=4, grid 4 x 6,
// CPU: check dq: compared=38400 {{.*}} unwritten=0  OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 attention_backward reference)
// CPU: check dk: compared=49920 {{.*}} unwritten=0  OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 attention_backward reference)
// CPU: check dv: compared=49920 {{.*}} unwritten=0  OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 attention_backward reference)
// CPU: check delta: compared=600 {{.*}} unwritten=0  OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 attention_backward reference)
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 2 --heads 3 --rows 100 --inner 250 --cols 64 --param scale=0.125 --const CAUSAL=1 --check | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 1 --heads 2 --rows 130 --inner 77 --cols 64 --param scale=0.125 --const CAUSAL=1 --check | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 1 --heads 2 --rows 77 --inner 77 --cols 128 --param scale=0.088 --const CAUSAL=1 --dtype bf16 --check --special | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 2 --heads 3 --rows 100 --inner 130 --cols 64 --param scale=0.125 --const CAUSAL=1 --layout bshd --dtype f16 --check --special | FileCheck %s --check-prefix=OK
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 1 --heads 2 --rows 64 --inner 64 --cols 64 --param scale=-0.5 --const CAUSAL=0 --dtype bf16 --check | FileCheck %s --check-prefix=OK
// OK: check dq: {{.*}} unwritten=0  OK
// OK: check dk: {{.*}} unwritten=0  OK
// OK: check dv: {{.*}} unwritten=0  OK
// OK: check delta: {{.*}} unwritten=0  OK (relative L2 tolerance 1e-05
//
// The check fails a wrong gradient: dS without delta (dK wrong, dQ not,
// as the two come from different kernels).
// RUN: sed 's/, %dpt_centered :/, %dpt :/' %examples/attention_bwd.mlir > %t.wrong.mlir
// RUN: not softmax-run %t.wrong.mlir --target cpu --batch 1 --heads 2 --rows 77 --inner 77 --cols 64 --param scale=0.125 --const CAUSAL=1 --check | FileCheck %s --check-prefix=WRONG
// WRONG: check dq: {{.*}} OK
// WRONG: check dk: {{.*}} FAILED
//
// Against the program itself in float64 (the interpreter runs all three
// kernels): the module under another name has no reference kind.
// RUN: sed 's/module @attention_backward/module @attention_backward_copy/' %examples/attention_bwd.mlir > %t.copy.mlir
// RUN: softmax-run %t.copy.mlir --target cpu --batch 1 --heads 2 --rows 70 --inner 90 --cols 64 --param scale=0.125 --const CAUSAL=1 --check | FileCheck %s --check-prefix=PROGRAM
// PROGRAM: check dq: {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)
//
// The forward's outputs feed the backward: O and lse written by
// attention_fwd.mlir (lse in f32 at bf16: blk.keep_f32) from shared q, k
// and v files, read back by name with the same q, k, v and a dO, and
// checked against the reference's own forward of them.
// RUN: rm -rf %t.npy.d && mkdir -p %t.npy.d && python3 %S/Inputs/make-npy.py %t.npy.d
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 1 --heads 2 --rows 40 --inner 40 --cols 64 --param scale=0.125 --const CAUSAL=1 --dtype bf16 --input q=%t.npy.d/attention-q.npy --input k=%t.npy.d/attention-k.npy --input v=%t.npy.d/attention-v.npy --output o=%t.o.npy --output lse=%t.lse.npy
// RUN: head -c 80 %t.lse.npy | FileCheck %s --check-prefix=LSE-F32
// LSE-F32: 'descr': '<f4'
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 1 --heads 2 --rows 40 --inner 40 --cols 64 --param scale=0.125 --const CAUSAL=1 --dtype bf16 --input q=%t.npy.d/attention-q.npy --input k=%t.npy.d/attention-k.npy --input v=%t.npy.d/attention-v.npy --input do=%t.npy.d/attention-do.npy --input o=%t.o.npy --input lse=%t.lse.npy --check | FileCheck %s --check-prefix=OK
//
// An output written with the derived o and lse is expected back by a run
// that only compares (--expect derives them too).
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 1 --heads 2 --rows 30 --inner 30 --cols 64 --param scale=0.125 --const CAUSAL=1 --seed 5 --output dq=%t.dq5.npy
// RUN: softmax-run %examples/attention_bwd.mlir --target cpu --batch 1 --heads 2 --rows 30 --inner 30 --cols 64 --param scale=0.125 --const CAUSAL=1 --seed 5 --expect dq=%t.dq5.npy | FileCheck %s --check-prefix=EXPECT
// EXPECT: check: compared=3840 {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against {{.*}}.dq5.npy)
