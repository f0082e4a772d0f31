// Fused attention (python-free-examples/attention_fwd.mlir): a batch of B x
// H problems (#blk.arg's batch and heads, --batch and --heads), each of
// rows queries and inner keys of cols elements, run on the CPU and checked
// against the float64 attention reference (blk/Runtime/Reference.h: the
// kernel is named @attention) and against the program in float64; odd
// lengths, causal masking, [B, S, H, D] strides (--layout bshd), special
// values in Q, 16-bit data (P rounded to it before P V, as on the tensor
// cores). test/GPU/attention.mlir runs it on the GPU.
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 2 --heads 3 --rows 100 --inner 130 --cols 64 --param scale=0.125 --const CAUSAL=0 --check | FileCheck %s --check-prefix=CPU
// CPU: attention_fwd.mlir: 2 x 3 (batch x heads) of 100 x 64 x 130 (M x N x K) f32
// CPU: target: CPU (JIT), CAUSAL=0 HEAD_DIM=64 KV=32 ROWS=32 warps=4, grid 4 x 6,
// CPU: check o: compared=38400 {{.*}} unwritten=0  OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 attention reference)
// CPU: check lse: compared=600 {{.*}} unwritten=0  OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the float64 attention reference)
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 2 --heads 3 --rows 100 --inner 130 --cols 64 --param scale=0.125 --const CAUSAL=1 --check | FileCheck %s --check-prefix=OK2
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 1 --heads 2 --rows 77 --inner 77 --cols 128 --param scale=0.088 --const CAUSAL=1 --dtype bf16 --check --special | FileCheck %s --check-prefix=OK2
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 1 --heads 2 --rows 77 --inner 50 --cols 64 --param scale=0.125 --const CAUSAL=0 --dtype f16 --check | FileCheck %s --check-prefix=OK2
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 2 --heads 3 --rows 100 --inner 130 --cols 64 --param scale=0.125 --const CAUSAL=1 --layout bshd --check --special | FileCheck %s --check-prefix=OK2
// A scale of 0 (every unmasked key weighs the same): the masked tiles scale
// the scores before they mask them, as -inf x 0 is NaN.
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 1 --heads 2 --rows 77 --inner 130 --cols 64 --param scale=0 --const CAUSAL=1 --check | FileCheck %s --check-prefix=OK2
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 1 --heads 2 --rows 77 --inner 130 --cols 64 --param scale=-0.0 --const CAUSAL=0 --dtype bf16 --check | FileCheck %s --check-prefix=OK2
// OK2: check o: {{.*}} unwritten=0  OK
// OK2: check lse: {{.*}} unwritten=0  OK
//
// Against the program itself in float64 (the interpreter runs the batch
// along blk.program_id y too): a copy of the kernel under another name.
// RUN: sed 's/@attention(/@attention_copy(/' %examples/attention_fwd.mlir > %t.copy.mlir
// RUN: softmax-run %t.copy.mlir --target cpu --batch 2 --heads 3 --rows 100 --inner 130 --cols 64 --param scale=0.125 --const CAUSAL=1 --layout bshd --check | FileCheck %s --check-prefix=PROGRAM
// PROGRAM: check o: {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)
//
// Files keep the batch's dimensions: O written [B, H, S, D] and lse
// [B, H, S], then expected by a second run of the same seed; Q read back
// from a [B, H, S, D] file.
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 2 --heads 3 --rows 20 --inner 20 --cols 16 --param scale=0.25 --const CAUSAL=0 --seed 3 --output o=%t.o.npy --output lse=%t.lse.npy
// RUN: head -c 100 %t.o.npy | FileCheck %s --check-prefix=O-SHAPE
// O-SHAPE: 'shape': (2, 3, 20, 16)
// RUN: head -c 100 %t.lse.npy | FileCheck %s --check-prefix=LSE-SHAPE
// LSE-SHAPE: 'shape': (2, 3, 20)
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 2 --heads 3 --rows 20 --inner 20 --cols 16 --param scale=0.25 --const CAUSAL=0 --seed 3 --expect o=%t.o.npy --expect lse=%t.lse.npy | FileCheck %s --check-prefix=EXPECT
// EXPECT: check: compared=1920 {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against {{.*}}.o.npy)
// EXPECT: check: compared=120 {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against {{.*}}.lse.npy)
// RUN: softmax-run %examples/attention_fwd.mlir --target cpu --batch 2 --heads 3 --rows 20 --inner 20 --cols 16 --param scale=0.25 --const CAUSAL=0 --input q=%t.o.npy --check | FileCheck %s --check-prefix=OK2
//
// A batch needs a program that takes one; strides the program was
// promised multiples of 16 (blk.divisibility) are checked at the launch.
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 10 --cols 10 --inner 10 --batch 2 2>&1 | FileCheck %s --check-prefix=NO-BATCH
// NO-BATCH: softmax-run: --batch and --heads give 2 x 1 problems, but no kernel of the program takes both `batch` and `heads` arguments (#blk.arg<batch>, #blk.arg<heads>)
// RUN: not softmax-run %examples/attention_fwd.mlir --target cpu --batch 2 --heads 3 --rows 10 --inner 10 --cols 8 --param scale=0.25 --const CAUSAL=0 --layout bshd 2>&1 | FileCheck %s --check-prefix=DIVIDES
// DIVIDES: softmax-run: kernel @attention argument #{{[0-9]+}} (head_stride of 'q') is declared a multiple of 16, not 8
// The head dimension is a block of HEAD_DIM columns the program cannot
// mask (it takes no `cols`): another row length would be read past.
// RUN: not softmax-run %examples/attention_fwd.mlir --target cpu --rows 10 --inner 10 --cols 48 --param scale=0.25 --const CAUSAL=0 2>&1 | FileCheck %s --check-prefix=HEAD-DIM
// HEAD-DIM: attention_fwd.mlir:{{[0-9]+}}:{{[0-9]+}}: error: row_block HEAD_DIM = 64 is the row length of the program, which takes no `cols` argument to mask a row of 48 by: the row length must be HEAD_DIM (a power of two), or the program must take `cols`
// RUN: not softmax-run %examples/attention_fwd.mlir --target cpu --rows 10 --inner 10 --cols 16 --param scale=0.25 --const CAUSAL=0 --heads 0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: softmax-run: --batch and --heads must be at least 1, not 1 and 0
// RUN: not softmax-run %examples/attention_fwd.mlir --target cpu --rows 10 --inner 10 --cols 16 --param scale=0.25 --const CAUSAL=0 --batch 65536 --heads 65536 2>&1 | FileCheck %s --check-prefix=IDS
// IDS: softmax-run: --batch 65536 x --heads 65536 problems: more than 32-bit program ids count (2^31 - 1)
// Every tensor of a batch moves with it: one without its batch stride
// would be read at the first instance only.
// RUN: sed 's/#blk.arg<batch_stride "lse">/#blk.arg<param "lse_b">/' %examples/attention_fwd.mlir > %t.nostride.mlir
// RUN: not softmax-run %t.nostride.mlir --target cpu --rows 10 --inner 10 --cols 16 --param scale=0.25,lse_b=0 --const CAUSAL=0 --batch 2 2>&1 | FileCheck %s --check-prefix=NOSTRIDE
// NOSTRIDE: softmax-run: a batch of 2 x 1 problems, but tensor 'lse' has no batch_stride argument: every tensor of a batched program takes both
// The unnamed input is one matrix: a batch reads its files by name.
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 4 --cols 16 --output %t.matrix.npy
// RUN: not softmax-run %examples/attention_fwd.mlir --target cpu --input %t.matrix.npy --param scale=0.25 --const CAUSAL=0 --batch 2 --heads 2 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: softmax-run: --input {{.*}}.matrix.npy: a batch of 2 x 2 problems reads its inputs by name, each file holding every instance (--input NAME=FILE), and takes its shape from --rows and --cols
// RUN: not softmax-run %examples/attention_fwd.mlir --target cpu --rows 10 --inner 10 --cols 16 --param scale=0.25 --const CAUSAL=0 --layout sbhd 2>&1 | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: softmax-run: --layout must be bhsd or bshd, not 'sbhd'
//
// On the GPU's chips (PTX only): both products on wgmma with sm_90a, bound
// by the rules for chained products (Binding.h): 128 keys a step (64 at
// head_dim 64), K and V copied a step ahead into rings of 2 by cp.async
// (16 bytes a copy, 8 of K and 8 of V a thread a step), S = Q K^T reading K K-major (no
// transpose: imm-trans-b 0), its first K step writing S without adding
// (scale-d false: S starts at 0), O += P V with P from registers (4 a K
// step: wgmma's A fragments) and V read N-major (trans-b 1).
// RUN: softmax-run %examples/attention_fwd.mlir --batch 4 --heads 16 --rows 4096 --inner 4096 --cols 128 --param scale=0.088 --const CAUSAL=1 --dtype bf16 --chip sm_90a --emit-ptx %t.ptx | FileCheck %s --check-prefix=PTX
// PTX: PTX for sm_90a, CAUSAL=1 HEAD_DIM=128 KV=128 ROWS=128 warps=8 stages=2, grid 32 x 64:
// RUN: FileCheck %s --check-prefix=COPIES < %t.ptx
// COPIES-COUNT-16: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// RUN: FileCheck %s --check-prefix=S-PRODUCT < %t.ptx
// S-PRODUCT: setp.ne.b32 p, 0, 0;
// S-PRODUCT-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// S-PRODUCT-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// RUN: FileCheck %s --check-prefix=PV-PRODUCT < %t.ptx
// PV-PRODUCT-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// RUN: FileCheck %s --check-prefix=NOHALF < %t.ptx
// NOHALF: .entry
// NOHALF-NOT: {{ld\.global(\.nc)?\.[ub]16}}
// RUN: softmax-run %examples/attention_fwd.mlir --batch 4 --heads 16 --rows 4096 --inner 4096 --cols 64 --param scale=0.125 --const CAUSAL=0 --dtype bf16 --chip sm_90a --emit-ptx %t.64.ptx | FileCheck %s --check-prefix=PTX64
// PTX64: PTX for sm_90a, CAUSAL=0 HEAD_DIM=64 KV=64 ROWS=128 warps=8 stages=2, grid 32 x 64:
// sm_80 code: mma.sync, S and O in one mma layout (warps 4 x 2), so both
// accumulators stay in registers and the operands fit a CTA's shared memory.
// RUN: softmax-run %examples/attention_fwd.mlir --batch 4 --heads 16 --rows 4096 --inner 4096 --cols 128 --param scale=0.088 --const CAUSAL=0 --dtype bf16 --chip sm_80 --emit-ptx %t.sm80.ptx | FileCheck %s --check-prefix=SM80
// SM80: PTX for sm_80, CAUSAL=0 HEAD_DIM=128 KV=64 ROWS=128 warps=8 stages=2, grid 32 x 64:
// RUN: FileCheck %s --check-prefix=MMA < %t.sm80.ptx
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
