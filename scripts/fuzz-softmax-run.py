#!/usr/bin/env python3
"""Hostile tests of softmax-run on the CPU target.

Usage:
  scripts/fuzz-softmax-run.py --softmax-run build/bin/softmax-run \\
      --examples python-free-examples [--count N] [--seed S] [--jobs J] \\
      [--keep DIR] [--timeout SECONDS] [--mem-limit-mb MB]

Runs softmax-run (always on the CPU) on four families of cases:
  mutation  textual mutations of python-free-examples/softmax_*.mlir (lines
            deleted, duplicated, swapped; integers set to boundary values;
            SSA names, op names and attributes changed; file truncated);
  limits    unmutated programs with sizes, strides, constants, warps, tiles
            and dtypes at and past their limits;
  input     malformed --input .npy files and unwritable --output paths;
  write     --output, --csv, --autotune-cache and --emit-ptx over a
            pre-existing file while writes fail (RLIMIT_FSIZE of 1 KiB,
            SIGXFSZ ignored): a failed run must leave the file as it was.
The fixed input and write cases come first (about 40), the rest of --count
is drawn at random; the cases depend only on --seed.

With --family bindings, the cases are fixed instead: every row program of
the examples, unmutated, on the rules' own binding for sm_90 at extreme
shapes (GPT-2's odd vocabulary, rows of 151936, 262144 and a million, odd
ones among them), f32 and bf16; each must compile to PTX (--count is
ignored). A refusal there is a binding the compiler cannot take.

With --family gpu-compile, every case is instead a mutation of any example
program (the row-wise family too) compiled for the GPU with --emit-ptx (no
GPU needed: the whole blk-to-ptx pipeline, the binding and the driver run),
on sm_90 or sm_80, sometimes with other warps, CTAs or staging thresholds:
a clear error or PTX, never a crash. With --family opt (and --softmax-opt),
the mutated programs go through softmax-opt's textual pipelines instead:
blk-specialize with their constants bound, then blk-to-ptx (with a chip,
warps or CTAs) or blk-to-cpu, as a user of softmax-opt runs them.

Each case runs in a fresh temporary directory (its cwd, TMPDIR, JITDUMPDIR
and HOME), with a timeout and an address-space limit (so that a huge problem
fails inside softmax-run instead of waking the OOM killer). Bad outcomes: a
signal, a timeout, an LLVM fatal error, an assertion, heap corruption, an
allocation failure, LLVM's crash report from a process that then exits, a
failing exit with nothing on stderr, success where the case must fail,
success with a failed or NaN check, a missing output, or a pre-existing file
changed by a failed run. Each is printed as
  BAD <kind>: <command, run in the case directory> -> <first error line>
then a summary line; the exit status is 1 if any bad outcome was found.
--keep DIR saves each bad case's directory (files as they were before the
run, and cmd.sh, which reruns it there) as DIR/<case>-<kind>/.
"""

import argparse
import concurrent.futures
import dataclasses
import os
import random
import re
import resource
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile

INT_BOUNDARIES = [0, -1, 1, 3, 2147483647, 2147483648, 4294967297, -2147483648]
SIZE_LIMITS = [0, -1, 1, 2, 2**31 - 1, 2**31, 2**32 + 1, 2**62]
CONST_VALUES = [0, 1, 3, 4, 2**30, 2**31, 2**32 + 1, -4]
CONST_NAMES = ["BLOCK", "ROWS", "SPLITS", "TILE"]
I32_MAX = 2**31 - 1
WRITE_LIMIT = 1024  # bytes: `ulimit -f 1`
PRECIOUS = b"precious bytes that a failed run must not touch\n" * 40

# Programs that loop over a row's columns: any BLOCK covers the row.
LOOPING_PROGRAMS = {"softmax_tiled", "softmax_online"}

OP_GROUPS = [
    ["blk.load", "blk.store"],
    ["blk.reduce max", "blk.reduce sum"],
    ["arith.addi", "arith.muli", "arith.subi"],
    ["arith.addf", "arith.subf", "arith.mulf", "arith.divf"],
    ["arith.divui", "arith.remui"],
]
ARG_ROLES = ['input "x"', 'output "y"', 'input "y"', 'output "x"',
             'row_stride "x"', 'row_stride "y"', 'row_stride "z"', "rows",
             "cols", 'scratch "maxes"', 'scratch "w", per_row', 'param "p"',
             "bogus", ""]
KERNEL_ATTR_EDITS = [
    ("row_block = BLOCK", ["row_block = ROWS", "row_block = FOO", ""]),
    ("rows_per_program = ROWS", ["rows_per_program = BLOCK", ""]),
    ("row_splits = SPLITS", ["row_splits = BLOCK", ""]),
    ("grid = persistent, ", [""]),
    ("num_warps = ", ["grid = persistent, num_warps = "]),
]

