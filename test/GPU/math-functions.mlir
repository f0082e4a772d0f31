// REQUIRES: cuda-gpu
// tanh, erf, powf, absf and sqrt on the GPU (lib/Conversion/BlkToGPU/MathOps.cpp: no
// libdevice), each output checked against the program in float64: random
// inputs, special values (+-inf, NaN, near the float limits), 16-bit data,
// and GELU's tanh form.
// RUN: softmax-run %S/Inputs/math-functions.mlir --target gpu --check --rows 256 --cols 1000 | grep -c "OK (relative" | grep -qx 4
// RUN: softmax-run %S/Inputs/math-functions.mlir --target gpu --check --rows 77 --cols 4097 --special | grep -c "OK (relative" | grep -qx 4
// RUN: softmax-run %S/Inputs/math-functions.mlir --target gpu --check --rows 64 --cols 300 --dtype bf16 --special | grep -c "OK (relative" | grep -qx 4
// RUN: softmax-run %S/Inputs/gelu.mlir --target gpu --check --rows 1024 --cols 4096 --special | grep -q "OK (relative"
// RUN: softmax-run %S/Inputs/gelu.mlir --target gpu --check --rows 100 --cols 1001 --dtype f16 | grep -q "OK (relative"
// Every pair of 23 special values (0, -0, +-1, +-2, +-0.5, +-3, +-1e30,
// +-3e38, +-1e-30, a subnormal, +-inf, NaN, +-2.5, 7) as base and exponent:
// C's powf special cases (pow(-inf, 0.5) is +inf, pow(-2, 0.5) NaN,
// pow(-0, -3) -inf, pow(1, NaN) 1...), and tanh, erf and sqrt of them.
// RUN: softmax-run %S/Inputs/math-functions.mlir --target gpu --check --input x=%S/Inputs/pow-bases.npy --input q=%S/Inputs/pow-exponents.npy | grep -c "OK (relative" | grep -qx 4

