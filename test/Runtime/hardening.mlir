// softmax-run given what a careless or hostile user gives: each input
// below crashed, hung, wrote garbage or lost a file before; each now gets
// a clear error and a non-zero exit, and no file is lost.
// (scripts/fuzz-softmax-run.py sweeps many more of these.)
//
// Size arithmetic that overflows int64 (a heap overflow before).
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 1000 --in-stride 6148914691236517206 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 3037000500 --cols 3037000500 2>&1 | FileCheck %s --check-prefix=AREA
// STRIDE: error: tensor "x" of 3 rows with a stride of 6148914691236517206 elements overflows a 64-bit element count
// AREA: softmax_fused.mlir:15:1: error: tensor "y" of 3037000500 rows with a stride of 3037000500 elements overflows a 64-bit element count
//
// A block the host cannot allocate (a row of 10^8 columns held whole, under
// a 1.5 GB address-space limit): the program stops there with an error (a
// segfault before: it wrote through the null pointer).
// RUN: not bash -c "ulimit -v 1500000; softmax-run %examples/softmax_fused.mlir --target cpu --rows 1 --cols 100000000" 2>&1 | FileCheck %s --check-prefix=NOMEMORY
// NOMEMORY: softmax-run: program 0 of @softmax_fused could not allocate a block of 536870976 bytes: the host is out of memory
//
// A program without a kernel (a segfault before: the dialect was not loaded).
// RUN: printf '' > %t.empty.mlir
// RUN: not softmax-run %t.empty.mlir --target cpu --rows 2 --cols 3 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: printf 'func.func @f() {\n  return\n}\n' > %t.plain.mlir
// RUN: not softmax-run %t.plain.mlir --target cpu --rows 2 --cols 3 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: error: the program has no kernel: no func.func carries blk.kernel
//
// A failed --check writes no --output, and keeps the file that was there.
// RUN: printf 'previous' > %t.kept.npy
// RUN: not softmax-run %s.wrong --target cpu --rows 4 --cols 10 --check --reference softmax --output %t.kept.npy 2>&1 | FileCheck %s --check-prefix=CHECKFAIL
// RUN: FileCheck %s --check-prefix=KEPT --input-file %t.kept.npy
// CHECKFAIL: softmax-run: the check failed; {{.*}}kept.npy is not written
// KEPT: previous
//
// A write that fails half-way (a file-size limit) leaves the previous file
// whole: output, PTX and CSV go through a temporary file. SIGXFSZ is
// ignored so that the write fails instead of killing the process.
// RUN: printf 'previous' > %t.limited.npy
// RUN: not bash -c "trap '' XFSZ; ulimit -f 1; softmax-run %examples/softmax_fused.mlir --target cpu --rows 64 --cols 64 --output %t.limited.npy" 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: FileCheck %s --check-prefix=KEPT --input-file %t.limited.npy
// LIMIT: softmax-run: cannot write '{{.*}}limited.npy': File too large
// Several outputs are written all or none: the second one's failure keeps
// the first file as it was (it was rewritten before).
// RUN: printf 'previous' > %t.first.npy
// RUN: not softmax-run %examples/cross_entropy.mlir --target cpu --rows 4 --cols 100 --param ignore_index=-100 --output loss=%t.first.npy --output lse=/dev/full 2>&1 | FileCheck %s --check-prefix=FULLNPY
// RUN: FileCheck %s --check-prefix=KEPT --input-file %t.first.npy
// RUN: not ls %t.first.npy.tmp-*
// The input itself as the output: rewritten only when the run succeeds.
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 7 --output %t.same.npy
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --input %t.same.npy --output %t.same.npy --check | FileCheck %s --check-prefix=SAME
// SAME: check: {{.*}} OK
//
// Write errors are errors (an LLVM ERROR or exit 0 before).
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --bench --runs 3 --csv /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --bench --runs 3 --csv %t.missing/x.csv 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --output /dev/full 2>&1 | FileCheck %s --check-prefix=FULLNPY
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --emit-ptx /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --csv %t.csv 2>&1 | FileCheck %s --check-prefix=NOBENCH
// FULL: softmax-run: cannot write '/dev/full': No space left on device
// NODIR: softmax-run: cannot write '{{.*}}missing/x.csv': No such file or directory
// FULLNPY: softmax-run: cannot write '/dev/full': No space left on device
// NOBENCH: softmax-run: --csv records timings: give --bench too
// A file option with no file: refused (an empty --output wrote nothing and
// `--output y=` wrote a file named `y=`).
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --output "" 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --output y= 2>&1 | FileCheck %s --check-prefix=NOFILENAMED
// NOFILE: softmax-run: --output '': needs a file name
// NOFILENAMED: softmax-run: --output 'y=': needs a file name after y=
// An autotune cache without --autotune would be ignored: refused.
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --autotune-cache %t.tsv 2>&1 | FileCheck %s --check-prefix=NOTUNE
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --autotune --autotune-cache "" 2>&1 | FileCheck %s --check-prefix=NOTUNEFILE
// NOTUNE: softmax-run: --autotune-cache names the file --autotune keeps its choices in: give --autotune too
// NOTUNEFILE: softmax-run: --autotune-cache needs a file name
// Standard output that cannot be written: an error, not an LLVM ERROR.
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 > /dev/full 2> %t.stdout.err
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --json > /dev/full 2>> %t.stdout.err
// RUN: FileCheck %s --check-prefix=FULLSTDOUT --input-file %t.stdout.err
// FULLSTDOUT-NOT: LLVM ERROR
// FULLSTDOUT: softmax-run: cannot write standard output: No space left on device
// FULLSTDOUT-NOT: LLVM ERROR
// FULLSTDOUT: softmax-run: cannot write standard output: No space left on device
//
// The CSV says where each row was measured, and keeps its earlier rows.
// RUN: rm -f %t.rows.csv
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --bench --runs 3 --csv %t.rows.csv
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 5 --bench --runs 3 --csv %t.rows.csv --provider second
// RUN: FileCheck %s --check-prefix=CSV --input-file %t.rows.csv
// CSV: dtype,M,N,provider,gbps,target
// CSV-NEXT: f32,2,3,blk-softmax_fused,{{[0-9.]+}},cpu {{[0-9]+}} thread{{s?}}
// CSV-NEXT: f32,2,5,second,{{[0-9.]+}},cpu {{[0-9]+}} thread{{s?}}
//
// No perf jitdump per CPU run.
// RUN: rm -rf %t.jit && mkdir %t.jit
// RUN: env JITDUMPDIR=%t.jit softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3
// RUN: find %t.jit -type f | count 0
//
// Input files: read only as far as the array goes; the file decides the
// shape and a float16 file the dtype; `-` is standard output; a 1-D array
// comes back 1-D.
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --input /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 3 --cols 5 --dtype float16 --output %t.half.npy
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --input %t.half.npy --check | FileCheck %s --check-prefix=HALF
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --input %t.half.npy --dtype f32 2>&1 | FileCheck %s --check-prefix=HALF32
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --input %t.half.npy --rows 3 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --output - > %t.stdout.npy
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --input %t.stdout.npy --check | FileCheck %s --check-prefix=STDOUT
// RUN: %python -c "import struct,sys; h=b\"{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }\"; h+=b' '*(118-len(h))+b'\n'; sys.stdout.buffer.write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h+struct.pack('<5f',1,2,3,4,5))" > %t.vector.npy
// RUN: softmax-run %examples/softmax_fused.mlir --target cpu --input %t.vector.npy --output %t.vector.out.npy
// RUN: %python -c "import sys; print(open(sys.argv[1],'rb').read(128))" %t.vector.out.npy | FileCheck %s --check-prefix=VECTOR
// ZERO: /dev/zero: not a .npy file: bad magic
// HALF: 3 x 5 f16
// HALF: OK
// HALF32: holds float16 data, but --dtype is f32
// SHAPE: softmax-run: --rows and --cols cannot be given with --input: the shape is the file's
// STDOUT: 2 x 3 f32
// STDOUT: OK
// VECTOR: 'shape': (5,)
//
// Options out of range.
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --num-warps=-1 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 2 --cols 3 --runs 0 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: not softmax-run %examples/softmax_fused.mlir --target cpu --rows 1 --cols 2147483647 --check 2>&1 | FileCheck %s --check-prefix=MEMORY
// WARPS: softmax-run: --num-warps must be 0 (the program's own) or positive, not -1
// RUNS: softmax-run: --runs must be at least 1
// MEMORY: softmax-run: the problem needs {{[0-9]+}} MB of host memory (tensors, reference), more than this machine has
//
// Program text MLIR's parser could not survive: an endless or huge file,
// and nesting past 256 brackets (4,000 nested regions overflowed the
// passes' stack, 60,000 the parser's), refused before parsing.
// RUN: not softmax-run /dev/zero --target cpu --rows 2 --cols 3 2>&1 | FileCheck %s --check-prefix=PROGRAM-ZERO
// RUN: not softmax-opt < /dev/zero 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: %python -c "print('func.func @k() {' + 'scf.execute_region {' * 300 + '}' * 300 + '}')" > %t.deep.mlir
// RUN: not softmax-opt %t.deep.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not softmax-run %t.deep.mlir --target cpu --rows 2 --cols 3 2>&1 | FileCheck %s --check-prefix=DEEP
// PROGRAM-ZERO: softmax-run: the program '/dev/zero' is not a regular file (a device, a pipe or a directory is not read)
// STDIN: softmax-opt: <stdin>: the program has 16777217 bytes, more than a program may (16777216)
// DEEP: {{.*}}deep.mlir:1:{{[0-9]+}}: error: the program nests deeper than 256 brackets ({, (, [, <) here; no block program needs that many
