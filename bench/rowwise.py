#!/usr/bin/env python3
"""The row-wise family against torch on the GPU, in one run: for each dtype
and shape, the project's kernel (softmax-run --bench: CUDA events, L2
flushed, median of 50, and a copy of the same bytes timed the same way)
and torch's implementation (triton.testing.do_bench, median).

  python3 bench/rowwise.py --softmax-run bin/softmax-run --examples examples \\
      --kernel log_softmax [--dtypes f32 bf16] [--shapes 4096x256 ...] > table.md

Kernels: log_softmax (python-free-examples/log_softmax.mlir against
torch.log_softmax). GB/s = 2 * M * N * bytes / time for both.
"""
import argparse
import os
import re
import subprocess
import sys

SHAPES = ("4096x256 4096x512 4096x1024 4096x2048 4096x4096 4096x8192 "
          "4096x16384 4096x32768")
KERNELS = {
    # name: (program, softmax-run --reference, torch function name)
    "log_softmax": ("log_softmax.mlir", "log_softmax", "log_softmax"),
}
BENCH = re.compile(r"bench: ([0-9.]+) ms .*?, ([0-9.]+) GB/s = ([0-9.]+)% of "
                   r"a device copy \(([0-9.]+) GB/s\)")


def ours(args, program, reference, dtype, m, n):
    command = [args.softmax_run, os.path.join(args.examples, program),
               "--target", "gpu", "--rows", str(m), "--cols", str(n),
               "--dtype", dtype, "--check", "--reference", reference,
               "--bench", "--runs", "50", "--no-cache"]
    done = subprocess.run(command, capture_output=True, text=True)
    found = BENCH.search(done.stdout)
    if done.returncode != 0 or not found:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), done.stdout,
                                         done.stderr))
    return float(found.group(2)), float(found.group(4))


def theirs(function, dtype, m, n):
    import torch
    import triton
    torch_dtype = {"f32": torch.float32, "bf16": torch.bfloat16,
                   "f16": torch.float16}[dtype]
    x = torch.randn(m, n, device="cuda", dtype=torch_dtype)
    launch = lambda: getattr(torch, function)(x, dim=-1)
    ms = triton.testing.do_bench(launch, return_mode="median")
    return 2.0 * m * n * x.element_size() / (ms * 1e6)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--softmax-run", default="build/bin/softmax-run")
    parser.add_argument("--examples", default="python-free-examples")
    parser.add_argument("--kernel", default="log_softmax", choices=KERNELS)
    parser.add_argument("--dtypes", nargs="+", default=["f32", "bf16"])
    parser.add_argument("--shapes", nargs="+", default=SHAPES.split())
    args = parser.parse_args()
    program, reference, function = KERNELS[args.kernel]
    print("| kernel | dtype | M x N | ours GB/s | % of same-size copy | "
          "torch GB/s | ours / torch |")
    print("|---|---|---|---|---|---|---|")
    for dtype in args.dtypes:
        for shape in args.shapes:
            m, n = (int(v) for v in shape.split("x"))
            gbps, copy = ours(args, program, reference, dtype, m, n)
            peer = theirs(function, dtype, m, n)
            print("| %s | %s | %d x %d | %.0f | %.1f%% | %.0f | %.2fx |" %
                  (args.kernel, dtype, m, n, gbps, 100 * gbps / copy, peer,
                   gbps / peer), flush=True)


if __name__ == "__main__":
    main()
