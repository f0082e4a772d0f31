// REQUIRES: cuda-gpu
// --autotune times the candidate bindings and remembers the fastest in its
// cache file: the same problem under the same options reuses it; other
// compile options (which change the code, or the candidates) tune again.
// Every run is checked against float64 with the binding it used.
// RUN: rm -f %t.tsv
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv 2>&1 | FileCheck %s --check-prefix=TUNED
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv 2>&1 | FileCheck %s --check-prefix=REMEMBERED
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv --stage-min-registers 0 2>&1 | FileCheck %s --check-prefix=TUNED
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv --stage-min-registers 0 2>&1 | FileCheck %s --check-prefix=REMEMBERED
// RUN: test $(wc -l < %t.tsv) -eq 2
// TUNED: autotune: {{[0-9]+}} candidates timed, best
// TUNED: check: {{.*}} OK
// REMEMBERED: autotune: remembered in
// REMEMBERED: check: {{.*}} OK