# Output that means the process did something it must never do.
MARKERS = [
    ("oom", "LLVM ERROR: out of memory"),
    ("llvm-error", "LLVM ERROR"),
    ("assertion", "Assertion"),
    ("memory-error", "AddressSanitizer"),
    ("memory-error", "malloc():"),
    ("memory-error", "double free"),
    ("memory-error", "corrupted"),
    ("oom", "std::bad_alloc"),
]
# LLVM's crash report; printed by a process that then exits normally, it is
# a "stack-dump" (LLVM's signal handler ran on a signal that was ignored).
CRASH_REPORT = re.compile(r"^(PLEASE submit a bug report|Stack dump)", re.M)
CRASH_REPORT_LINE = re.compile(
    r"^(PLEASE submit|Stack dump|\d+\.\s+Program arguments|\s*#?\d+\s+\S+\s+0x)")
KINDS = ["crash", "hang", "llvm-error", "assertion", "memory-error", "oom",
         "stack-dump", "lost-file", "silent-fail", "accepted", "refused",
         "check-ok", "no-output"]
NAN_FIGURE = re.compile(r"\b(max_abs|max_rel|rel_l2|max_elem)=[-+]?(nan|inf)",
                        re.IGNORECASE)


@dataclasses.dataclass
class Case:
    family: str
    args: list            # after the binary; file names relative to the case dir
    files: dict           # name -> bytes, created before the run
    must_fail: str = ""   # why the run must fail ("" if it may succeed)
    must_succeed: str = ""  # why the run must succeed ("" if it may fail)
    guarded: dict = dataclasses.field(default_factory=dict)  # name -> mode
    limit_writes: bool = False
    note: str = ""        # what the case does, for reproducers
    name: str = ""

    def command(self, binary="softmax-run"):
        return " ".join(shlex.quote(a) for a in [binary] + self.args)

    def shown(self):
        """The command as printed: limits first, in the case directory."""
        return ("ulimit -f 1; " if self.limit_writes else "") + self.command()


@dataclasses.dataclass
class Bad:
    kind: str
    detail: str


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def constants_of(text):
    """The compile-time constant names a program uses."""
    code = "\n".join(l for l in text.splitlines()
                     if not l.lstrip().startswith("//"))
    return sorted(set(re.findall(r"\b(?:BLOCK|ROWS|SPLITS|TILE)\b", code)))


def is_power_of_two(value):
    return value > 0 and value & (value - 1) == 0


def next_power_of_two(value):
    return 1 << max(0, value - 1).bit_length()


def random_floats(rng, count):
    return [rng.gauss(0.0, 2.0) for _ in range(count)]


def npy(shape, descr="<f4", fortran=False, values=None, version=1,
        header=None):
    """A .npy file; `header` replaces the dict text when given."""
    if header is None:
        dims = "".join(f"{d}, " for d in shape) if len(shape) == 1 else \
            ", ".join(str(d) for d in shape)
        header = (f"{{'descr': '{descr}', 'fortran_order': {fortran}, "
                  f"'shape': ({dims}), }}")
    length_format = "<H" if version == 1 else "<I"
    preamble = 6 + 2 + struct.calcsize(length_format)
    padding = -(preamble + len(header) + 1) % 64
    text = (header + " " * padding + "\n").encode()
    data = b""
    if values is not None:
        element = {"<f4": "f", "<f2": "e", "<f8": "d", "<i4": "i",
                   ">f4": "f"}.get(descr, "f")
        order = ">" if descr.startswith(">") else "<"
        data = struct.pack(f"{order}{len(values)}{element}", *values)
    return (b"\x93NUMPY" + bytes([version, 0]) +
            struct.pack(length_format, len(text)) + text + data)


def valid_npy(rng, rows, cols):
    return npy((rows, cols), values=random_floats(rng, rows * cols))


def expected_failure(program, program_consts, options):
    """Why softmax-run must refuse these options ("" if it need not).

    `options` maps option names (without --) to values; `program` is the
    example's name, or None when the tool picks the program (`auto`)."""
    rows, cols = options["rows"], options["cols"]
    if options.get("target", "cpu") not in ("cpu", "gpu", "auto"):
        return "--target is not gpu, cpu or auto"
    if options.get("dtype", "f32") not in ("f32", "f16", "bf16"):
        return "unknown --dtype"
    tile = options.get("max-tile", 8192)
    if not (is_power_of_two(tile) and 2 <= tile <= 2**30):
        return "--max-tile is not a power of two in [2, 2^30]"
    if rows < 1 or cols < 1:
        return "rows or cols < 1"
    if rows > I32_MAX or cols > I32_MAX:
        return "rows or cols do not fit the i32 kernel arguments"
    for option in ("in-stride", "out-stride"):
        stride = options.get(option, 0)
        if stride < 0 or 0 < stride < cols:
            return f"--{option} {stride} is less than the row length {cols}"
        if stride > I32_MAX:
            return f"--{option} does not fit the i32 kernel argument"
    warps = options.get("num-warps", 0)
    if warps < 0 or (warps and not (is_power_of_two(warps) and warps <= 32)):
        return "--num-warps is not a power of two in [1, 32]"
    if options.get("num-ctas", 0) < 0:
        return "--num-ctas < 0"
    consts = options.get("const", {})
    for name, value in consts.items():
        if program is not None and name not in program_consts:
            return f"the program has no constant {name}"
        if program is None and name not in ("BLOCK", "ROWS", "SPLITS"):
            return f"no built-in program has a constant {name}"
        if not is_power_of_two(value):
            return f"{name}={value} is no power of two (a block size)"
    # A program that does not loop over its row must cover it (the tool
    # picks SPLITS when it is left free).
    splits_free = "SPLITS" in program_consts and "SPLITS" not in consts
    if program is not None and program not in LOOPING_PROGRAMS and \
            "BLOCK" in consts and not splits_free:
        covered = consts["BLOCK"] * consts.get("SPLITS", 1)
        if covered < cols:
            return f"BLOCK x SPLITS = {covered} cannot cover {cols} columns"
    return ""


