#!/usr/bin/python3
"""The CPU target against torch (and numpy) on this host, in one run: for
each kernel, dtype, shape and thread count, the project's program
(softmax-run --target cpu --bench: wall clock, median of 20 runs, and a host
copy of the same bytes on the same threads) and torch's implementation
(median of 20 runs on the same threads).

  /usr/bin/python3 bench/cpu.py --softmax-run build/bin/softmax-run \\
      --examples python-free-examples [--kernels softmax log_softmax ...] \\
      [--dtypes f32 bf16] [--shapes 4096x128 ...] [--threads 1 0] \\
      [--csv results.csv] > table.md

The peers are Debian's (apt install python3-torch python3-numpy: torch 1.13,
numpy 1.24), hence /usr/bin/python3. Threads: 0 is every core the process
may use (softmax-run's default; for torch, whose default here is 1 thread,
torch.set_num_threads of the same count). A shared
build machine is noisy, so every measurement is taken `--rounds` times,
alternating ours and theirs, and the best of each is kept.

GB/s = the bytes the kernel must move (every input and output once, as
softmax-run counts them) / time, for ours and the peers alike. The peers:
torch.softmax (and numpy's stable softmax, f32 only); torch.log_softmax;
torch._softmax_backward_data; F.cross_entropy(reduction='none'); RMSNorm as
eager torch computes it (torch 1.13 has no rms_norm: x * rsqrt(mean(x^2) +
eps) * w, in f32); F.layer_norm; and for scaled_softmax (causal, scale
0.125) torch.softmax of the already scaled and masked scores, a lower bound
of what torch spends on it. Correctness is the lit suite's
(test/Runtime/<kernel>.mlir run the same programs on the CPU with --check):
the timed runs are not checked.
"""
import argparse
import os
import re
import subprocess
import sys
import time

SHAPES = ("4096x128 4096x256 4096x512 4096x1024 4096x2048 4096x4096 "
          "4096x8192 4096x16384 4096x32768 262144x128")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rowwise import KERNELS as FAMILY  # noqa: E402  (the GPU table's kernels)

# name: (program, softmax-run arguments)
KERNELS = dict(softmax=("softmax_fused.mlir", []), **FAMILY)
BENCH = re.compile(r"bench: ([0-9.]+) ms .*?, ([0-9.]+) GB/s = ([0-9.]+)% of "
                   r"a host copy \(([0-9.]+) GB/s\)")
RUNS = 20


def ours(args, kernel, dtype, m, n, threads):
    """(bytes moved, GB/s, copy GB/s) of our program."""
    program, extra = KERNELS[kernel]
    command = [args.softmax_run, os.path.join(args.examples, program),
               "--target", "cpu", "--rows", str(m), "--cols", str(n),
               "--dtype", dtype, "--bench", "--runs", str(RUNS),
               "--num-threads", str(threads)] + extra
    done = subprocess.run(command, capture_output=True, text=True)
    found = BENCH.search(done.stdout)
    if done.returncode != 0 or not found:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), done.stdout,
                                         done.stderr))
    ms, gbps, copy = (float(found.group(i)) for i in (1, 2, 4))
    return gbps * ms * 1e6, gbps, copy


def torch_launcher(kernel, dtype, m, n):
    """A function that runs torch's implementation once."""
    import torch
    import torch.nn.functional as F
    t = {"f32": torch.float32, "bf16": torch.bfloat16}[dtype]
    x = torch.randn(m, n, dtype=torch.float32).to(t)
    if kernel == "softmax":
        return lambda: torch.softmax(x, -1)
    if kernel == "log_softmax":
        return lambda: torch.log_softmax(x, -1)
    if kernel == "softmax_backward":
        y, dy = torch.softmax(x, -1), torch.randn(m, n).to(t)
        return lambda: torch._softmax_backward_data(dy, y, -1, t)
    if kernel == "cross_entropy":
        labels = torch.randint(0, n, (m,))
        return lambda: F.cross_entropy(x, labels, reduction="none")
    if kernel == "rms_norm":
        w = torch.randn(n).to(t)

        def rms_norm():
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)
                    ).to(t) * w
        return rms_norm
    if kernel == "layer_norm":
        w, b = torch.randn(n).to(t), torch.randn(n).to(t)
        return lambda: F.layer_norm(x, (n,), w, b, 1e-5)
    if kernel == "scaled_softmax":
        causal = torch.ones(m, n, dtype=torch.bool).tril()
        scores = (x * 0.125).masked_fill(~causal, float("-inf"))
        return lambda: torch.softmax(scores, -1)
    raise ValueError(kernel)


def numpy_launcher(m, n):
    import numpy as np
    x = np.random.default_rng(0).standard_normal((m, n), dtype=np.float32)

    def softmax():
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        e /= e.sum(axis=-1, keepdims=True)
        return e
    return softmax


def median_seconds(function):
    function()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--softmax-run", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--kernels", nargs="+", default=["softmax"],
                        choices=sorted(KERNELS))
    parser.add_argument("--dtypes", nargs="+", default=["f32", "bf16"])
    parser.add_argument("--shapes", nargs="+", default=SHAPES.split())
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--csv")
    args = parser.parse_args()

    import torch
    all_threads = len(os.sched_getaffinity(0))
    print("| kernel | dtype | M x N | threads | ours GB/s | % of copy "
          "| torch GB/s | ours / torch | numpy GB/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for kernel in args.kernels:
        for dtype in args.dtypes:
            for shape in args.shapes:
                m, n = (int(v) for v in shape.split("x"))
                theirs = torch_launcher(kernel, dtype, m, n)
                numpy = (numpy_launcher(m, n)
                         if kernel == "softmax" and dtype == "f32" else None)
                for threads in args.threads:
                    torch.set_num_threads(threads or all_threads)
                    # numpy's ufuncs run on one thread whatever the count.
                    best = [0.0, 0.0, 0.0, 0.0]  # ours, copy, torch, numpy
                    for _ in range(args.rounds):
                        moved, gbps, copy = ours(args, kernel, dtype, m, n,
                                                 threads)
                        best[0] = max(best[0], gbps)
                        best[1] = max(best[1], copy)
                        best[2] = max(best[2],
                                      moved / median_seconds(theirs) / 1e9)
                        if numpy:
                            best[3] = max(best[3],
                                          moved / median_seconds(numpy) / 1e9)
                    shown = threads or all_threads
                    print("| %s | %s | %d x %d | %d | %.2f | %.1f%% | %.2f | "
                          "%.2fx | %s |" % (
                              kernel, dtype, m, n, shown, best[0],
                              100 * best[0] / best[1], best[2],
                              best[0] / best[2],
                              "%.2f" % best[3] if numpy else "-"),
                          flush=True)
                    rows.append((kernel, dtype, m, n, shown) + tuple(best))
    if args.csv:
        with open(args.csv + ".tmp", "w") as out:
            out.write("kernel,dtype,M,N,threads,ours_gbps,copy_gbps,"
                      "torch_gbps,numpy_gbps\n")
            for row in rows:
                out.write("%s,%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f\n" % row)
        os.replace(args.csv + ".tmp", args.csv)


if __name__ == "__main__":
    main()
