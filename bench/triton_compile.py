#!/usr/bin/env python3
"""Triton's compile time for the peers' fused softmax (bench/peers.py), the
figure docs/benchmarks.md sets beside the project's: each measurement is a
new process with TRITON_CACHE_DIR pointing at an empty directory (cold:
Triton compiles, to a cubin) or at the one the cold process filled (warm:
the on-disk cache). Only `kernel.warmup(...)` is timed, not importing torch.

  python3 bench/triton_compile.py [--cols 1024] [--repeats 3]
"""
import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time


def time_warmup(cols):
    """In this process: import peers.py's kernels, time one warmup."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "peers", os.path.join(here, "peers.py"))
    peers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peers)
    peers.import_gpu_modules()
    torch, triton = peers.torch, peers.triton
    fused, _ = peers.triton_kernels()
    x = torch.randn(64, cols, device="cuda")
    y = torch.empty_like(x)
    block = triton.next_power_of_2(cols)
    warps = 4 if block <= 1024 else 8 if block <= 4096 else 16
    torch.cuda.synchronize()
    start = time.perf_counter()
    fused.warmup(y, x, x.stride(0), y.stride(0), 64, cols, BLOCK=block,
                 STAGES=peers.FUSED_STAGES, num_warps=warps, grid=(1,))
    print("%.2f" % ((time.perf_counter() - start) * 1e3))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cols", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        time_warmup(args.cols)
        return
    cold, warm = [], []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, TRITON_CACHE_DIR=cache)
            command = [sys.executable, os.path.abspath(__file__), "--one",
                       "--cols", str(args.cols)]
            for times in (cold, warm):
                done = subprocess.run(command, env=env, capture_output=True,
                                      text=True, check=True)
                times.append(float(done.stdout.split()[-1]))
    print("triton fused softmax, %d cols: cold compile %.1f ms, warm (disk "
          "cache) %.1f ms (medians of %d, in-process warmup only)" %
          (args.cols, statistics.median(cold), statistics.median(warm),
           args.repeats))


if __name__ == "__main__":
    main()
