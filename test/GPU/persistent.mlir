// REQUIRES: cuda-gpu
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 4096 --cols 1024
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 65536 --cols 2048 --dtype bf16
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 3 --cols 100 --special
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 100000 --cols 33
// Pipelined (blk-pipeline-loads): rows fewer than, as many as and more
// than the programs, strided rows; three stages; persistent clusters (8
// and 16 CTAs, 16-bit rows peeled); the online and tiled programs' tiles.
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 4096 --cols 1024 --num-stages 2 --special
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 1 --cols 1000 --num-stages 2
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 9999 --cols 4000 --dtype bf16 --num-stages 2 --in-stride 4008 --out-stride 4016
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 3001 --cols 8192 --dtype f16 --num-stages 3
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 300 --cols 65536 --dtype bf16 --num-stages 2 --special
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 70 --cols 262144 --num-stages 2
// RUN: softmax-run %examples/softmax_persistent.mlir --target gpu --check --reference softmax --rows 50 --cols 100003 --dtype bf16 --num-stages 2 --special
// RUN: softmax-run %examples/softmax_online.mlir --target gpu --check --reference softmax --rows 64 --cols 200000 --num-stages 2 --special
// RUN: softmax-run %examples/softmax_tiled.mlir --target gpu --check --reference softmax --rows 64 --cols 100003 --dtype bf16 --num-stages 3
