// --output writes outputs by name, each in its own type: an argmax's int32
// per row as int32 (it had come back as float32), both outputs of a
// residual add with RMSNorm, f16 as float16; a name the program has no
// output of is an error before the run (it had silently written the first
// output into a file named "s=s.npy").
// RUN: softmax-run %S/../GPU/Inputs/argmax.mlir --target cpu --rows 5 --cols 7 --check --output index=%t.index.npy
// RUN: od -A n -c -j 10 -N 60 %t.index.npy | tr -d ' \n' | FileCheck %s --check-prefix=INT32
// INT32: 'descr':'<i4','fortran_order':False,'shape':(5,)
// RUN: %python -c "import struct, sys; data = open(sys.argv[1], 'rb').read(); values = struct.unpack('<5i', data[-20:]); print(values); sys.exit(not all(0 <= v < 7 for v in values))" %t.index.npy
//
// RUN: softmax-run %S/../GPU/Inputs/add_rms_norm.mlir --target cpu --rows 3 --cols 8 --param eps=1e-6 --dtype f16 --check --output h=%t.h.npy --output y=%t.y.npy
// RUN: od -A n -c -j 10 -N 60 %t.h.npy | tr -d ' \n' | FileCheck %s --check-prefix=F16
// RUN: od -A n -c -j 10 -N 60 %t.y.npy | tr -d ' \n' | FileCheck %s --check-prefix=F16
// F16: 'descr':'<f2','fortran_order':False,'shape':(3,8)
//
// RUN: not softmax-run %S/../GPU/Inputs/argmax.mlir --target cpu --rows 5 --cols 7 --output s=%t.s.npy 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: softmax-run: --output s={{.*}}.s.npy: the program has no output 's' (its outputs: index)
// RUN: not softmax-run %S/../GPU/Inputs/argmax.mlir --target cpu --rows 5 --cols 7 --output %t.a.npy --output %t.b.npy 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: softmax-run: --output {{.*}}.b.npy: a second unnamed file ({{.*}}.a.npy is the first); name its tensor with NAME=FILE
//
// --expect NAME=FILE compares an output with a user's .npy: what a run
// wrote matches a rerun on the same inputs, and not one on other inputs;
// a file that does not fit its output is an error before the run.
// RUN: softmax-run %S/../GPU/Inputs/add_rms_norm.mlir --target cpu --rows 3 --cols 8 --param eps=1e-6 --output h=%t.h32.npy --output y=%t.y32.npy
// RUN: softmax-run %S/../GPU/Inputs/add_rms_norm.mlir --target cpu --rows 3 --cols 8 --param eps=1e-6 --expect h=%t.h32.npy --expect y=%t.y32.npy | FileCheck %s --check-prefix=EXPECT
// EXPECT: check: compared=24 max_abs=0 {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against {{.*}}.h32.npy)
// EXPECT: check: compared=24 max_abs=0 {{.*}} OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against {{.*}}.y32.npy)
// RUN: not softmax-run %S/../GPU/Inputs/add_rms_norm.mlir --target cpu --rows 3 --cols 8 --param eps=1e-6 --seed 5 --expect y=%t.y32.npy | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: FAILED (relative L2 tolerance 1e-05, element tolerance 1e-03, against {{.*}}.y32.npy)
// RUN: softmax-run %S/../GPU/Inputs/argmax.mlir --target cpu --rows 5 --cols 7 --expect index=%t.index.npy | FileCheck %s --check-prefix=EXACTFILE
// EXACTFILE: check: compared=5 mismatches=0  OK (exact, against {{.*}}.index.npy)
// RUN: not softmax-run %S/../GPU/Inputs/argmax.mlir --target cpu --rows 6 --cols 7 --expect index=%t.index.npy 2>&1 | FileCheck %s --check-prefix=FIT
// FIT: softmax-run: --expect index={{.*}}.index.npy: the file holds 1 x 5 values, but 'index' is 6 values

