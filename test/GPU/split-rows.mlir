// REQUIRES: cuda-gpu
// Rows longer than a cluster holds, split by blk-split-rows over programs
// that meet in one launch (fitProgram splits them on sm_90+ for every
// program of the family but cross_entropy), checked against each kernel's
// float64 reference. --bench with --check launches once more after the
// timed launches (the counters past their first rounds) and compares byte
// for byte ("relaunch: same").
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --bench --rows 64 --cols 1048576 > %t.backward
// RUN: grep -q "BLOCK=8192 SPLITS=128 warps=8" %t.backward
// RUN: grep -q "relaunch: same" %t.backward
// RUN: softmax-run %examples/softmax_backward.mlir --target gpu --check --reference softmax_backward --rows 9 --cols 300000 --dtype bf16 --special | grep -q "SPLITS=64"
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --bench --rows 64 --cols 1048576 --dtype bf16 > %t.rms
// RUN: grep -q "BLOCK=8192 SPLITS=128 warps=8" %t.rms
// RUN: grep -q "relaunch: same" %t.rms
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 9 --cols 524288 --special | grep -q "SPLITS=64"
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --bench --rows 64 --cols 1048576 > %t.layer
// RUN: grep -q "BLOCK=8192 SPLITS=128 warps=8" %t.layer
// RUN: grep -q "relaunch: same" %t.layer
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 9 --cols 524288 --dtype bf16 --special | grep -q "SPLITS=64"

// A row's max and its sum of exps meet once a part, as (max, sum) pairs:
// rows of infinities, NaN and the float limits (--special), causal rows
// whose parts past the diagonal have no finite value.
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --bench --rows 64 --cols 1048576 > %t.log_softmax
// RUN: grep -q "BLOCK=8192 SPLITS=128 warps=8" %t.log_softmax
// RUN: grep -q "relaunch: same" %t.log_softmax
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 9 --cols 524288 --dtype bf16 --special | grep -q "SPLITS=64"
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=0 --bench --rows 64 --cols 1048576 --dtype bf16 > %t.scaled
// RUN: grep -q "SPLITS=128 warps=8" %t.scaled
// RUN: grep -q "relaunch: same" %t.scaled
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=2,offset=300000 --rows 9 --cols 524288 --special | grep -q "SPLITS=64"
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --split-rows=always --rows 9 --cols 524288 --dtype bf16 --special | grep -q "SPLITS=64"

// More rows than the grid holds parts (one CTA a program: split past 32768
// columns), a program walking parts of several rows; parts wholly past the
// row's end (40000 columns in 8 parts of 6144).
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --num-ctas 1 --bench --rows 4099 --cols 40000 --dtype bf16 > %t.many
// RUN: grep -q "BLOCK=6144 SPLITS=8" %t.many
// RUN: grep -q "relaunch: same" %t.many

// A program no kernel kind is named after: checked against the split
// program in float64, its programs meeting in the interpreter as on the GPU.
// RUN: sed -e 's/@log_softmax/@shifted_log_of_exps/' %examples/log_softmax.mlir > %t.renamed.mlir
// RUN: softmax-run %t.renamed.mlir --target gpu --check --num-ctas 1 --rows 33 --cols 40000 --special > %t.float64
// RUN: grep -q "SPLITS=8" %t.float64
// RUN: grep -q "OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)" %t.float64

// A row read and not written (cross_entropy) stays on its cluster, and so
// does any row with --split-rows=never.
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 9 --cols 524288 > %t.alone
// RUN: not grep -q "SPLITS" %t.alone
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --split-rows=never --rows 9 --cols 524288 > %t.held
// RUN: not grep -q "SPLITS" %t.held