def option_args(options):
    args = []
    for key, value in options.items():
        if key == "const":
            if value:
                args.append("--const=" + ",".join(
                    f"{n}={v}" for n, v in value.items()))
        elif value is True:
            args.append(f"--{key}")
        else:
            args.append(f"--{key}={value}")
    return args


# --------------------------------------------------------------------------
# Family 1: mutations of the example programs
# --------------------------------------------------------------------------

def code_lines(lines):
    return [i for i, l in enumerate(lines)
            if l.strip() and not l.lstrip().startswith("//")]


def mutate_delete_line(text, rng):
    lines = text.split("\n")
    if not code_lines(lines):
        return None
    i = rng.choice(code_lines(lines))
    return "\n".join(lines[:i] + lines[i + 1:]), f"deleted line {i + 1}"


def mutate_duplicate_line(text, rng):
    lines = text.split("\n")
    if not code_lines(lines):
        return None
    i = rng.choice(code_lines(lines))
    return "\n".join(lines[:i + 1] + lines[i:]), f"duplicated line {i + 1}"


def mutate_swap_lines(text, rng):
    lines = text.split("\n")
    if len(code_lines(lines)) < 2:
        return None
    i, j = rng.sample(code_lines(lines), 2)
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines), f"swapped lines {i + 1} and {j + 1}"


def replace_one(text, pattern, rng, replacement):
    """Replaces one random match of `pattern` (outside comments) by
    replacement(match); None if nothing matches."""
    matches = [m for m in re.finditer(pattern, text)
               if not text[text.rfind("\n", 0, m.start()) + 1:m.start()]
               .lstrip().startswith("//")]
    if not matches:
        return None
    m = rng.choice(matches)
    new = replacement(m)
    line = text.count("\n", 0, m.start()) + 1
    return (text[:m.start()] + new + text[m.end():],
            f"line {line}: {m.group(0)!r} -> {new!r}")


def mutate_integer(text, rng):
    return replace_one(text, r"(?<![\w.%#-])-?\d+(?![\w.])", rng,
                       lambda m: str(rng.choice(INT_BOUNDARIES)))


def mutate_ssa_name(text, rng):
    """Replaces one use (not a definition) of an SSA value by another name
    of the same function."""
    starts = [m.start() for m in re.finditer(r"^func\.func", text, re.M)]
    if not starts:
        return None
    bounds = list(zip(starts, starts[1:] + [len(text)]))
    start, end = rng.choice(bounds)
    body = text[start:end]
    names = sorted(set(re.findall(r"%[\w$.-]+", body)))
    if len(names) < 2:
        return None
    mutated = replace_one(body, r"%[\w$.-]+(?![\w$.-]|\s*=|:)", rng,
                          lambda m: rng.choice([n for n in names
                                                if n != m.group(0)]))
    if mutated is None:
        return None
    return text[:start] + mutated[0] + text[end:], mutated[1]


def mutate_op_name(text, rng):
    groups = [g for g in OP_GROUPS if any(op in text for op in g)]
    if not groups:
        return None
    group = rng.choice(groups)
    pattern = "|".join(re.escape(op) + r"\b" for op in group)
    return replace_one(text, pattern, rng, lambda m: rng.choice(
        [op for op in group if op != m.group(0)]))


def mutate_attribute(text, rng):
    edits = [
        lambda: replace_one(text, r", blk\.divisibility = \d+ : i64", rng,
                            lambda m: ""),
        lambda: replace_one(text, r"(?<=blk\.divisibility = )\d+", rng,
                            lambda m: str(rng.choice(INT_BOUNDARIES + [2, 8]))),
        lambda: replace_one(text, r"(?<=num_warps = )\d+", rng,
                            lambda m: str(rng.choice(INT_BOUNDARIES + [64]))),
        lambda: replace_one(text, r"(?<=#blk\.arg<)[^>]*", rng,
                            lambda m: rng.choice(ARG_ROLES)),
        lambda: replace_one(text, r"blk\.arg = #blk\.arg<[^>]*>(, )?", rng,
                            lambda m: ""),
        lambda: replace_one(text, r"blk\.kernel = #blk\.kernel<[^>]*>", rng,
                            lambda m: ""),
        lambda: replace_one(text, r"(?<=blk\.constexpr )\w+", rng,
                            lambda m: rng.choice(["FOO", "BLOCK", "ROWS"])),
    ]
    for old, news in KERNEL_ATTR_EDITS:
        edits.append(lambda old=old, news=news: replace_one(
            text, re.escape(old), rng, lambda m: rng.choice(news)))
    rng.shuffle(edits)
    for edit in edits:
        result = edit()
        if result:
            return result
    return None


