// softmax-run --help: its options in groups (problem, inputs and outputs,
// checking, timing, compiling and tuning), the compile knobs with their
// defaults; LLVM's own options hidden.
// RUN: softmax-run --help | FileCheck %s
// CHECK: Checking:
// CHECK: --check
// CHECK: --expect=<string>
// CHECK: Compiling and tuning:
// CHECK: --async-fill-min-runs=<long> {{.*}} (default 12)
// CHECK: --check-bounds {{.*}} (default on)
// CHECK: --stage-min-registers=<long> {{.*}} (default 48)
// CHECK: Inputs and outputs (.npy):
// CHECK: --output=<string>
// CHECK: Problem:
// CHECK: --rows=<long>
// CHECK: Timing:
// CHECK: --bench
// CHECK-NOT: --amdgpu
