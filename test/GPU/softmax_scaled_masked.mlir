// REQUIRES: cuda-gpu
// python-free-examples/softmax_scaled_masked.mlir on the GPU against the
// float64 reference (test/Runtime/softmax-scaled-masked.mlir runs it on the
// CPU), causal and not, and against its own CPU lowering (--reference cpu).
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=0 --rows 4096 --cols 4096
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=0 --param scale=2,offset=0 --rows 77 --cols 4097 --special
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=-0.5,offset=-3 --rows 333 --cols 3000 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=1,offset=100 --rows 64 --cols 65536
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference cpu --const CAUSAL=1 --param scale=0.5,offset=7 --rows 100 --cols 1000 --dtype f16
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=1,offset=0 --rows 1 --cols 1
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=2147483600 --rows 128 --cols 4096
// Causal rows no multiple of 16 bytes (GPT-2's 50257): blk-peel-alignment
// shifts them, the causal comparison moving with the columns, and each
// run's mask is decided at its ends (`cols < n`, `cols <= last`). Offsets
// put the diagonal at the row's start, middle and past its end.
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=0 --rows 300 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=-0.5,offset=25000 --rows 200 --cols 50257 --special
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=2,offset=50250 --rows 64 --cols 50257 --dtype f16
// An aligned causal row held on a cluster (not shifted: its runs AND
// their mask bits).
// RUN: softmax-run %examples/softmax_scaled_masked.mlir --target gpu --check --reference scaled_softmax --const CAUSAL=1 --param scale=0.125,offset=131000 --rows 96 --cols 262144 --dtype bf16
