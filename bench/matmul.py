#!/usr/bin/env python3
"""A matmul, C = A B (M x N x K), on the GPU: blk's tiled block program
(python-free-examples/matmul.mlir, run by softmax-run --json --bench)
against torch.matmul (cuBLAS) and a Triton matmul written here (the
textbook tiled kernel: 128 x 128 x 64 tiles, grouped program order, 3
stages, 8 warps), in TFLOP/s (2 M N K flops over the median time).

    python3 bench/matmul.py --binary bin/softmax-run \
        --shapes 4096x4096x4096,1x4096x4096 [--sweep]

Each shape runs blk as a user would, with the tile the binding rules
choose (compiled cold, then again from the kernel cache) and with
--autotune (which times the rules' candidates); --chips adds the rules'
binding for other chips (sm_80: mma.sync); --sweep adds every tile of
BLK_TILES and the best one compiled for sm_90 and sm_80 (mma.sync).
blk's time is softmax-run's median (L2 flushed before each launch); torch's
and Triton's are triton.testing.do_bench's median (which also clears L2).
Every blk run is checked: its C (--output) against torch's float32
product of the same 16-bit inputs (--input), by softmax-run's rule
(bench/tolerance.py); Triton's the same.

--dtypes tf32 runs the program with its blk.dot made `precision tf32` on
f32 data, beside torch.matmul with allow_tf32 and the Triton kernel on
f32 (tl.dot's default input precision is tf32); its C is checked as
softmax-run checks such a program: against the product in float64 of the
inputs rounded to tf32 (to nearest, ties away), at the tolerance of tf32
products (bench/tolerance.py).
"""
import argparse
import os
import sys
import tempfile

import numpy

from softmax_run import blk_row, run_json
from tolerance import relative_l2

# The blk tiles --sweep tries (ROWS x BLOCK x KT, warps, num_stages: the K
# loop's loads in flight that many iterations ahead, in registers
# (blk-pipeline-loads), or on sm_90a with rows of whole 16-byte runs as
# cp.async copies into rings of num_stages swizzled buffers
# (blk-pipeline-dot-operands)), each a row.
BLK_TILES = [(64, 128, 32, 4, 1), (128, 128, 32, 8, 1), (128, 128, 64, 8, 2),
             (128, 128, 64, 8, 3), (128, 128, 64, 4, 3), (128, 128, 128, 8, 3),
             (128, 256, 64, 8, 1), (128, 256, 64, 8, 2), (128, 256, 64, 8, 3),
             (128, 256, 64, 8, 4), (256, 128, 64, 8, 3), (256, 128, 64, 8, 4)]
# For tf32 (32-bit operands through registers, no rings): the tiles of the
# sweep behind the rules' kTf32Tile (docs/bench-data/matmul/tf32-h100/).
TF32_TILES = [(128, 128, 32, 8, 2), (128, 128, 32, 8, 3), (64, 128, 32, 4, 3),
              (128, 64, 32, 4, 3), (64, 64, 32, 4, 2)]


def tile_arguments(tile):
    """softmax-run's flags for a tile (SPLITS: the rules' ceil(N / BLOCK))."""
    rows, block, k_step, warps, stages = tile
    return ["--const", f"ROWS={rows},BLOCK={block},KT={k_step}",
            "--num-warps", str(warps), "--num-stages", str(stages)]


def blk_run(binary, program, files, shape, dtype, want, extra=()):
    """softmax-run on the inputs in `files` with the kernel cache in
    `files`/cache (empty at the first run of a binding: a cold compile):
    (ms, rel_l2 against `want`, facts), or (None, why, None)."""
    m, n, k = shape
    out = os.path.join(files, "c.npy")
    command = [binary, program, "--target", "gpu", "--dtype", dtype,
               "--rows", str(m), "--cols", str(n), "--inner", str(k),
               "--input", "a=" + os.path.join(files, "a.npy"),
               "--input", "b=" + os.path.join(files, "b.npy"),
               "--output", "c=" + out, "--bench", "--json",
               "--cache-dir", os.path.join(files, "cache"), *extra]
    facts, error = run_json(command)
    if facts is None:
        return None, error, None
    return facts["bench"]["ms"], relative_l2(numpy.load(out), want), facts


def triton_matmul():
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m = tl.cdiv(M, BM)
        tiles_n = tl.cdiv(N, BN)
        in_group = GROUP_M * tiles_n
        first_m = (pid // in_group) * GROUP_M
        group_m = min(tiles_m - first_m, GROUP_M)
        pid_m = first_m + (pid % in_group) % group_m
        pid_n = (pid % in_group) // group_m
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        a_ptrs = a + rm[:, None] * sam + rk[None, :] * sak
        b_ptrs = b + rk[:, None] * sbk + rn[None, :] * sbn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            left = K - k * BK
            x = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < left),
                        other=0.0)
            y = tl.load(b_ptrs, mask=(rk[:, None] < left) & (rn[None, :] < N),
                        other=0.0)
            acc = tl.dot(x, y, acc)
            a_ptrs += BK * sak
            b_ptrs += BK * sbk
        tl.store(c + rm[:, None] * scm + rn[None, :] * scn,
                 acc.to(c.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))

    def run(x, y, out):
        M, K = x.shape
        N = y.shape[1]
        grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
        kernel[grid](x, y, out, M, N, K, x.stride(0), x.stride(1),
                     y.stride(0), y.stride(1), out.stride(0), out.stride(1),
                     BM=128, BN=128, BK=64, GROUP_M=8, num_warps=8,
                     num_stages=3)
    return run


