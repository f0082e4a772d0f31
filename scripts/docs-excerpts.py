#!/usr/bin/env python3
"""Keeps the IR excerpts of docs/pipeline.md equal to what softmax-opt prints.

docs/pipeline.md holds excerpt blocks: a marker line followed by a fenced
code block,

    <!-- excerpt: NAME -->
    ```mlir
    ...lines cut from the compiler's output...
    ```

This script knows, for each NAME, which command produces the text (a RUN
below) and how to cut the excerpt from it (the PIECES below). It has three
modes:

    --update   rewrite every excerpt block of the document with fresh output
    --check    exit 1 and print a unified diff for every block that differs
    --list     print each excerpt name with its command and stage

    scripts/docs-excerpts.py --check --softmax-opt build/bin/softmax-opt --root .

How an excerpt is cut (deterministic, no parsing of MLIR):
  * A RUN is one softmax-opt command (run once, in the repository root) or a
    source file. With --mlir-print-ir-after-all the output is split into
    stages at the "IR Dump After Pass (pass-arg)" headers; an excerpt names
    the stage by its pass argument and occurrence ("cse", 1 = the first
    cse). Otherwise the whole output is the text.
  * PIECES are cut in order, each searching from where the previous one
    ended:
      {"seek": R}              move to the first line matching R (no output)
      {"start": R, "end": E}   from the first line matching R through the
                               next line matching E (inclusive)
      {"start": R, "count": N, "before": B}
                               the B lines before the first line matching R,
                               that line, and N-1 lines after it (N default 1)
    Regular expressions use re.search. Pieces that do not touch get a
    "// ..." line between them, indented like the line that follows.
  * Trailing blanks are removed from every line; MLIR excerpts are
    dedented by their common indentation; PTX is kept as printed (tabs).
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import textwrap

DOC = os.path.join("docs", "pipeline.md")

FUSED = "python-free-examples/softmax_fused.mlir"
MULTIROW = "python-free-examples/softmax_multirow.mlir"
LOG_SOFTMAX = "python-free-examples/log_softmax.mlir"
MATMUL = "test/GPU/Inputs/matmul_square.mlir"
# matmul_square as softmax-run compiles it for --dtype bf16 --const ROWS=16
# on 64 columns: bf16 storage first, then the constants bound.
MATMUL_BF16 = [MATMUL, "--blk-storage-type=type=bf16",
               "--blk-specialize=ROWS=16 BLOCK=64"]

# Every stage of blk-to-ptx, printed on stderr; the final module (which holds
# a compile time) is discarded.
DUMP = ["--blk-to-ptx", "--mlir-print-ir-after-all", "--mlir-disable-threading",
        "-o", "/dev/null"]

RUNS = {
    "fused.mlir": {"file": FUSED},
    "fused": {"args": [FUSED, "--blk-specialize=BLOCK=1024"] + DUMP,
              "stream": "stderr"},
    "fused-ptx": {"args": [FUSED, "--blk-specialize=BLOCK=1024",
                           "--blk-to-ptx", "--emit=ptx"],
                  "stream": "stdout", "dedent": False},
    "multirow": {"args": [MULTIROW, "--blk-specialize=ROWS=8 BLOCK=64"] + DUMP,
                 "stream": "stderr"},
    "log_softmax.mlir": {"file": LOG_SOFTMAX},
    "log-ptx": {"args": [LOG_SOFTMAX, "--blk-specialize=BLOCK=1024",
                         "--blk-to-ptx", "--emit=ptx"],
                "stream": "stdout", "dedent": False},
    "matmul_square.mlir": {"file": MATMUL},
    "matmul-bf16": {"args": MATMUL_BF16 + DUMP, "stream": "stderr"},
    "matmul-bf16-ptx": {"args": MATMUL_BF16 + ["--blk-to-ptx", "--emit=ptx"],
                        "stream": "stdout", "dedent": False},
}

# name: (run, stage or None, [pieces]); stage = (pass argument, occurrence)
EXCERPTS = {
    # The program as written.
    "written": ("fused.mlir", None, [
        {"start": r"^func\.func", "end": r"^}"}]),
    # blk-specialize: BLOCK bound, every shape static.
    "specialized": ("fused", ("blk-specialize", 1), [
        {"start": r"blk\.arange", "end": r"blk\.load"}]),
    # canonicalize: constants move to the top of the function.
    "canonicalized": ("fused", ("canonicalize", 1), [
        {"start": r"arith\.constant", "count": 3}]),
    # blk-distribute: the layout, in every block type.
    "distributed": ("fused", ("blk-distribute", 1), [
        {"start": r"^#blocked", "count": 1},
        {"start": r"blk\.arange", "end": r"blk\.reduce max"},
        {"start": r"blk\.store", "count": 1}]),
    "multirow-distributed": ("multirow", ("blk-distribute", 1), [
        {"start": r"^#blocked", "end": r"^#slice1"},
        {"start": r"blk\.arange 0 to 8 ", "count": 1},
        {"start": r"blk\.arange 0 to 64 ", "count": 3},
        {"start": r"blk\.load", "count": 2}]),
    # convert-blk-to-gpu: one gpu.func; blocks become per-thread vectors.
    "gpu-func": ("fused", ("convert-blk-to-gpu", 1), [
        {"start": r"^module attributes", "count": 3}]),
    "gpu-coords": ("fused", ("cse", 1), [
        {"start": r"dense<\[0, 1, 2, 3, 512", "count": 1},
        {"start": r"gpu\.thread_id", "end": r"arith\.addi .*overflow<nsw, nuw> : vector"}]),
    "gpu-load": ("fused", ("cse", 1), [
        {"start": r"= arith\.cmpi slt, .* : i32$", "end": r"} else {"},
        {"start": r"scf\.if .* -> \(f32\)", "end": r"^\s*}$"},
        {"start": r"vector\.from_elements", "count": 3}]),
    "gpu-reduce-tree": ("fused", ("cse", 1), [
        {"start": r"arith\.maximumf", "count": 17}]),
    "gpu-reduce-round": ("fused", ("cse", 1), [
        {"seek": r"gpu\.shuffle"},
        {"start": r"arith\.shli", "end": r"arith\.maximumf"},
        {"start": r"vector\.broadcast .* to vector<8xf32>", "before": 1,
         "count": 2}]),
    "gpu-raw-round": ("fused", ("convert-blk-to-gpu", 1), [
        {"seek": r"gpu\.shuffle"},
        {"start": r"gpu\.thread_id", "end": r"gpu\.barrier"}]),
    "gpu-exp": ("fused", ("cse", 1), [
        {"start": r"arith\.constant 1\.44269502", "count": 1},
        {"start": r"arith\.mulf", "count": 4},
        {"start": r"vector\.from_elements .* vector<8xf32>", "count": 1}]),
    "gpu-sum-round": ("fused", ("cse", 1), [
        {"start": r"arith\.constant 1\.000000e\+00 : f32", "count": 1},
        {"start": r"memref\.store .*%arg7",
         "end": r"arith\.mulf .* : vector<8xf32>$"}]),
    "gpu-store": ("fused", ("cse", 1), [
        {"start": r"^\s*scf\.if %\w+ {$", "end": r"^\s*}$"}]),
    "multirow-launch": ("multirow", ("convert-blk-to-gpu", 1), [
        {"start": r"^module attributes", "count": 1}]),
    "multirow-coords": ("multirow", ("cse", 1), [
        {"start": r"gpu\.thread_id", "end": r"arith\.addi"},
        {"start": r"arith\.andi %\w+, %c15_i32", "count": 4}]),
    "multirow-reduce": ("multirow", ("cse", 1), [
        {"start": r"gpu\.shuffle", "before": 1, "count": 9}]),
    # The rest of the pipeline.
    "attach-target": ("fused", ("blk-attach-nvvm-target", 1), [
        {"start": r"gpu\.module", "count": 1}]),
    "scf-to-cf": ("fused", ("convert-scf-to-cf", 1), [
        {"start": r"cf\.cond_br", "count": 14}]),
    "nvvm-func": ("fused", ("convert-gpu-to-nvvm", 1), [
        {"start": r"llvm\.mlir\.global", "count": 3},
        {"start": r"nvvm\.read\.ptx\.sreg\.ctaid", "count": 4}]),
    "nvvm-reduce": ("fused", ("cse", 2), [
        {"start": r"llvm\.mlir\.constant\(-1 : i32\)", "count": 1},
        {"start": r"llvm\.mlir\.constant\(32 : i32\)", "count": 2},
        {"start": r"nvvm\.shfl\.sync", "before": 4, "count": 4},
        {"start": r"llvm\.store .*!llvm\.ptr<3>", "before": 4, "count": 2}]),
    "nvvm-exp": ("fused", ("cse", 2), [
        {"start": r"llvm\.call_intrinsic \"llvm\.nvvm\.ex2", "before": 1,
         "count": 1}]),
    # The PTX.
    "ptx-load": ("fused-ptx", None, [
        {"start": r"@%p\d+ bra", "count": 11}]),
    "ptx-butterfly": ("fused-ptx", None, [
        {"start": r"shfl\.sync\.bfly", "before": 1, "count": 10}]),
    "ptx-round": ("fused-ptx", None, [
        {"start": r"st\.shared", "before": 3, "end": r"max\.NaN\.f32"}]),
    "ptx-exp": ("fused-ptx", None, [
        {"start": r"ex2\.approx\.ftz\.f32", "before": 1, "count": 1}]),
    "ptx-store": ("fused-ptx", None, [
        {"start": r"rcp\.rn\.f32", "end": r"bra\.uni"}]),
    # log_softmax: what differs from softmax.
    "log-written": ("log_softmax.mlir", None, [
        {"start": r"%sum = blk\.reduce sum", "end": r"%y = arith\.subf"}]),
    "log-ptx": ("log-ptx", None, [
        {"start": r"setp\.lt\.s32 .*8388608", "end": r"selp\.f32 .*0f7FC00000"},
        {"start": r"sub\.rn\.f32", "count": 3}]),
    # blk.dot: matmul_square's K loop, bf16 data.
    "dot-written": ("matmul_square.mlir", None, [
        {"start": r"%acc0 = blk\.splat", "count": 4},
        {"start": r"// A\[r\]\[k0 \+ kk\]", "count": 1},
        {"start": r"%a_tile = blk\.load", "count": 2},
        {"start": r"%b_tile = blk\.load", "count": 4}]),
    "dot-storage": ("matmul-bf16", ("blk-storage-type", 1), [
        {"start": r"blk\.load %arg1", "count": 2},
        {"start": r"blk\.load %arg2", "count": 3}]),
    "dot-canonicalized": ("matmul-bf16", ("canonicalize", 1), [
        {"start": r"scf\.for", "count": 1},
        {"start": r"blk\.load %arg1", "count": 1},
        {"start": r"blk\.load %arg2", "count": 4}]),
    # The layouts of the accumulator's, A's and B's classes; the row
    # indices computed once for A and once for C; A's and B's loads and
    # the dot.
    "dot-distributed": ("matmul-bf16", ("blk-distribute", 1), [
        {"start": r"^#blocked", "end": r"^#slice1 "},
        {"start": r"blk\.arange 0 to 16 ", "count": 2},
        {"start": r"blk\.expand_dims .*axis 1 .*#slice", "count": 2},
        {"start": r"blk\.load %arg1", "count": 1},
        {"start": r"blk\.load %arg2", "count": 2}]),
    # The dot's shared memory: the iteration's copy of the region, A's at
    # byte 0, B's at byte 768 (rows padded by 16 bytes); A's two stores,
    # B's first two and its last, the barrier before the reads.
    "dot-gpu-shared": ("matmul-bf16", ("cse", 1), [
        {"start": r"arith\.divui %arg\d+, %c16_i32", "count": 13},
        {"start": r"arith\.muli %\d+, %c144_i32", "before": 1, "count": 7},
        {"start": r"arith\.addi %\d+, %c1792_i32", "end": r"gpu\.barrier"}]),
    # The accumulator stays in registers: the lane's ldmatrix rows and the
    # warp's first row and column, A's ldmatrix.x4, B's first ldmatrix.x2
    # (transposed), the mma.sync calls on the loop-carried value.
    "dot-gpu-mma": ("matmul-bf16", ("cse", 1), [
        {"start": r"vector\.extract %arg\d+\[0\] : f32", "before": 5,
         "count": 1},
        {"start": r"arith\.andi %\d+, %c1_i32", "end": r"nvvm\.ldmatrix"},
        {"start": r"arith\.muli %\d+, %c72_i32", "end": r"nvvm\.ldmatrix"},
        {"start": r"nvvm\.mma\.sync", "count": 1},
        {"start": r"nvvm\.mma\.sync", "count": 1},
        {"start": r"vector\.from_elements", "count": 2}]),
    # The K loop's block that picks the iteration's copy of the region,
    # stores A and B, passes the barrier and multiplies.
    "dot-ptx": ("matmul-bf16-ptx", None, [
        {"start": r"selp\.b64 .*, 0, 3072,", "before": 3, "end": r"bra\.uni"}]),
}

HEADER = re.compile(r"^// -----// IR Dump After \S+ \((\S+)\) //----- //$")
MARKER = re.compile(r"^<!-- excerpt: (\S+) -->$")


class ExcerptError(Exception):
    pass


def command_line(run):
    """The command as a reader would type it in the repository root."""
    spec = RUNS[run]
    if "file" in spec:
        return "cat " + spec["file"]
    words = ["build/bin/softmax-opt"]
    for arg in spec["args"]:
        if arg.startswith("--blk-specialize="):
            name, value = arg.split("=", 1)
            arg = '%s="%s"' % (name, value)
        words.append(arg)
    return " ".join(words)


class Outputs:
    """Runs each command once and splits dumps into stages."""

    def __init__(self, softmax_opt, root):
        self.softmax_opt = softmax_opt
        self.root = root
        self.texts = {}

    def text(self, run):
        if run not in self.texts:
            spec = RUNS[run]
            if "file" in spec:
                with open(os.path.join(self.root, spec["file"])) as f:
                    self.texts[run] = f.read()
            else:
                result = subprocess.run([self.softmax_opt] + spec["args"],
                                        cwd=self.root, capture_output=True,
                                        text=True)
                if result.returncode != 0:
                    raise ExcerptError("command failed (%d): %s\n%s" % (
                        result.returncode, command_line(run), result.stderr))
                self.texts[run] = getattr(result, spec["stream"])
        return self.texts[run]

    def lines(self, run, stage):
        lines = self.text(run).splitlines()
        if stage is None:
            return lines
        wanted, occurrence = stage
        seen = 0
        start = None
        for i, line in enumerate(lines):
            match = HEADER.match(line)
            if start is not None and match:
                return lines[start:i]
            if match and match.group(1) == wanted:
                seen += 1
                if seen == occurrence:
                    start = i + 1
        if start is None:
            raise ExcerptError("no stage '%s' #%d in the output of: %s" % (
                wanted, occurrence, command_line(run)))
        return lines[start:]


def find(lines, pattern, cursor, name, what):
    regex = re.compile(pattern)
    for i in range(cursor, len(lines)):
        if regex.search(lines[i]):
            return i
    raise ExcerptError("excerpt '%s': no line matching %s /%s/ after line %d"
                       % (name, what, pattern, cursor + 1))


def cut(name, outputs):
    run, stage, pieces = EXCERPTS[name]
    lines = outputs.lines(run, stage)
    cursor = 0
    ranges = []
    for piece in pieces:
        if "seek" in piece:
            cursor = find(lines, piece["seek"], cursor, name, "seek")
            continue
        first = find(lines, piece["start"], cursor, name, "start")
        if "end" in piece:
            last = find(lines, piece["end"], first + 1, name, "end") + 1
        else:
            last = first + piece.get("count", 1)
        first -= piece.get("before", 0)
        if first < cursor or last > len(lines):
            raise ExcerptError("excerpt '%s': piece %s runs outside the text"
                               % (name, piece))
        ranges.append((first, last))
        cursor = last
    out = []
    previous_end = None
    for first, last in ranges:
        if previous_end is not None and first != previous_end:
            indent = re.match(r"^\s*", lines[first]).group(0)
            out.append(indent + "// ...")
        out.extend(line.rstrip() for line in lines[first:last])
        previous_end = last
    text = "\n".join(out) + "\n"
    if RUNS[run].get("dedent", True):
        text = textwrap.dedent(text)
    return text.splitlines()


def read_blocks(doc_lines):
    """Yields (name, first content line, end line) of each excerpt block."""
    i = 0
    while i < len(doc_lines):
        match = MARKER.match(doc_lines[i])
        if not match:
            i += 1
            continue
        name = match.group(1)
        if i + 1 >= len(doc_lines) or not doc_lines[i + 1].startswith("```"):
            raise ExcerptError("%s:%d: excerpt '%s' is not followed by a "
                               "fenced block" % (DOC, i + 1, name))
        j = i + 2
        while j < len(doc_lines) and doc_lines[j] != "```":
            j += 1
        if j == len(doc_lines):
            raise ExcerptError("%s:%d: excerpt '%s' has no closing fence"
                               % (DOC, i + 1, name))
        yield name, i + 2, j
        i = j + 1


def main():
    parser = argparse.ArgumentParser(
        description="Update or check the excerpts of docs/pipeline.md.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--update", action="store_true",
                      help="rewrite the excerpt blocks with fresh output")
    mode.add_argument("--check", action="store_true",
                      help="fail with a diff where a block differs")
    mode.add_argument("--list", action="store_true",
                      help="print every excerpt with its command")
    parser.add_argument("--softmax-opt", default="build/bin/softmax-opt",
                        help="path of softmax-opt (default: %(default)s)")
    parser.add_argument("--root", default=".",
                        help="repository root (default: %(default)s)")
    args = parser.parse_args()

    root = os.path.abspath(args.root)
    softmax_opt = os.path.abspath(args.softmax_opt)

    if args.list:
        for name, (run, stage, _) in EXCERPTS.items():
            where = ("  [after %s #%d]" % stage) if stage else ""
            print("%-22s %s%s" % (name, command_line(run), where))
        return 0

    doc_path = os.path.join(root, DOC)
    with open(doc_path) as f:
        doc_lines = f.read().split("\n")

    outputs = Outputs(softmax_opt, root)
    try:
        blocks = list(read_blocks(doc_lines))
        names = [name for name, _, _ in blocks]
        unknown = [n for n in names if n not in EXCERPTS]
        unused = [n for n in EXCERPTS if n not in names]
        twice = sorted({n for n in names if names.count(n) > 1})
        problems = []
        if unknown:
            problems.append("excerpts in %s that this script does not know: %s"
                            % (DOC, ", ".join(unknown)))
        if unused:
            problems.append("excerpts this script knows that %s does not use: "
                            "%s" % (DOC, ", ".join(unused)))
        if twice:
            problems.append("excerpts used more than once: %s"
                            % ", ".join(twice))
        if problems:
            raise ExcerptError("\n".join(problems))

        fresh = {name: cut(name, outputs) for name in names}
    except ExcerptError as error:
        print("docs-excerpts: error: %s" % error, file=sys.stderr)
        return 2

    if args.update:
        # Replace blocks from the last to the first so indices stay valid.
        for name, first, end in reversed(blocks):
            doc_lines[first:end] = fresh[name]
        with open(doc_path, "w") as f:
            f.write("\n".join(doc_lines))
        print("docs-excerpts: updated %d excerpts in %s" % (len(blocks), DOC))
        return 0

    stale = 0
    for name, first, end in blocks:
        if doc_lines[first:end] == fresh[name]:
            continue
        stale += 1
        run, stage, _ = EXCERPTS[name]
        where = (" after %s #%d" % stage) if stage else ""
        sys.stdout.writelines(difflib.unified_diff(
            [line + "\n" for line in doc_lines[first:end]],
            [line + "\n" for line in fresh[name]],
            fromfile="%s: excerpt %s" % (DOC, name),
            tofile="%s%s" % (command_line(run), where)))
    if stale:
        print("docs-excerpts: %d of %d excerpts of %s differ from what the "
              "compiler prints; run scripts/docs-excerpts.py --update and "
              "reread the prose around them" % (stale, len(blocks), DOC))
        return 1
    print("docs-excerpts: %d excerpts match" % len(blocks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
