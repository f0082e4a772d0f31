// REQUIRES: cuda-gpu
// softmax_split_resident: a row's parts meet at blk.program_barrier in one
// launch. --bench with --check launches once more after the timed launches
// (the counters then past their first rounds) and compares with the
// checked output byte for byte (softmax-run fails if it differs).
// RUN: softmax-run %examples/softmax_split_resident.mlir --target gpu --check --reference softmax --bench --rows 64 --cols 1048576 | grep "relaunch: same"
// RUN: softmax-run %examples/softmax_split_resident.mlir --target gpu --check --reference softmax --bench --rows 256 --cols 262144 --dtype bf16 | grep "relaunch: same"
// RUN: softmax-run %examples/softmax_split_resident.mlir --target gpu --check --reference softmax --rows 33 --cols 100003 --special
// RUN: softmax-run %examples/softmax_split_resident.mlir --target gpu --check --reference softmax --rows 5 --cols 7 --special --dtype f16
// More rows than the grid holds parts: a program walks several rows, and
// rows' parts straddle the grid's rounds.
// RUN: softmax-run %examples/softmax_split_resident.mlir --target gpu --check --reference softmax --bench --rows 4099 --cols 20000 --dtype bf16 --const SPLITS=4,BLOCK=8192 | grep "relaunch: same"
// With the next part's load issued ahead (num_stages = 2): the partials,
// read after the barrier, are not.
// RUN: softmax-run %examples/softmax_split_resident.mlir --target gpu --check --reference softmax --rows 1000 --cols 65536 --num-stages 2
// Without --reference: checked against the program in float64, its programs
// meeting in the interpreter as on the GPU.
// RUN: softmax-run %examples/softmax_split_resident.mlir --target gpu --check --rows 33 --cols 100003 --special | grep -q "OK (relative L2 tolerance 1e-05, element tolerance 1e-03, against the program in float64)"
