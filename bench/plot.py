#!/usr/bin/env python3
"""GB/s against N (M = 4096), one line per provider, as an SVG (no
dependencies). Usage: plot.py OURS.csv PEERS.csv DTYPE OUT.svg"""
import csv
import math
import sys

COLORS = {"blk": "#d62728", "torch": "#1f77b4", "triton_fused": "#2ca02c",
          "triton_online": "#9467bd", "copy": "#7f7f7f"}


def read(paths, dtype):
    series = {}
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f):
                if row["dtype"] != dtype or int(row["M"]) != 4096:
                    continue
                series.setdefault(row["provider"], []).append(
                    (int(row["N"]), float(row["gbps"])))
    return {name: sorted(points) for name, points in series.items()}


def main(ours, peers, dtype, out):
    series = read([ours, peers], dtype)
    width, height, left, bottom, top, right = 720, 420, 70, 50, 30, 150
    ns = sorted({n for points in series.values() for n, _ in points})
    ymax = max(g for points in series.values() for _, g in points) * 1.1
    x = lambda n: left + (math.log2(n) - math.log2(ns[0])) / (
        math.log2(ns[-1]) - math.log2(ns[0])) * (width - left - right)
    y = lambda g: height - bottom - g / ymax * (height - bottom - top)
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2 - 120}" y="18">softmax {dtype}, M = 4096 '
           f'(GB/s, higher is better)</text>']
    for g in range(0, int(ymax), 500):
        svg.append(f'<line x1="{left}" x2="{width - right}" y1="{y(g)}" '
                   f'y2="{y(g)}" stroke="#ddd"/><text x="{left - 40}" '
                   f'y="{y(g) + 4}">{g}</text>')
    for n in ns:
        svg.append(f'<text x="{x(n) - 14}" y="{height - bottom + 18}">{n}</text>')
    svg.append(f'<text x="{width / 2 - 40}" y="{height - 10}">N (columns)</text>')
    for i, (name, points) in enumerate(sorted(series.items())):
        color = COLORS.get(name, "#000")
        path = " ".join(f"{x(n):.1f},{y(g):.1f}" for n, g in points)
        svg.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" '
                   f'points="{path}"/>')
        for n, g in points:
            svg.append(f'<circle cx="{x(n):.1f}" cy="{y(g):.1f}" r="3" '
                       f'fill="{color}"/>')
        svg.append(f'<text x="{width - right + 10}" y="{top + 20 + 18 * i}" '
                   f'fill="{color}">{name}</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:5])