def mutate_truncate(text, rng):
    data = text.encode()
    if not data:
        return None
    cut = rng.randrange(len(data))
    return data[:cut].decode(errors="ignore"), f"truncated at byte {cut}"


MUTATORS = [mutate_delete_line, mutate_duplicate_line, mutate_swap_lines,
            mutate_integer, mutate_integer, mutate_ssa_name, mutate_ssa_name,
            mutate_op_name, mutate_op_name, mutate_attribute,
            mutate_attribute, mutate_truncate]


def mutate(rng, text):
    """1 to 3 random mutations of `text`, and what they did."""
    notes = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if not text.strip():
            break
        result = None
        while result is None:
            result = rng.choice(MUTATORS)(text, rng)
        text, what = result
        notes.append(what)
    return text, notes


def mutation_case(rng, examples):
    name, text = rng.choice(sorted(examples.items()))
    text, notes = mutate(rng, text)
    rows = rng.randint(1, 9)
    cols = rng.choice([rng.randint(1, 300), rng.randint(1, 300),
                       rng.choice([512, 1000, 4096])])
    options = {"target": "cpu", "rows": rows, "cols": cols}
    if rng.random() < 0.9:
        options["check"] = True
    if rng.random() < 0.2:
        options["dtype"] = rng.choice(["f16", "bf16"])
    if rng.random() < 0.2:
        options["special"] = True
    if rng.random() < 0.15:
        options["in-stride"] = cols + rng.choice([0, 1, 16, 100])
    consts = constants_of(text)
    if consts and rng.random() < 0.5:
        sane = next_power_of_two(cols)
        options["const"] = {
            c: rng.choice([sane, sane, 1, 4, 16, rng.choice(CONST_VALUES)])
            for c in consts}
    files = {f"{name}.mut.mlir": text.encode()}
    guarded = {}
    if rng.random() < 0.3:
        options["output"] = "out.npy"
        files["out.npy"] = PRECIOUS
        guarded["out.npy"] = "replace"
    return Case("mutation", [f"{name}.mut.mlir"] + option_args(options),
                files, guarded=guarded, note="; ".join(notes))


def gpu_compile_case(rng, examples):
    """A mutated program of any example, compiled to PTX for a GPU."""
    name, text = rng.choice(sorted(examples.items()))
    text, notes = mutate(rng, text)
    rows = rng.choice([1, 7, 64, 4096])
    cols = rng.choice([rng.randint(1, 300), rng.choice([1000, 1001, 4096]),
                       rng.choice([50257, 65536, 131072])])
    options = {"rows": rows, "cols": cols,
               "chip": rng.choice(["sm_90", "sm_90", "sm_80"]),
               "emit-ptx": "k.ptx"}
    if rng.random() < 0.3:
        options["dtype"] = rng.choice(["f16", "bf16"])
    if rng.random() < 0.15:
        options["num-warps"] = rng.choice([1, 4, 8, 16, 32])
    if rng.random() < 0.1:
        options["num-ctas"] = rng.choice([2, 4, 16])
    if rng.random() < 0.1:
        options["stage-min-registers"] = rng.choice([0, 1, 48])
    if rng.random() < 0.1:
        options["async-fill-min-runs"] = rng.choice([0, 1, 12])
    # What the row-wise kernels need to bind their scalars.
    params = {"rms_norm": "eps=1e-6", "layer_norm": "eps=1e-5",
              "cross_entropy": "ignore_index=-100",
              "softmax_scaled_masked": "scale=0.125,offset=0"}
    args = [f"{name}.mut.mlir"] + option_args(options)
    if name in params:
        args.append("--param=" + params[name])
    if name == "softmax_scaled_masked":
        args.append("--const=CAUSAL=1")
    return Case("gpu-compile", args, {f"{name}.mut.mlir": text.encode()},
                note="; ".join(notes))


# The rules must bind every row program at these shapes on sm_90 (f32 and
# bf16): a binding found refused here was 8 CTAs of 16 warps for bf16 rows
# of a million (256 a thread) and 16 x 16 for 1048573 with the shift's room.
BINDING_PROGRAMS = {
    "softmax_fused": [], "softmax_online": [], "softmax_tiled": [],
    "softmax_persistent": [], "softmax_split": [],
    "softmax_split_resident": [], "log_softmax": [], "softmax_backward": [],
    "cross_entropy": ["--param=ignore_index=-100"],
    "rms_norm": ["--param=eps=1e-6"], "layer_norm": ["--param=eps=1e-5"],
    "softmax_scaled_masked": ["--const=CAUSAL=1",
                              "--param=scale=0.125,offset=0"],
}
BINDING_SHAPES = [(4096, 1024), (4096, 24577), (4096, 50257), (16, 100003),
                  (64, 151936), (16, 262144), (8, 1048576), (8, 1048573)]


