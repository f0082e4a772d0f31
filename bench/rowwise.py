#!/usr/bin/env python3
"""The row-wise family against torch on the GPU, in one run: for each
kernel, dtype and shape, the project's kernel (softmax-run --bench: CUDA
events, L2 flushed, median of 50, and a device copy of the same bytes timed
the same way), torch's implementation eager and, with --compile, the same
function through torch.compile (Inductor's generated Triton; dynamic=False,
compiled once per shape before it is timed), both by triton.testing.do_bench
(median).

  python3 bench/rowwise.py --softmax-run bin/softmax-run --examples examples \\
      [--kernels log_softmax rms_norm ...] [--dtypes f32 bf16] \\
      [--shapes 4096x256 ...] [--compile] > table.md

GB/s = the bytes the kernel must move (every input and output once, as
softmax-run counts them) / time, for ours and torch's alike. The peers:
torch.log_softmax; torch._softmax_backward_data; cross_entropy(reduction=
'none') (ours also writes the logsumexp, 4 bytes a row); rms_norm;
layer_norm; and for scaled_softmax (causal, scale 0.125) torch.softmax of
the already scaled and masked scores: one kernel, a lower bound of what
torch spends on it; compiled, the whole of it (scale, causal mask from the
indices, softmax), which Inductor fuses into one kernel. Correctness is the
GPU tests' (test/GPU/<kernel>.mlir): the timed runs are not checked.
`--kernels row_sum` adds a yardstick (bench/row_sum.mlir: read a row, write
its sum, beside x.sum(-1)): what a read-only row kernel reaches.
"""
import argparse
import os
import re
import subprocess
import sys
import time

# Hidden sizes of real models, a row no multiple of 8 (GPT-2's
# vocabulary), long rows, and rows of a million.
SHAPES = ("4096x1024 4096x2048 4096x4096 4096x8192 4096x12288 4096x16384 "
          "4096x50257 256x262144 64x1048576")
# More shapes for the kernels that run over a vocabulary.
VOCABULARIES = "4096x32000 4096x128256 4096x151936 4096x256000"
VOCABULARY_KERNELS = ("cross_entropy", "log_softmax")
KERNELS = {
    # name: (program, softmax-run arguments)
    "log_softmax": ("log_softmax.mlir", []),
    "softmax_backward": ("softmax_backward.mlir", []),
    "cross_entropy": ("cross_entropy.mlir", ["--param", "ignore_index=-100"]),
    "rms_norm": ("rms_norm.mlir", ["--param", "eps=1e-6"]),
    "layer_norm": ("layer_norm.mlir", ["--param", "eps=1e-5"]),
    "scaled_softmax": ("softmax_scaled_masked.mlir",
                       ["--const", "CAUSAL=1", "--param", "scale=0.125,offset=0"]),
}
# Yardsticks, not kernels of the family (not run unless named): a program
# beside this script, against torch's version of it.
YARDSTICKS = {
    # A read-only row kernel: read a row, write its sum (x.sum(-1)).
    "row_sum": (os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "row_sum.mlir"), []),
}
BINDING = re.compile(r"target: GPU .*?\), (.*?), grid")
BENCH = re.compile(r"bench: ([0-9.]+) ms .*?, ([0-9.]+) GB/s = ([0-9.]+)% of "
                   r"a device copy \(([0-9.]+) GB/s\)")


def ours(args, kernel, dtype, m, n):
    """(ms, GB/s, copy GB/s, binding) of our kernel."""
    program, extra = {**KERNELS, **YARDSTICKS}[kernel]
    command = [args.softmax_run, os.path.join(args.examples, program),
               "--target", "gpu", "--rows", str(m), "--cols", str(n),
               "--dtype", dtype, "--bench", "--runs", "50"] + extra
    done = subprocess.run(command, capture_output=True, text=True)
    found = BENCH.search(done.stdout)
    if done.returncode != 0 or not found:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), done.stdout,
                                         done.stderr))
    binding = BINDING.search(done.stdout)
    return (float(found.group(1)), float(found.group(2)),
            float(found.group(4)), binding.group(1) if binding else "?")


def torch_launcher(kernel, dtype, m, n, compiled=False):
    """A function that runs torch's implementation once on fresh data;
    `compiled`: through torch.compile, compiled before it returns."""
    launch = torch_function(kernel, dtype, m, n, compiled)
    if not compiled:
        return launch
    import torch
    # A fresh compile cache each time: the launchers share one code object,
    # and past torch._dynamo.config.cache_size_limit (8) shapes of it dynamo
    # would quietly run it eager.
    torch._dynamo.reset()
    function = torch.compile(launch, dynamic=False)
    function()
    return function


