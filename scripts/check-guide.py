#!/usr/bin/env python3
"""Keeps a guide's code true: docs/writing-kernels.md shows kernels that are
files of the repository and commands that must succeed.

    <!-- file: test/GPU/Inputs/swiglu.mlir -->
    ```mlir
    ...the whole file, as it is...
    ```

    <!-- run -->
    ```sh
    softmax-run test/GPU/Inputs/swiglu.mlir --target cpu --check --rows 64 --cols 4096
    ```

A `file` block must equal the file; every line of a `run` block (blank
lines and `#` comments aside) is run with bash in the repository root and
must exit 0. Prints what differs or failed, and exits 1 if anything did.

    scripts/check-guide.py docs/writing-kernels.md --root . --tools build/bin
"""

import argparse
import difflib
import os
import re
import subprocess
import sys

MARKER = re.compile(r"^<!-- (file: (?P<path>\S+)|run) -->$")


def blocks(lines):
    """Yields (marker match, line number, block lines) for each marked
    fenced block."""
    i = 0
    while i < len(lines):
        match = MARKER.match(lines[i])
        if not match:
            i += 1
            continue
        start = i + 1
        if start >= len(lines) or not lines[start].startswith("```"):
            yield match, i + 1, None
            i += 1
            continue
        end = start + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        yield match, i + 1, lines[start + 1:end]
        i = end + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("doc")
    parser.add_argument("--root", default=".")
    parser.add_argument("--tools", help="a folder put first on PATH (where "
                        "softmax-run is)")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.tools:
        env["PATH"] = os.path.abspath(args.tools) + os.pathsep + env["PATH"]
    with open(args.doc) as f:
        lines = f.read().split("\n")
    failures = 0
    checked = 0
    for match, line, block in blocks(lines):
        where = f"{args.doc}:{line}"
        if block is None:
            print(f"{where}: a marker must be followed by a fenced block")
            failures += 1
            continue
        checked += 1
        if match.group("path"):
            path = os.path.join(args.root, match.group("path"))
            with open(path) as f:
                expected = f.read().rstrip("\n").split("\n")
            if block != expected:
                failures += 1
                print(f"{where}: the block differs from {match.group('path')}")
                sys.stdout.writelines(
                    line + "\n" for line in difflib.unified_diff(
                        expected, block, match.group("path"), args.doc,
                        lineterm=""))
            continue
        for command in block:
            if not command.strip() or command.lstrip().startswith("#"):
                continue
            result = subprocess.run(["bash", "-c", command], cwd=args.root,
                                    env=env, capture_output=True, text=True)
            if result.returncode != 0:
                failures += 1
                print(f"{where}: `{command}` exited {result.returncode}:")
                print(result.stdout + result.stderr)
    print(f"check-guide: {checked} blocks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