def binding_cases(examples):
    """Every row program on the rules' binding at the extreme shapes."""
    cases = []
    for name, extra in BINDING_PROGRAMS.items():
        if name not in examples:
            continue
        for dtype in ["f32", "bf16"]:
            for rows, cols in BINDING_SHAPES:
                args = [f"{name}.mlir"] + option_args(
                    {"rows": rows, "cols": cols, "dtype": dtype,
                     "chip": "sm_90", "emit-ptx": "k.ptx"}) + extra
                cases.append(Case(
                    "bindings", args, {f"{name}.mlir": examples[name].encode()},
                    must_succeed="the rules' binding must compile",
                    note=f"{name} {dtype} {rows} x {cols}"))
    return cases


OPT_PIPELINES = ["--blk-to-ptx", "--blk-to-ptx=num-warps=8",
                 "--blk-to-ptx=num-warps=8 num-ctas=4",
                 "--blk-to-ptx=chip=sm_80", "--blk-to-cpu",
                 "--blk-to-cpu=check-bounds=1"]


def opt_case(rng, examples):
    """A mutated program through softmax-opt's pipelines."""
    name, text = rng.choice(sorted(examples.items()))
    text, notes = mutate(rng, text)
    bindings = ",".join(
        f"{c}=1" if c == "CAUSAL" else f"{c}={rng.choice([2, 4, 1024, 8192])}"
        for c in constants_of(text))
    args = [f"{name}.mut.mlir"]
    if bindings:
        args.append(f"--blk-specialize={bindings}")
    args += [rng.choice(OPT_PIPELINES), "-o", "out.mlir"]
    return Case("opt", args, {f"{name}.mut.mlir": text.encode()},
                note="; ".join(notes))


# --------------------------------------------------------------------------
# Family 2: sizes and options at and past their limits
# --------------------------------------------------------------------------

def limits_case(rng, examples):
    files = {}
    choice = rng.random()
    if choice < 0.1:
        program, target = None, "auto"
    elif choice < 0.2:
        program = rng.choice(sorted(examples))
        target = program  # the built-in program of that name
    else:
        program = rng.choice(sorted(examples))
        target = f"{program}.mlir"
        files[target] = examples[program].encode()
    consts_of_program = constants_of(examples[program]) if program else []
    cols = rng.choice([1, 2, rng.randint(1, 300), rng.randint(1, 300)])
    options = {"target": "cpu", "rows": rng.choice([1, rng.randint(1, 9)]),
               "cols": cols, "check": True}
    # option -> (weight, value maker)
    perturbations = {
        "rows": (3, lambda: rng.choice(SIZE_LIMITS)),
        "cols": (3, lambda: rng.choice(SIZE_LIMITS)),
        "in-stride": (2, lambda: rng.choice(
            SIZE_LIMITS + [-2**31, cols - 1, cols + 1])),
        "out-stride": (2, lambda: rng.choice(
            SIZE_LIMITS + [-2**31, cols - 1, cols + 1])),
        "const": (4, lambda: {rng.choice(CONST_NAMES + ["FOO"]):
                              rng.choice(CONST_VALUES)
                              for _ in range(rng.randint(1, 2))}),
        "num-warps": (2, lambda: rng.choice([-1, 0, 1, 3, 64, 2**31])),
        "num-ctas": (1, lambda: rng.choice([-1, 0, 1, 3, 64])),
        "max-tile": (2, lambda: rng.choice([-2, 0, 1, 2, 3, 7, 1000, 4096,
                                            2**30, 2**30 + 1, 2**31])),
        "dtype": (1, lambda: rng.choice(["f16", "bf16", "f32", "f64", "F32",
                                         "", "int8"])),
        "runs": (1, lambda: rng.choice([-1, 0, 1, 2**31 - 1])),
        "seed": (0.5, lambda: rng.choice([0, 2**32 - 1])),
        "special": (1, lambda: True),
        "target": (0.5, lambda: rng.choice(["tpu", ""])),
    }
    keys = sorted(perturbations)
    weights = [perturbations[k][0] for k in keys]
    for key in sorted(set(rng.choices(keys, weights, k=rng.randint(1, 2)))):
        options[key] = perturbations[key][1]()
    if "runs" in options:
        options["bench"] = True
    why = expected_failure(program, consts_of_program, options)
    return Case("limits", [target] + option_args(options), files,
                must_fail=why)


# --------------------------------------------------------------------------
# Family 3: bad --input files and unwritable --output paths
# --------------------------------------------------------------------------

