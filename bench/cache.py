#!/usr/bin/env python3
"""Kernel-cache timings of softmax-run: a cold call (empty cache) against a
warm one (the program on disk), for every built-in program, on the CPU and,
compile only (--emit-ptx), for a GPU chip; plus the process start
(`softmax-run --version`). Medians of --repeats calls, each a new process.

  bench/cache.py --softmax-run build/bin/softmax-run [--rows 64 --cols 1024]
      [--gpu] [--markdown]

--gpu also runs each program on the GPU (cold and warm), which splits off
the PTX module load. Writes one line per case; --markdown writes the table
docs/benchmarks.md shows.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAMS = ["softmax_fused", "softmax_multirow", "softmax_online",
            "softmax_tiled", "softmax_persistent", "softmax_split",
            "softmax_naive"]
SPLIT = re.compile(r"compile: (compiled|cache hit), look-up ([0-9.]+) ms, "
                   r"compile ([0-9.]+) ms, load ([0-9.]+) ms")


def call(command, env):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = (time.perf_counter() - start) * 1e3
    if done.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), done.stdout,
                                         done.stderr))
    split = SPLIT.search(done.stdout)
    if not split:
        sys.exit("no compile split in: %s\n%s" % (" ".join(command),
                                                  done.stdout))
    return wall, split.group(1), [float(split.group(i)) for i in (2, 3, 4)]


def measure(command, repeats):
    """Median wall and split of cold calls (a new cache each) and of warm
    calls (the cache the cold calls filled)."""
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as root:
        for i in range(repeats):
            env = dict(os.environ, BLK_CACHE_DIR=os.path.join(root, str(i)))
            cold.append(call(command, env))
            warm.append(call(command, env))
    for kind, calls in (("compiled", cold), ("cache hit", warm)):
        if any(c[1] != kind for c in calls):
            sys.exit("expected '%s' from %s" % (kind, " ".join(command)))

    def median(calls):
        return (statistics.median(c[0] for c in calls),
                [statistics.median(c[2][i] for c in calls) for i in range(3)])
    return median(cold), median(warm)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--softmax-run", default="build/bin/softmax-run")
    parser.add_argument("--examples", default="python-free-examples")
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--cols", type=int, default=1024)
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--gpu", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    tool = args.softmax_run
    starts = []
    for _ in range(max(args.repeats, 5)):
        begin = time.perf_counter()
        subprocess.run([tool, "--version"], capture_output=True, check=True)
        starts.append((time.perf_counter() - begin) * 1e3)
    start = statistics.median(starts)

    targets = [("cpu", ["--target", "cpu", "--check"]),
               ("ptx " + args.chip, ["--chip", args.chip, "--emit-ptx",
                                     os.devnull])]
    if args.gpu:
        targets.append(("gpu", ["--target", "gpu", "--check"]))
    rows = []
    for target, flags in targets:
        for program in PROGRAMS:
            # softmax_split wants more than one part per row.
            cols = max(args.cols, 16384) if program == "softmax_split" \
                else args.cols
            command = [tool, os.path.join(args.examples, program + ".mlir"),
                       "--rows", str(args.rows), "--cols", str(cols),
                       "--verbose"] + flags
            (cold_wall, cold), (warm_wall, warm) = measure(command,
                                                           args.repeats)
            rows.append((target, program, cols, cold_wall, cold, warm_wall,
                         warm))
            print("%-10s %-19s cold %7.1f ms (compile %6.1f, load %5.1f)  "
                  "warm %6.1f ms (look-up %4.2f, load %5.2f)  %.1fx" %
                  (target, program, cold_wall, cold[1], cold[2], warm_wall,
                   warm[0], warm[2], cold_wall / warm_wall), flush=True)
    print("process start (softmax-run --version): %.1f ms" % start)
    if args.markdown:
        print()
        print("| target | program | cols | first call (ms) | compile in it "
              "| second call (ms) | look-up + load in it | first / second |")
        print("|---|---|---|---|---|---|---|---|")
        for target, program, cols, cold_wall, cold, warm_wall, warm in rows:
            print("| %s | %s | %d | %.1f | %.1f | %.1f | %.2f + %.2f | %.1fx |"
                  % (target, program, cols, cold_wall, cold[1], warm_wall,
                     warm[0], warm[2], cold_wall / warm_wall))


if __name__ == "__main__":
    main()
