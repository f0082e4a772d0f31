"""Writes the .npy files of npy-inputs.mlir into the directory argv[1]
(numpy-free: the header and data by hand)."""
import math
import os
import struct
import sys


def npy(name, descr, shape, values, fmt):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(os.path.join(sys.argv[1], name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                header.encode() + struct.pack("<%d%s" % (len(values), fmt), *values))


npy("labels.npy", "<i8", "(4,)", [3, -100, 0, 9], "q")
npy("labels32.npy", "<i4", "(4,)", [3, -100, 0, 9], "i")
npy("logits.npy", "<f4", "(4, 10)", [float(i % 7) - 3 for i in range(40)], "f")
npy("five.npy", "<i8", "(5,)", [3, -100, 0, 9, 1], "q")
npy("huge.npy", "<i8", "(4,)", [3, 1 << 40, 0, 9], "q")
npy("outside.npy", "<i8", "(4,)", [3, 10, -5, 9], "q")
npy("weight.npy", "<f4", "(10,)", [0.5] * 10, "f")
# bf16 subnormals, +-k 2^-133 (test/Runtime/bf16-subnormals.mlir).
npy("bf16-subnormal.npy", "<f4", "(2, 300)",
    [(-1) ** i * (i % 127 + 1) * 2.0 ** -133 for i in range(600)], "f")
# Rows far from zero against their spread (test/Runtime/layer-norm.mlir):
# means 10 to 30 with a spread of about 0.3, and a row of spread 1 whose
# first element is 300 (an outlier channel).
npy("offset.npy", "<f4", "(4, 4096)",
    [(300.0 if c == 0 else ((c * 37) % 101 - 50) / 50) if r == 3 else
     10 * (r + 1) + 0.3 * ((c * 37) % 101 - 50) / 50
     for r in range(4) for c in range(4096)], "f")
# Attention's q, k, v and do, [B, H, S, D] = [1, 2, 40, 64], shared by the
# forward and the backward (test/Runtime/attention-backward.mlir).
for index, name in enumerate(("q", "k", "v", "do")):
    npy("attention-%s.npy" % name, "<f4", "(1, 2, 40, 64)",
        [2 * math.sin(0.37 * i + 1.3 * index) * math.cos(0.011 * i * (index + 1))
         for i in range(2 * 40 * 64)], "f")
# tf32 ties (test/Runtime/dot-tf32.mlir): A = +-(1 + 2^-11), halfway between
# two tf32 values, times the identity: C = +-(1 + 2^-10), ties away from zero.
npy("tf32-tie-a.npy", "<f4", "(16, 16)",
    [(-1) ** i * (1 + 2.0 ** -11) for i in range(256)], "f")
npy("tf32-identity.npy", "<f4", "(16, 16)",
    [1.0 if i // 16 == i % 16 else 0.0 for i in range(256)], "f")
npy("tf32-tie-c.npy", "<f4", "(16, 16)",
    [(-1) ** i * (1 + 2.0 ** -10) for i in range(256)], "f")
# tf32 at its edges: past the largest tf32 value (0x7f7ff800 rounds to inf),
# subnormals (2^-140 keeps f32's spacing), a negative subnormal, a tie.
edges = [struct.unpack("<f", struct.pack("<I", 0x7F7FF800))[0], 2.0 ** -140,
         -1.3 * 2.0 ** -130, 1 + 2.0 ** -11]
npy("tf32-edges-a.npy", "<f4", "(16, 16)",
    [edges[i // 16] if i // 16 < len(edges) else 0.5 for i in range(256)], "f")
# A product's operands alone give its shape (test/Runtime/matmul.mlir):
# A 3 x 20 (M x K), B 20 x 5 (K x N); B2 19 x 5 does not multiply.
npy("mm-a.npy", "<f4", "(3, 20)", [math.sin(i) for i in range(60)], "f")
npy("mm-b.npy", "<f4", "(20, 5)", [math.cos(i) for i in range(100)], "f")
npy("mm-b19.npy", "<f4", "(19, 5)", [math.cos(i) for i in range(95)], "f")
