// REQUIRES: cuda-gpu
// Blocks that are a whole number of layout tiles rather than a power of two
// (the binding rules' tileRowBlocks; see test/Runtime/binding-tiled-blocks.mlir
// for the blocks chosen): rows on clusters (151936 f32 in 163840 on 16 CTAs,
// 100003 f32 in 106496), split parts (1048573 bf16 in 128 parts of 10240,
// peeled; 151936 bf16 in parts of 6144), one CTA given room for the shift
// (8191 f32 in 9216, 32767 bf16 in 36864), and the realigned norms on
// clusters (RMSNorm and LayerNorm 50257 bf16 in 57344). Every run is
// checked against the double-precision reference.
// RUN: softmax-run auto --target gpu --check --rows 24 --cols 151936 --special
// RUN: softmax-run auto --target gpu --check --rows 24 --cols 151936 --dtype bf16 --special
// RUN: softmax-run auto --target gpu --check --rows 5 --cols 1048573 --dtype bf16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 40 --cols 100003 --special
// RUN: softmax-run auto --target gpu --check --rows 100 --cols 8191 --in-stride 8195 --out-stride 8197 --special
// RUN: softmax-run auto --target gpu --check --rows 100 --cols 32767 --dtype bf16 --special
// Peeled 16-bit softmax rows on clusters hold up to 128 elements a thread
// (50257 on 2 CTAs of 8 warps, 100003 fused on 4 CTAs, 65535 on 16 warps).
// RUN: softmax-run auto --target gpu --check --rows 33 --cols 100003 --dtype bf16 --special
// Peeled 16-bit rows of 24577 to 32768 columns with their room run on 2
// CTAs of 4 warps (32001 in 32768, 24577 f16 in 26624, 28001 strided).
// RUN: softmax-run auto --target gpu --check --rows 300 --cols 32001 --dtype bf16 --special
// RUN: softmax-run auto --target gpu --check --rows 77 --cols 24577 --dtype f16 --special
// RUN: softmax-run auto --target gpu --check --rows 50 --cols 28001 --dtype bf16 --in-stride 28011 --out-stride 28003
// RUN: softmax-run auto --target gpu --check --rows 17 --cols 65535 --dtype bf16 --in-stride 65541 --out-stride 65543 --special
// RUN: softmax-run auto --target gpu --check --rows 65 --cols 50257 --dtype f16 --special
// RUN: softmax-run %examples/log_softmax.mlir --target gpu --check --reference log_softmax --rows 33 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/rms_norm.mlir --target gpu --check --reference rms_norm --param eps=1e-6 --rows 33 --cols 50257 --dtype bf16 --special
// RUN: softmax-run %examples/layer_norm.mlir --target gpu --check --reference layer_norm --param eps=1e-5 --rows 33 --cols 50257 --dtype bf16 --special