def tf32_program(program, directory):
    """`program` with its product's inputs taken as tf32, written into
    `directory`: the path."""
    with open(program) as source:
        text = source.read()
    made = text.replace("%acc_in :", "%acc_in precision tf32 :")
    if made == text:
        sys.exit(f"{program}: no `%acc_in :` dot to make tf32")
    path = os.path.join(directory, "matmul_tf32.mlir")
    with open(path, "w") as out:
        out.write(made)
    return path


def round_to_tf32(values):
    """f32 `values` rounded to tf32 as cvt.rna does (10 bits of mantissa,
    to nearest, ties away from zero; past tf32's largest value, infinity);
    NaN stays NaN."""
    values = numpy.ascontiguousarray(values, dtype=numpy.float32)
    bits = values.view(numpy.uint32)
    rounded = ((bits + numpy.uint32(0x1000)) &
               numpy.uint32(0xFFFFE000)).view(numpy.float32)
    return numpy.where(numpy.isnan(values), values, rounded)


def parse_shapes(text):
    """'4096x4096x4096,1x4096x4096' (M x N x K) or '4096' (N x N x N)."""
    shapes = []
    for item in text.split(","):
        dims = [int(d) for d in item.split("x")]
        shapes.append(tuple(dims) if len(dims) == 3 else (dims[0],) * 3)
    return shapes


def blk_runs(args, dtype):
    """The runs of one shape: (label, softmax-run's extra flags)."""
    runs = [("blk rules", ()), ("blk rules again", ()),
            ("blk autotune", ("--autotune", "--autotune-cache", "TUNE"))]
    runs += [("blk rules " + chip, ("--chip", chip))
             for chip in args.chips.split(",") if chip]
    if args.sweep:
        tiles = TF32_TILES if dtype == "tf32" else BLK_TILES
        runs += [("blk %dx%dx%d w%d s%d" % tile, tile_arguments(tile))
                 for tile in tiles]
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="build/bin/softmax-run")
    parser.add_argument("--program", default="python-free-examples/matmul.mlir")
    parser.add_argument("--shapes", default="1024,2048,4096",
                        help="M x N x K, comma-separated ('4096' is N^3)")
    parser.add_argument("--dtypes", default="bf16")
    parser.add_argument("--chips", default="",
                        help="also the rules' binding compiled for these "
                             "chips, e.g. sm_80 (mma.sync on this GPU)")
    parser.add_argument("--sweep", action="store_true",
                        help="also every tile of BLK_TILES, and the best "
                             "one for sm_90 and sm_80")
    args = parser.parse_args()

    import torch
    from triton.testing import do_bench
    torch_types = {"bf16": torch.bfloat16, "f16": torch.float16,
                   "tf32": torch.float32}
    tri = triton_matmul()
    programs = (tempfile.TemporaryDirectory()
                if "tf32" in args.dtypes.split(",") else None)
    print("dtype,M,N,K,provider,ms,tflops,percent_of_cublas,note")
    for dtype in args.dtypes.split(","):
        tf32 = dtype == "tf32"
        program = tf32_program(args.program, programs.name) if tf32 else args.program
        data_type = "f32" if tf32 else dtype
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for m, n, k in parse_shapes(args.shapes):
            flops = 2.0 * m * n * k
            x = torch.randn(m, k, device="cuda", dtype=torch_types[dtype])
            y = torch.randn(k, n, device="cuda", dtype=torch_types[dtype])
            out = torch.empty(m, n, device="cuda", dtype=torch_types[dtype])
            if tf32:
                want = (round_to_tf32(x.cpu().numpy()).astype(numpy.float64) @
                        round_to_tf32(y.cpu().numpy()).astype(numpy.float64))
            else:
                want = (x.float() @ y.float()).cpu().numpy()
            cublas = do_bench(lambda: torch.matmul(x, y, out=out),
                              return_mode="median")
            tri(x, y, out)
            triton_error = relative_l2(out.float().cpu().numpy(), want)
            triton_ms = do_bench(lambda: tri(x, y, out), return_mode="median")
            rows = [("torch.matmul", cublas, ""),
                    ("triton", triton_ms, f"rel_l2 {triton_error:.1e}")]
            with tempfile.TemporaryDirectory() as files:
                numpy.save(os.path.join(files, "a.npy"),
                           x.float().cpu().numpy())
                numpy.save(os.path.join(files, "b.npy"),
                           y.float().cpu().numpy())
                tune = os.path.join(files, "autotune.tsv")
                runs = blk_runs(args, dtype)
                best = None
                while runs:
                    label, extra = runs.pop(0)
                    extra = [tune if e == "TUNE" else e for e in extra]
                    ms, error, facts = blk_run(args.binary, program, files,
                                               (m, n, k), data_type, want,
                                               extra)
                    row = blk_row(label, dtype, ms, error, facts)
                    rows.append(row)
                    if (row[1] is not None and "--const" in extra
                            and (best is None or ms < best[1])):
                        best = (extra, ms)
                    if not runs and best and args.sweep:
                        # The sweep's best tile compiled for sm_90
                        # (portable code: mma.sync where an H100 takes
                        # wgmma, sm_90a) and for sm_80, there with at most 2
                        # stages (mma.sync's operands pass through registers;
                        # more stages spill).
                        portable = list(best[0])
                        at = portable.index("--num-stages") + 1
                        portable[at] = str(min(int(portable[at]), 2))
                        runs = [("blk best sm_90", portable + ["--chip", "sm_90"]),
                                ("blk best sm_80", portable + ["--chip", "sm_80"])]
                        best = None
            for name, ms, note in rows:
                if ms is None:
                    print(f"{dtype},{m},{n},{k},{name},,,,{note}")
                    continue
                print(f"{dtype},{m},{n},{k},{name},{ms:.4f},"
                      f"{flops / ms / 1e9:.1f},{100 * cublas / ms:.1f},{note}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