def bad_input_files(rng):
    """(description, file bytes or a special path, must_fail) per kind."""
    good = valid_npy(rng, 3, 5)
    body = good[:128]
    return [
        ("valid f32 (control)", good, False),
        ("valid f16 data", npy((3, 5), "<f2",
                               values=random_floats(rng, 15)), False),
        ("1-D", npy((7,), values=random_floats(rng, 7)), False),
        ("version 2.0", npy((2, 3), values=random_floats(rng, 6),
                            version=2), False),
        ("NaN and inf data", npy((2, 3), values=[float("nan"), 1.0,
                                                 float("inf"), -1.0,
                                                 float("-inf"), 0.0]), False),
        ("truncated header", good[:40], True),
        ("truncated preamble", good[:9], True),
        ("truncated data", good[:-3], True),
        ("wrong magic", b"\x93NUMPZ" + good[6:], True),
        ("version 9.9", good[:6] + b"\x09\x09" + good[8:], True),
        ("header length past the end", good[:8] + b"\xff\xff" + good[10:],
         True),
        ("huge shape", npy((2**40, 2**40), values=[1.0] * 4), True),
        ("shape overflowing size_t", npy((2**64 - 1, 2), values=[1.0]), True),
        ("shape (2^31, 1) with little data", npy((2**31, 1), values=[1.0]),
         True),
        ("zero rows", npy((0, 5)), True),
        ("zero columns", npy((5, 0)), True),
        ("fortran order", npy((3, 5), fortran=True,
                              values=random_floats(rng, 15)), True),
        ("3-D", npy((2, 2, 2), values=random_floats(rng, 8)), True),
        ("0-D", npy((), values=[1.0]), True),
        ("int32 dtype", npy((3, 5), "<i4", values=list(range(15))), True),
        ("float64 dtype", npy((3, 5), "<f8", values=random_floats(rng, 15)),
         True),
        ("big-endian f4", npy((3, 5), ">f4", values=random_floats(rng, 15)),
         True),
        ("negative dimension", npy(None, header="{'descr': '<f4', "
                                   "'fortran_order': False, 'shape': (-1, 3), }"),
         True),
        ("unknown key", npy(None, header="{'descr': '<f4', 'fortran_order': "
                            "False, 'shape': (1, 1), 'x': 1, }") +
         struct.pack("<f", 1.0), True),
        ("garbage header", body[:10] + bytes(rng.randrange(256)
                                             for _ in range(118)), True),
        ("zero bytes", b"", True),
        ("/dev/null", "/dev/null", True),
        ("a directory", ".", True),
        ("nonexistent", "no/such/file.npy", True),
    ]


def input_case(rng, examples, description, content, must_fail):
    program = rng.choice(sorted(examples))
    files = {f"{program}.mlir": examples[program].encode(),
             "out.npy": PRECIOUS}
    if isinstance(content, bytes):
        files["in.npy"] = content
        path = "in.npy"
    else:
        path = content
    options = {"target": "cpu", "input": path, "output": "out.npy"}
    if rng.random() < 0.7:
        options["check"] = True
    if rng.random() < 0.3:
        options["dtype"] = rng.choice(["f16", "bf16"])
    return Case("input", [f"{program}.mlir"] + option_args(options), files,
                must_fail=description if must_fail else "",
                guarded={"out.npy": "replace"}, note=description)


def corrupted_input_case(rng, examples):
    """A valid .npy with a few random bytes changed, or cut short."""
    data = bytearray(valid_npy(rng, rng.randint(1, 4), rng.randint(1, 40)))
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(min(len(data), 128))] = rng.randrange(256)
        note = "random header bytes changed"
    else:
        del data[rng.randrange(len(data)):]
        note = "cut short"
    return input_case(rng, examples, note, bytes(data), False)


def output_cases(examples):
    program = "softmax_fused" if "softmax_fused" in examples else min(examples)
    base = [f"{program}.mlir", "--target=cpu", "--rows=3", "--cols=50"]
    files = {f"{program}.mlir": examples[program].encode()}
    cases = []
    for what, args in [
            ("--output in a missing directory", ["--output=no/dir/out.npy"]),
            ("--output to /dev/full", ["--output=/dev/full"]),
            ("--output is a directory", ["--output=."]),
            ("--csv in a missing directory",
             ["--bench", "--runs=20", "--csv=no/dir/out.csv"]),
            ("--csv to /dev/full", ["--bench", "--runs=20", "--csv=/dev/full"]),
            ("--emit-ptx to /dev/full", ["--emit-ptx=/dev/full"]),
            ("--emit-ptx in a missing directory",
             ["--emit-ptx=no/dir/k.ptx"])]:
        cases.append(Case("input", base + args, dict(files), must_fail=what,
                          note=what))
    return cases


# --------------------------------------------------------------------------
# Family 4: writes that fail half-way over a pre-existing file
# --------------------------------------------------------------------------

WRITE_KINDS = ["output", "csv", "autotune-cache", "emit-ptx"]


