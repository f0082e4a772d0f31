// blk.dot with precision tf32 on the CPU: the tiled matmul of
// python-free-examples/ with its dot made tf32. The CPU lowering rounds A
// and B to tf32 (to nearest, ties away) as the float64 reference of the
// program does, so the two agree to f32's 1e-5 (rel_l2 1.7e-7; a tf32
// product's f32 outputs are checked at 1e-4); against the float64 matmul
// reference (no rounding) the same outputs fail 1e-4, which they would not
// if neither rounded.
// RUN: sed -e 's/%acc_in :/%acc_in precision tf32 :/' %examples/matmul.mlir > %t.mlir
// RUN: softmax-run %t.mlir --target cpu --rows 300 --cols 200 --inner 100 --check | FileCheck %s
// RUN: softmax-run %t.mlir --target cpu --rows 33 --cols 65 --inner 129 --check --special | FileCheck %s
// RUN: not softmax-run %t.mlir --target cpu --rows 300 --cols 200 --inner 100 --check --reference matmul | FileCheck %s --check-prefix=IEEE
// Ties: A = +-(1 + 2^-11), halfway between two tf32 values, times the
// identity gives +-(1 + 2^-10), away from zero (to even would give +-1; the
// example's ieee dot +-(1 + 2^-11) fails the same expectation).
// RUN: rm -rf %t.npy.d && mkdir -p %t.npy.d && python3 %S/Inputs/make-npy.py %t.npy.d
// RUN: softmax-run %t.mlir --target cpu --rows 16 --cols 16 --inner 16 --input a=%t.npy.d/tf32-tie-a.npy --input b=%t.npy.d/tf32-identity.npy --expect c=%t.npy.d/tf32-tie-c.npy | FileCheck %s --check-prefix=TIES
// RUN: not softmax-run %examples/matmul.mlir --target cpu --rows 16 --cols 16 --inner 16 --input a=%t.npy.d/tf32-tie-a.npy --input b=%t.npy.d/tf32-identity.npy --expect c=%t.npy.d/tf32-tie-c.npy
// Edges (past tf32's largest value, subnormals) round alike in the CPU
// lowering and the reference (the reference rounds to f32 first):
// RUN: softmax-run %t.mlir --target cpu --rows 16 --cols 16 --inner 16 --input a=%t.npy.d/tf32-edges-a.npy --input b=%t.npy.d/tf32-identity.npy --check | FileCheck %s
// The product rules' tile for tf32 on mma.sync (sm_80 and sm_90a alike:
// tf32 never takes wgmma), N of 100 in one 128-column block; the CPU keeps
// the scalar tile:
// RUN: softmax-run %t.mlir --rows 4096 --cols 4096 --inner 4096 --chip sm_90a --emit-ptx %t.ptx | FileCheck %s --check-prefix=RULES
// RUN: softmax-run %t.mlir --rows 4096 --cols 100 --inner 4096 --chip sm_80 --emit-ptx %t.ptx | FileCheck %s --check-prefix=RULES-NARROW
// RULES: PTX for sm_90a, BLOCK=128 KT=32 ROWS=128 SPLITS=32 warps=8 stages=2, grid 1024:
// RULES-NARROW: PTX for sm_80, BLOCK=128 KT=32 ROWS=128 SPLITS=1 warps=8 stages=2, grid 32:
// CHECK: OK (relative L2 tolerance 1e-04, element tolerance 1e-02, against the program in float64)
// IEEE: FAILED (relative L2 tolerance 1e-04, element tolerance 1e-02, against the float64 matmul reference)
// TIES: max_abs=0 {{.*}} OK
