#!/usr/bin/env python3
"""docs/benchmarks.md's row-wise family table from bench/rowwise.py
--compile outputs: one row per kernel and dtype, one column per shape,
each cell "% of a same-size copy, x eager torch, x torch.compile". Later
files win where two give the same (kernel, dtype, shape).

    bench/rowwise-table.py RUN.md [RUN.md ...] [--shapes 4096x1024 ...]
        [--kernels cross_entropy ...]
"""
import argparse
import re

ROW = re.compile(r"^\| (\w+) \| (\w+) \| (\d+) x (\d+) \| [0-9.]+ \| "
                 r"([0-9.]+)% \| [0-9.]+ \| ([0-9.]+)x \| [0-9.]+ \| "
                 r"([0-9.]+)x \|")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--shapes", nargs="*",
                        help="columns, in order (default: as found)")
    parser.add_argument("--kernels", nargs="*", help="rows (default: all)")
    args = parser.parse_args()
    cells, kernels, shapes = {}, [], []
    for path in args.runs:
        with open(path) as f:
            for line in f:
                found = ROW.match(line)
                if not found:
                    continue
                kernel, dtype, m, n, copy, eager, compiled = found.groups()
                shape = "%sx%s" % (m, n)
                if args.kernels and kernel not in args.kernels:
                    continue
                if (kernel, dtype) not in kernels:
                    kernels.append((kernel, dtype))
                if shape not in shapes:
                    shapes.append(shape)
                cells[(kernel, dtype, shape)] = "%s%%, %sx, %sx" % (
                    copy, eager, compiled)
    columns = args.shapes or shapes
    print("| kernel | dtype | " + " | ".join(
        c.replace("x", " x ") for c in columns) + " |")
    print("|---|---|" + "---|" * len(columns))
    for kernel, dtype in kernels:
        row = [cells.get((kernel, dtype, c), "-") for c in columns]
        if all(cell == "-" for cell in row):
            continue
        print("| %s | %s | %s |" % (kernel, dtype, " | ".join(row)))


if __name__ == "__main__":
    main()
