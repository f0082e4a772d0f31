// REQUIRES: cuda-gpu
// --autotune times the candidate bindings and remembers the fastest in its
// cache file: the same problem under the same options reuses it; other
// compile options (which change the code, or the candidates) tune again.
// Every run is checked against float64 with the binding it used. (grep,
// not FileCheck: the GPU host's bundle has no LLVM tools.)
// RUN: rm -f %t.tsv
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv > %t.1.log 2>&1
// RUN: grep -q "autotune: [0-9]* candidates timed, best" %t.1.log
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv > %t.2.log 2>&1
// RUN: grep -q "autotune: remembered in" %t.2.log
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv --stage-min-registers 0 > %t.3.log 2>&1
// RUN: grep -q "autotune: [0-9]* candidates timed, best" %t.3.log
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --param eps=1e-6 --rows 512 --cols 4096 --dtype bf16 --autotune --autotune-cache %t.tsv --stage-min-registers 0 > %t.4.log 2>&1
// RUN: grep -q "autotune: remembered in" %t.4.log
