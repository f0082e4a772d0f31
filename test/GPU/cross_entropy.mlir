// REQUIRES: cuda-gpu
// python-free-examples/cross_entropy.mlir on the GPU against the float64
// loss and logsumexp (test/Runtime/cross-entropy.mlir runs it on the CPU),
// at vocabulary sizes (128256 columns run on a cluster), and against its own
// CPU lowering (--reference cpu).
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 4096 --cols 1024
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 77 --cols 4097 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 256 --cols 50257 --dtype bf16 --special
// 2 CTAs of 4 warps (a peeled 16-bit row of 24577 to 32768 columns).
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 256 --cols 32001 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 128256
// bf16 rows read and not written back on a cluster take the wide rows'
// shares (holdsUnwrittenRows): 65536 on 2 CTAs of 8 warps, 128256 on 4.
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 65536 --dtype bf16 --special
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 64 --cols 128256 --dtype bf16
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cpu --param ignore_index=3 --rows 100 --cols 1000 --dtype f16
// RUN: softmax-run %examples/cross_entropy.mlir --target gpu --check --reference cross_entropy --param ignore_index=-100 --rows 1 --cols 1