def write_case(rng, examples, kind):
    program = rng.choice(sorted(examples))
    rows, cols = rng.randint(4, 9), rng.randint(64, 300)
    files = {f"{program}.mlir": examples[program].encode()}
    options = {"target": "cpu", "rows": rows, "cols": cols}
    target = {"output": "out.npy", "csv": "out.csv",
              "autotune-cache": "autotune.tsv", "emit-ptx": "k.ptx"}[kind]
    files[target] = PRECIOUS
    mode = "replace"
    why = f"--{kind} cannot be written (RLIMIT_FSIZE {WRITE_LIMIT} bytes)"
    if kind == "output":
        options["output"] = target
    elif kind == "csv":
        options.update({"bench": True, "runs": 20, "csv": target})
        mode = "append"
    elif kind == "autotune-cache":
        # The CPU does not tune: the cache is read, never written.
        options.update({"autotune": True, "autotune-cache": target})
        mode, why = "append", ""
    else:
        options["emit-ptx"] = target
    if rng.random() < 0.5:
        options["check"] = True
    return Case("write", [f"{program}.mlir"] + option_args(options), files,
                must_fail=why, guarded={target: mode}, limit_writes=True,
                note=f"--{kind} over a pre-existing file, writes limited")


# --------------------------------------------------------------------------
# Running and judging
# --------------------------------------------------------------------------

def make_cases(rng, examples, count, family):
    cases = draw_cases(rng, examples, count, family)
    for index, case in enumerate(cases):
        case.name = f"c{index:04d}-{case.family}"
    return cases


def draw_cases(rng, examples, count, family):
    if family == "bindings":
        return binding_cases(examples)
    if family in ("gpu-compile", "opt"):
        maker = gpu_compile_case if family == "gpu-compile" else opt_case
        return [maker(rng, examples) for _ in range(count)]
    examples = {n: t for n, t in examples.items() if n.startswith("softmax_")}
    fixed = [input_case(rng, examples, *kind) for kind in bad_input_files(rng)]
    fixed += output_cases(examples)
    fixed += [write_case(rng, examples, kind) for kind in WRITE_KINDS]
    families = [(mutation_case, 55), (limits_case, 30),
                (corrupted_input_case, 10),
                (lambda r, e: write_case(r, e, r.choice(WRITE_KINDS)), 5)]
    makers, weights = zip(*families)
    cases = fixed[:count]
    while len(cases) < count:
        cases.append(rng.choices(makers, weights)[0](rng, examples))
    return cases


def child_limits(mem_limit, limit_writes):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_AS, (mem_limit, mem_limit))
        if limit_writes:
            resource.setrlimit(resource.RLIMIT_FSIZE,
                               (WRITE_LIMIT, WRITE_LIMIT))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return apply


def case_env(directory):
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_CACHE_HOME", "CUDA_VISIBLE_DEVICES")}
    for name, sub in [("TMPDIR", "tmp"), ("JITDUMPDIR", "jitdump"),
                      ("HOME", "home")]:
        path = os.path.join(directory, sub)
        os.makedirs(path, exist_ok=True)
        env[name] = path
    env["LLVM_DISABLE_SYMBOLIZATION"] = "1"
    return env


def read_bytes(path):
    """The file's bytes, or None if it is not there."""
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def first_line(text, containing=""):
    for line in text.splitlines():
        if line.strip() and containing in line:
            return line.strip()
    return ""


def message_line(stderr):
    """The first line of stderr outside LLVM's crash report."""
    for line in stderr.splitlines():
        if line.strip() and not CRASH_REPORT_LINE.match(line):
            return line.strip()
    return "no message"


def process_outcome(case, returncode, stdout, stderr, timeout):
    """The bad outcome of the process itself, or None."""
    output = stdout + "\n" + stderr
    if returncode is None:
        last = stdout.strip().splitlines()[-1:] or ["nothing"]
        return Bad("hang", f"no exit after {timeout:g} s (last output: "
                   f"{last[0].strip()})")
    for kind, text in MARKERS:
        if text in output:
            return Bad(kind, first_line(output, text))
    if returncode < 0:
        return Bad("crash", f"killed by {signal_name(-returncode)}: "
                   f"{message_line(stderr)}")
    if CRASH_REPORT.search(output):
        return Bad("stack-dump", f"crash report, then exit {returncode}: "
                   f"{message_line(stderr)}")
    # A failed --check says so on stdout; anything else must say why.
    if returncode != 0 and not stderr.strip() and "FAILED" not in stdout:
        return Bad("silent-fail", f"exit {returncode}, no message")
    if returncode == 0 and case.must_fail:
        return Bad("accepted", f"exit 0, but must fail: {case.must_fail}")
    if returncode != 0 and case.must_succeed:
        return Bad("refused", f"exit {returncode}, but {case.must_succeed}: "
                   f"{message_line(stderr)}")
    if returncode == 0 and ("FAILED" in stdout or NAN_FIGURE.search(stdout)):
        return Bad("check-ok", "exit 0 with " + first_line(stdout, "check:"))
    return None


