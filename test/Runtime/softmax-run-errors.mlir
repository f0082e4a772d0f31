// softmax-run's own input handling on the CPU target: .npy in and out, and
// clear one-line errors with a non-zero exit for bad input.
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --output %t.npy --check
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --input %t.npy --check --dtype bf16 | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: printf 'NOTNUMPY' > %t.bad.npy
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --input %t.bad.npy 2>&1 | FileCheck %s --check-prefix=BADNPY
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --dtype f64 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --num-warps 3 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --num-ctas 3 2>&1 | FileCheck %s --check-prefix=CTAS
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --num-stages 7 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not softmax-run %examples/softmax_split_resident.mlir --target cpu --rows 4 --cols 20000 --check 2>&1 | FileCheck %s --check-prefix=BARRIER
// An option of one value given twice (the last one ran), and an empty
// --emit-ptx (ignored).
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --rows 9 --cols 4 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 4 --dtype f16 --dtype bf16 2>&1 | FileCheck %s --check-prefix=DTYPE-TWICE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 8 --cols 4 --emit-ptx "" 2>&1 | FileCheck %s --check-prefix=NO-PTX-FILE
// RUN: not softmax-run %examples/layer_norm.mlir --target cpu --rows 8 --cols 4 --param eps=1e-5 --combine-centered-squares-min-elements -7 2>&1 | FileCheck %s --check-prefix=MIN-ELEMENTS
// TWICE: softmax-run: --rows is given more than once
// MIN-ELEMENTS: combine-centered-squares-min-elements must be 0 (never) or positive, not -7
// DTYPE-TWICE: softmax-run: --dtype is given more than once
// NO-PTX-FILE: softmax-run: --emit-ptx needs a file name (- for standard output)
// BARRIER: softmax_split_resident.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'blk.program_barrier' op waits for other programs, but the CPU path runs a kernel's programs one after another
// BARRIER: softmax-run: compilation failed
// WARPS: softmax-run: --num-warps must be 0 (the program's own) or a power of two from 1 to 32, not 3
// CTAS: softmax-run: --num-ctas must be 0 (the program's own) or a power of two from 1 to 16, not 3
// STAGES: softmax-run: --num-stages must be 0 (the program's own) or from 1 to 4, not 7
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --in-stride 4 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: not softmax-run %examples/softmax_fused.mlir --target tpu --rows 3 --cols 5 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --const BLOCK 2>&1 | FileCheck %s --check-prefix=CONST
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --const BLOCK=99999999999999999999 2>&1 | FileCheck %s --check-prefix=CONSTBIG
// RUN: not softmax-run %s.missing --rows 3 --cols 5 2>&1 | FileCheck %s --check-prefix=PROGRAM

// ROUNDTRIP: softmax_fused.mlir: 3 x 5 bf16
// ROUNDTRIP: OK (relative L2 tolerance 1e-02, element tolerance 3e-01, against the program in float64)
// BADNPY: softmax-run: {{.*}}.bad.npy: not a .npy file: bad magic
// DTYPE: softmax-run: --dtype must be f32, f16 or bf16, not 'f64'
// SHAPE: softmax-run: give the shape with --rows M --cols N (both >= 1) or --input
// STRIDE: softmax_fused.mlir:15:1: error: the row stride of "x" (4) is less than the row length (5)
// TARGET: softmax-run: --target must be gpu, cpu or auto
// CONST: softmax-run: --const BLOCK: expected NAME=VALUE, VALUE a decimal integer from -2^63 to 2^63 - 1
// CONSTBIG: softmax-run: --const BLOCK=99999999999999999999: expected NAME=VALUE, VALUE a decimal integer from -2^63 to 2^63 - 1
// PROGRAM: softmax-run: cannot read the program

// A chip LLVM's NVPTX back end does not know is an error with the chips it
// knows (NVPTX itself aborts with "Cannot select").
// RUN: not softmax-run auto --rows 64 --cols 64 --chip sm_999 --emit-ptx %t.sm999.ptx 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown chip 'sm_999': LLVM 22's NVPTX back end knows sm_70
// CHIP-NOT: LLVM ERROR

// --chip compiles for a GPU: a CPU run would drop it silently, so it is
// refused there (with --emit-ptx it still names the PTX's chip).
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --chip sm_80 2>&1 | FileCheck %s --check-prefix=CPUCHIP
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --chip sm_80 --emit-ptx %t.sm80.ptx
// RUN: grep -q "^.target sm_80" %t.sm80.ptx
// CPUCHIP: softmax-run: --chip sm_80 names the GPU to compile for: not with --target cpu (only --emit-ptx compiles for a chip without running there)
