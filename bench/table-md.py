#!/usr/bin/env python3
"""docs/benchmarks.md's tables from bench/run.sh's CSVs: one Markdown row
per shape, GB/s, % of the same-size copy, x torch and x the best peer, for
one or more run folders side by side (same shapes, e.g. an H100 and an
H200 run).
    bench/table-md.py RUN_DIR [RUN_DIR...]
"""
import csv
import sys


def load(folder):
    ours, peers = {}, {}
    with open(f"{folder}/ours.csv") as f:
        for row in csv.DictReader(f):
            ours[(row["dtype"], int(row["M"]), int(row["N"]))] = float(row["gbps"])
    with open(f"{folder}/peers.csv") as f:
        for row in csv.DictReader(f):
            if row["dtype"] == "bytes":
                continue
            key = (row["dtype"], int(row["M"]), int(row["N"]))
            peers.setdefault(key, {})[row["provider"]] = float(row["gbps"])
    return ours, peers


def cells(ours, peers, key):
    if key not in ours:
        return ["-"] * 4
    gbps, p = ours[key], peers.get(key, {})
    best = max((v for k, v in p.items() if k != "copy"), default=0)
    return [
        f"{gbps:.0f}",
        f"{100 * gbps / p['copy']:.1f}%" if "copy" in p else "-",
        f"{gbps / p['torch']:.2f}" if "torch" in p else "-",
        f"{gbps / best:.2f}" if best else "-",
    ]


def main(folders):
    runs = [load(folder) for folder in folders]
    header = ["dtype", "M x N"]
    for _ in folders:
        header += ["GB/s", "% of copy", "x torch", "x best peer"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for key in runs[0][0]:
        row = [key[0], f"{key[1]} x {key[2]}"]
        for ours, peers in runs:
            row += cells(ours, peers, key)
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