def judge(case, returncode, stdout, stderr, directory, timeout):
    """The bad outcomes of a finished (or timed-out) run."""
    failed = returncode != 0
    bad = process_outcome(case, returncode, stdout, stderr, timeout)
    bads = [bad] if bad else []
    output_option = next((a.split("=", 1)[1] for a in case.args
                          if a.startswith("--output=")), "")
    if (returncode == 0 and output_option and
            not output_option.startswith("/dev/")):
        written = read_bytes(os.path.join(directory, output_option))
        if written is None or not written.startswith(b"\x93NUMPY"):
            bads.append(Bad("no-output", f"exit 0, {output_option} is "
                            "missing or not a .npy file"))
    for name, mode in case.guarded.items():
        after = read_bytes(os.path.join(directory, name))
        before = case.files[name]
        if failed:
            kept = after == before
        elif mode == "append":
            kept = after is not None and after.startswith(before)
        else:
            kept = True
        if not kept:
            state = "gone" if after is None else f"{len(after)} bytes now"
            why = "exit 0"
            if failed:
                why = f"exit {returncode}: " + (
                    first_line(stdout, "FAILED") if "FAILED" in stdout and
                    not stderr.strip() else message_line(stderr))
            bads.append(Bad("lost-file", f"{name} ({len(before)} bytes) "
                            f"changed: {state} ({why})"))
    return bads


def run_case(case, binary, mem_limit, timeout, keep):
    directory = tempfile.mkdtemp(prefix=case.name + "-")
    try:
        for name, content in case.files.items():
            with open(os.path.join(directory, name), "wb") as f:
                f.write(content)
        try:
            result = subprocess.run(
                [binary] + case.args, cwd=directory, env=case_env(directory),
                stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                preexec_fn=child_limits(mem_limit, case.limit_writes))
            returncode, out, err = result.returncode, result.stdout, \
                result.stderr
        except subprocess.TimeoutExpired as expired:
            returncode, out, err = None, expired.stdout or b"", \
                expired.stderr or b""
        bads = judge(case, returncode, out.decode(errors="replace"),
                     err.decode(errors="replace"), directory, timeout)
        if bads and keep:
            save_reproducer(case, bads, binary, mem_limit, keep)
        return bads
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def save_reproducer(case, bads, binary, mem_limit, keep):
    directory = os.path.join(keep, f"{case.name}-{bads[0].kind}")
    os.makedirs(directory, exist_ok=True)
    for name, content in case.files.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(content)
    lines = ["#!/bin/sh", f"# {case.family}: {case.note or case.must_fail}"]
    lines += [f"# BAD {b.kind}: {b.detail}" for b in bads]
    lines += ['cd "$(dirname "$0")"', f"ulimit -v {mem_limit // 1024}"]
    if case.limit_writes:
        lines += ["ulimit -f 1", "trap '' XFSZ"]
    lines.append("exec " + case.command(binary))
    script = os.path.join(directory, "cmd.sh")
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(script, 0o755)


def read_examples(directory):
    examples = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".mlir"):
            with open(os.path.join(directory, name)) as f:
                examples[name[:-len(".mlir")]] = f.read()
    return examples


def main():
    parser = argparse.ArgumentParser(
        description="Hostile tests of softmax-run on the CPU target.")
    parser.add_argument("--softmax-run", required=True)
    parser.add_argument("--softmax-opt",
                        help="softmax-opt, for --family opt")
    parser.add_argument("--examples", required=True,
                        help="directory of the example programs")
    parser.add_argument("--family",
                        choices=["cpu", "gpu-compile", "opt", "bindings"],
                        default="cpu",
                        help="cpu: the CPU families above (default); "
                        "gpu-compile: mutated programs compiled to PTX; "
                        "opt: mutated programs through softmax-opt; "
                        "bindings: every row program bound by the rules "
                        "at extreme shapes, compiled to PTX")
    parser.add_argument("--count", type=int, default=600,
                        help="cases to run (default 600)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="save bad cases' reproducers here")
    parser.add_argument("--timeout", type=float, default=20,
                        help="seconds per case (default 20)")
    parser.add_argument("--mem-limit-mb", type=int, default=4096,
                        help="address-space limit per case (default 4096)")
    args = parser.parse_args()

    if args.family == "opt" and not args.softmax_opt:
        sys.exit("fuzz: --family opt needs --softmax-opt")
    binary = os.path.abspath(args.softmax_opt if args.family == "opt"
                             else args.softmax_run)
    examples = read_examples(args.examples)
    if not examples:
        sys.exit(f"fuzz: no example programs in {args.examples}")
    if args.keep:
        args.keep = os.path.abspath(args.keep)
        os.makedirs(args.keep, exist_ok=True)
    mem_limit = args.mem_limit_mb * 1024 * 1024
    cases = make_cases(random.Random(args.seed), examples, args.count,
                       args.family)

    counts = dict.fromkeys(KINDS, 0)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda c: run_case(c, binary, mem_limit,
                                              args.timeout, args.keep), cases)
        for case, bads in zip(cases, results):
            for bad in bads:
                counts[bad.kind] += 1
                print(f"BAD {bad.kind}: [{case.name}] {case.shown()} -> "
                      f"{bad.detail}", flush=True)
    total = sum(counts.values())
    kinds = ", ".join(f"{kind} {n}" for kind, n in counts.items())
    print(f"fuzz: {len(cases)} cases, {total} bad ({kinds})")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