def torch_function(kernel, dtype, m, n, compiled=False):
    import torch
    import torch.nn.functional as F
    t = {"f32": torch.float32, "bf16": torch.bfloat16,
         "f16": torch.float16}[dtype]
    x = torch.randn(m, n, device="cuda", dtype=t)
    if kernel == "log_softmax":
        return lambda: torch.log_softmax(x, dim=-1)
    if kernel == "softmax_backward":
        y = torch.softmax(x, dim=-1)
        dy = torch.randn_like(x)
        return lambda: torch._softmax_backward_data(dy, y, -1, t)
    if kernel == "cross_entropy":
        labels = torch.randint(0, n, (m,), device="cuda")
        return lambda: F.cross_entropy(x, labels, reduction="none")
    if kernel == "rms_norm":
        w = torch.randn(n, device="cuda", dtype=t)
        return lambda: F.rms_norm(x, (n,), w, 1e-6)
    if kernel == "layer_norm":
        w = torch.randn(n, device="cuda", dtype=t)
        b = torch.randn(n, device="cuda", dtype=t)
        return lambda: F.layer_norm(x, (n,), w, b, 1e-5)
    if kernel == "scaled_softmax" and compiled:
        # Inductor fuses the whole of it: the scale, the causal mask from
        # the indices (c > r, offset 0) and the softmax.
        rows = torch.arange(m, device="cuda")[:, None]
        cols = torch.arange(n, device="cuda")[None, :]
        return lambda: torch.softmax(
            (x * 0.125).masked_fill(cols > rows, float("-inf")), dim=-1)
    if kernel == "scaled_softmax":
        return lambda: torch.softmax(x, dim=-1)
    if kernel == "row_sum":
        return lambda: x.sum(dim=-1, dtype=torch.float32)
    raise ValueError(kernel)


def theirs(kernel, dtype, m, n, compiled=False):
    import triton
    launch = torch_launcher(kernel, dtype, m, n, compiled)
    return triton.testing.do_bench(launch, return_mode="median")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--softmax-run", default="build/bin/softmax-run")
    parser.add_argument("--examples", default="python-free-examples")
    parser.add_argument("--kernels", nargs="+", default=list(KERNELS),
                        choices=list(KERNELS) + list(YARDSTICKS))
    parser.add_argument("--dtypes", nargs="+", default=["f32", "bf16"])
    parser.add_argument("--shapes", nargs="+", default=SHAPES.split())
    parser.add_argument("--vocabularies", nargs="*",
                        default=VOCABULARIES.split(),
                        help="more shapes for %s" % " and ".join(
                            VOCABULARY_KERNELS))
    parser.add_argument("--compile", action="store_true",
                        help="also torch.compile's version of each peer")
    args = parser.parse_args()
    compiled_head = (" torch.compile GB/s | ours / torch.compile |"
                     if args.compile else "")
    print("| kernel | dtype | M x N | ours GB/s | % of same-size copy | "
          "torch GB/s | ours / torch |" + compiled_head + " binding |")
    print("|---|---|---|---|---|---|---|" + ("---|---|" if args.compile
                                             else "") + "---|")
    for kernel in args.kernels:
        shapes = args.shapes + (args.vocabularies
                                if kernel in VOCABULARY_KERNELS else [])
        for dtype in args.dtypes:
            for shape in shapes:
                m, n = (int(v) for v in shape.split("x"))
                started = time.time()
                ms, gbps, copy, binding = ours(args, kernel, dtype, m, n)
                moved = gbps * ms * 1e6
                peer = moved / (theirs(kernel, dtype, m, n) * 1e6)
                row = "| %s | %s | %d x %d | %.0f | %.1f%% | %.0f | %.2fx |" % (
                    kernel, dtype, m, n, gbps, 100 * gbps / copy, peer,
                    gbps / peer)
                if args.compile:
                    inductor = moved / (theirs(kernel, dtype, m, n, True) * 1e6)
                    row += " %.0f | %.2fx |" % (inductor, gbps / inductor)
                print(row + " %s |" % binding, flush=True)
                print("%s %s %s: %.1f s" % (kernel, dtype, shape,
                                            time.time() - started),
                      file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
