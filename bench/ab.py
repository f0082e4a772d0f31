#!/usr/bin/env python3
"""A/B comparisons of softmax-run: binaries, programs or flag sets, side by side.

Each variant is NAME=BINARY[:FLAGS]: a softmax-run binary and the flags its
runs add (BINARY empty: --binary). A variant's FLAGS may hold --program P,
which replaces --program for that variant only (ab.py takes it; softmax-run
gets P as its program). Every (dtype, shape) runs every variant in turn,
--rounds times (A, B, A, B, ...: drift of clocks and temperature falls on
every variant alike), one process a run:

  BINARY PROGRAM --target gpu --rows R --cols C --dtype D --bench --json
         [--check] [--flags] [the variant's FLAGS]

and reads the one JSON object softmax-run --json prints on standard output.
With --check, each variant's first round on each problem also checks its
outputs against the float64 reference (the timing is the kernel's alone, so
that round counts too); a failed check, a failed run or a missing timing
makes the exit status 1. The table (standard output, one per dtype) has each
variant's median GB/s and % of a same-size device copy over the rounds, and
each variant's median GB/s against the first variant's; --csv keeps every
run. The compiled-program cache is off (BLK_CACHE_DIR=, as softmax-run
documents) unless --keep-cache: two binaries must not share compiled code.
Interrupted (Ctrl-C, or SIGTERM as `timeout` sends), it prints the tables
and writes the CSV of the runs so far, and exits with status 1.

In FLAGS, --flags and --program, {rows}, {cols}, {dtype} and arithmetic on
rows and cols with ceil, pow2 (the next power of two), min and max are
filled in per problem, e.g. --const BLOCK=4096,SPLITS={pow2(ceil(cols/4096))}.

  bench/ab.py --variant A=bin/softmax-run --variant B=/tmp/new/softmax-run \\
      --shapes 4096x1024,1024x65536 --dtypes bf16,f32 --rounds 3 --check
  bench/ab.py --variant w4=:"--num-warps 4" --variant w8=:"--num-warps 8" \\
      --program examples/rms_norm.mlir --flags "--param eps=1e-6" --shapes 4096x8192
  bench/ab.py ... --dry-run     # the commands, nothing run
  bench/ab.py --self-test       # no GPU, no softmax-run needed
"""

import argparse
import ast
import csv
import json
import math
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def default_binary():
    """The bundle's bin/softmax-run (bench/ is beside bin/ in blk-bundle),
    else a build's, else softmax-run on PATH."""
    for candidate in (os.path.join(HERE, "..", "bin", "softmax-run"),
                      os.path.join(HERE, "..", "build", "bin", "softmax-run")):
        if os.access(candidate, os.X_OK):
            return os.path.relpath(os.path.normpath(candidate))
    return "softmax-run"


class Variant:
    def __init__(self, name, binary, flags, program=None):
        self.name, self.binary, self.flags, self.program = (
            name, binary, flags, program)

    def __repr__(self):
        return "Variant(%r, %r, %r, %r)" % (
            self.name, self.binary, self.flags, self.program)


def parse_variant(spec, binary=None):
    """NAME=BINARY[:FLAGS] -> Variant; FLAGS' --program P (or --program=P)
    becomes the variant's program."""
    name, sep, rest = spec.partition("=")
    if not sep or not name:
        raise ValueError("variant %r: expected NAME=BINARY[:FLAGS]" % spec)
    if not re.fullmatch(r"[\w.+-]+", name):
        raise ValueError("variant %r: a name of letters, digits and ._+- "
                         "please" % spec)
    path, _, flag_text = rest.partition(":")
    flags, program, words = [], None, shlex.split(flag_text)
    i = 0
    while i < len(words):
        if words[i] == "--program":
            if i + 1 == len(words):
                raise ValueError("variant %r: --program without a program"
                                 % spec)
            program, i = words[i + 1], i + 2
            continue
        if words[i].startswith("--program="):
            program = words[i][len("--program="):]
        else:
            flags.append(words[i])
        i += 1
    return Variant(name, path or binary or default_binary(), flags, program)


def parse_shapes(text):
    shapes = []
    for word in re.split(r"[,\s]+", text.strip()):
        if not word:
            continue
        m = re.fullmatch(r"(\d+)x(\d+)", word)
        if not m:
            raise ValueError("shape %r: expected ROWSxCOLS" % word)
        shapes.append((int(m[1]), int(m[2])))
    if not shapes:
        raise ValueError("no shapes")
    return shapes


def parse_list(text):
    return [w for w in re.split(r"[,\s]+", text.strip()) if w]


# {expr} in flags: rows, cols, dtype and a little arithmetic, nothing else.
_FUNCTIONS = {
    "ceil": lambda x: math.ceil(x),
    "floor": lambda x: math.floor(x),
    "pow2": lambda x: 1 << max(0, math.ceil(x) - 1).bit_length(),
    "min": min,
    "max": max,
}
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name,
          ast.Load, ast.Call, ast.Add, ast.Sub, ast.Mult, ast.Div,
          ast.FloorDiv, ast.Mod, ast.Pow, ast.USub)


def fill(text, rows, cols, dtype):
    def one(m):
        expr = m[1].strip()
        if expr == "dtype":
            return dtype
        tree = ast.parse(expr, mode="eval")
        for node in ast.walk(tree):
            if not isinstance(node, _NODES) or (
                    isinstance(node, ast.Name) and
                    node.id not in ("rows", "cols") + tuple(_FUNCTIONS)) or (
                    isinstance(node, ast.Call) and
                    not (isinstance(node.func, ast.Name) and
                         node.func.id in _FUNCTIONS)):
                raise ValueError("{%s}: only rows, cols, dtype, numbers, "
                                 "+ - * / // %% ** and %s" %
                                 (expr, ", ".join(_FUNCTIONS)))
        value = eval(compile(tree, "{}", "eval"), {"__builtins__": {}},
                     dict(_FUNCTIONS, rows=rows, cols=cols))
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value)
    return re.sub(r"\{([^{}]+)\}", one, text)


def command(variant, program, common_flags, rows, cols, dtype, target,
            check):
    program = fill(variant.program or program, rows, cols, dtype)
    argv = [variant.binary, program, "--target", target, "--rows", str(rows),
            "--cols", str(cols), "--dtype", dtype, "--bench", "--json"]
    if check:
        argv.append("--check")
    argv += [fill(f, rows, cols, dtype) for f in common_flags + variant.flags]
    return argv


def parse_result(stdout):
    """The JSON object softmax-run --json printed: the whole output, else its
    last line that parses as an object."""
    text = stdout.strip()
    try:
        value = json.loads(text)
        if isinstance(value, dict):
            return value
    except ValueError:
        pass
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                return value
    raise ValueError("no JSON object on standard output (a softmax-run "
                     "without --json?)")


def judge(facts, rows, cols, checked):
    """(ok, problems): what is wrong with one run's facts."""
    problems = []
    if facts.get("error"):
        problems.append(str(facts["error"]))
    if not facts.get("ok", False):
        problems.append("ok: false")
    if (facts.get("rows"), facts.get("cols")) != (rows, cols) and \
            "rows" in facts:
        problems.append("ran %sx%s" % (facts.get("rows"), facts.get("cols")))
    for c in facts.get("checks", []):
        if not c.get("passed", False):
            details = ", ".join("%s %s" % (k, c[k]) for k in
                                ("max_abs", "max_rel", "rel_l2",
                                 "nan_mismatches", "unwritten", "summary")
                                if k in c)
            problems.append("check FAILED: output %s against %s%s" % (
                c.get("output", "?"), c.get("against", "?"),
                " (" + details + ")" if details else ""))
    if checked and not facts.get("checks"):
        problems.append("--check made no check")
    bench = facts.get("bench")
    if not isinstance(bench, dict) or "gbps" not in bench:
        problems.append("no timing")
    return not problems, problems


def run_one(argv, env, timeout):
    """(facts or None, problems)."""
    try:
        proc = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              timeout=timeout)
    except FileNotFoundError:
        return None, ["%s: not found" % argv[0]]
    except PermissionError:
        return None, ["%s: not executable" % argv[0]]
    except subprocess.TimeoutExpired:
        return None, ["no answer in %d s (a hang?)" % timeout]
    try:
        facts = parse_result(proc.stdout)
    except ValueError as e:
        tail = (proc.stderr.strip().splitlines() or ["(no standard error)"])
        return None, ["exit %d, %s; stderr: %s" % (proc.returncode, e,
                                                    tail[-1])]
    problems = []
    if proc.returncode != 0 and facts.get("ok", False):
        problems.append("exit %d" % proc.returncode)
    return facts, problems


def median(values):
    return statistics.median(values) if values else None


def summarize(records, variants, dtypes, shapes):
    """{(dtype, shape): {variant: (median gbps, median % of copy, n)}}."""
    out = {}
    for dtype in dtypes:
        for shape in shapes:
            cells = {}
            for v in variants:
                runs = [r for r in records if r["variant"] == v.name and
                        r["dtype"] == dtype and (r["rows"], r["cols"]) == shape
                        and r["ok"] and r["gbps"] is not None]
                if not runs and not any(
                        r["variant"] == v.name and r["dtype"] == dtype and
                        (r["rows"], r["cols"]) == shape for r in records):
                    continue
                pcts = [r["percent_of_copy"] for r in runs
                        if r["percent_of_copy"] is not None]
                failed = any(not r["ok"] for r in records
                             if r["variant"] == v.name and r["dtype"] == dtype
                             and (r["rows"], r["cols"]) == shape)
                cells[v.name] = (median([r["gbps"] for r in runs]),
                                 median(pcts), len(runs), failed)
            if cells:
                out[(dtype, shape)] = cells
    return out


def table(records, variants, dtypes, shapes, rounds):
    summary = summarize(records, variants, dtypes, shapes)
    first = variants[0].name
    lines = []
    for dtype in dtypes:
        rows = [(shape, summary[(dtype, shape)]) for shape in shapes
                if (dtype, shape) in summary]
        if not rows:
            continue
        header = ["shape"]
        for v in variants:
            header += [v.name + " GB/s", v.name + " %copy"]
        header += ["%s/%s" % (v.name, first) for v in variants[1:]]
        body = []
        for shape, cells in rows:
            line = ["%dx%d" % shape]
            for v in variants:
                gbps, pct, n, failed = cells.get(v.name, (None, None, 0, True))
                mark = "!" if failed else ""
                line.append("-" + mark if gbps is None
                            else "%.1f%s" % (gbps, mark))
                line.append("-" if pct is None else "%.1f%%" % pct)
            base = cells.get(first, (None,))[0]
            for v in variants[1:]:
                gbps = cells.get(v.name, (None,))[0]
                line.append("-" if gbps is None or not base
                            else "%.3f" % (gbps / base))
            body.append(line)
        widths = [max(len(r[i]) for r in [header] + body)
                  for i in range(len(header))]
        lines.append("%s: median of %d round%s; %s: GB/s against %s's%s" % (
            dtype, rounds, "" if rounds == 1 else "s",
            "ratios" if len(variants) > 2 else "ratio", first,
            "; ! a failed run or check" if any(
                c[3] for _, cells in rows for c in cells.values()) else ""))
        for r in [header] + body:
            lines.append("  ".join(
                (c.ljust if i == 0 else c.rjust)(widths[i])
                for i, c in enumerate(r)).rstrip())
        lines.append("")
    return "\n".join(lines)


CSV_FIELDS = ["variant", "binary", "program", "flags", "dtype", "rows", "cols",
              "round", "checked", "check_passed", "ok", "ms", "runs", "gbps",
              "copy_gbps", "percent_of_copy", "binding", "grid", "device",
              "problems"]


def record(variant, argv, dtype, shape, rnd, checked, facts, problems):
    facts = facts or {}
    bench = facts.get("bench") if isinstance(facts.get("bench"), dict) else {}
    checks = facts.get("checks", [])
    return {
        "variant": variant.name, "binary": variant.binary, "program": argv[1],
        "flags": " ".join(shlex.quote(a) for a in argv[12:]
                          if a != "--check"),
        "dtype": dtype, "rows": shape[0], "cols": shape[1], "round": rnd,
        "checked": checked,
        "check_passed": (all(c.get("passed", False) for c in checks)
                         if checks else None),
        "ok": not problems, "ms": bench.get("ms"), "runs": bench.get("runs"),
        "gbps": bench.get("gbps"), "copy_gbps": bench.get("copy_gbps"),
        "percent_of_copy": bench.get("percent_of_copy"),
        "binding": facts.get("binding"), "grid": facts.get("grid"),
        "device": facts.get("device"), "problems": "; ".join(problems),
    }


def version_of(binary, env):
    try:
        proc = subprocess.run([binary, "--version"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=60)
        lines = proc.stdout.strip().splitlines()
        return lines[-1].strip() if lines else "(no --version)"
    except (OSError, subprocess.TimeoutExpired) as e:
        return "(--version: %s)" % e


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="ab.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Flags that begin with '-' and hold no space need the = form: "
               "--flags=--stage-on-clusters.")
    parser.add_argument("--variant", action="append", default=[],
                        metavar="NAME=BINARY[:FLAGS]",
                        help="a variant (repeatable, at least 2 unless one "
                             "is enough to time); the first is the ratios' "
                             "base")
    parser.add_argument("--program", default="auto",
                        help="program path, built-in name or auto (default)")
    parser.add_argument("--flags", default="",
                        help="softmax-run flags every run gets")
    parser.add_argument("--shapes", default="4096x1024,4096x8192,1024x65536",
                        help="ROWSxCOLS,... (default %(default)s)")
    parser.add_argument("--dtypes", default="f32,bf16",
                        help="f32,bf16,f16 (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each variant per problem, interleaved "
                             "(default %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="check each variant's first round on each "
                             "problem")
    parser.add_argument("--csv", metavar="FILE",
                        help="one row per (variant, dtype, shape, round)")
    parser.add_argument("--target", default="gpu", choices=("gpu", "cpu"),
                        help="softmax-run --target (default gpu)")
    parser.add_argument("--binary", default=None,
                        help="a variant's BINARY when its spec leaves it "
                             "empty (default: the bundle's bin/softmax-run, "
                             "else build/bin/, else softmax-run on PATH)")
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds a run may take (default %(default)s)")
    parser.add_argument("--keep-cache", action="store_true",
                        help="leave BLK_CACHE_DIR alone (default: the cache "
                             "off)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the commands, run nothing")
    parser.add_argument("--self-test", action="store_true",
                        help="test ab.py itself (no GPU) and exit")
    args = parser.parse_args(argv)

    if args.self_test:
        return self_test()
    try:
        variants = [parse_variant(s, args.binary) for s in args.variant]
        shapes = parse_shapes(args.shapes)
        dtypes = parse_list(args.dtypes)
        common = shlex.split(args.flags)
        if not variants:
            raise ValueError("no --variant")
        names = [v.name for v in variants]
        if len(set(names)) != len(names):
            raise ValueError("two variants named alike: %s" % " ".join(names))
        if args.rounds < 1:
            raise ValueError("--rounds: at least 1")
        for dtype in dtypes:  # a bad {expr} fails before anything runs
            for rows, cols in shapes:
                for v in variants:
                    command(v, args.program, common, rows, cols, dtype,
                            args.target, args.check)
    except (ValueError, SyntaxError) as e:
        parser.error(str(e))

    env = dict(os.environ)
    prefix = ""
    if not args.keep_cache:
        env["BLK_CACHE_DIR"] = ""
        prefix = "BLK_CACHE_DIR= "
    plan = []
    for dtype in dtypes:
        for shape in shapes:
            for rnd in range(1, args.rounds + 1):
                for v in variants:
                    checked = args.check and rnd == 1
                    plan.append((v, dtype, shape, rnd, checked, command(
                        v, args.program, common, shape[0], shape[1], dtype,
                        args.target, checked)))
    if args.dry_run:
        for v, dtype, shape, rnd, checked, cmd in plan:
            print("%s%s" % (prefix, " ".join(shlex.quote(a) for a in cmd)))
        return 0

    records, failures = [], []

    def terminate(signum, frame):
        raise KeyboardInterrupt

    # `timeout` sends SIGTERM: the runs so far still make their tables.
    signal.signal(signal.SIGTERM, terminate)
    try:
        for i, (v, dtype, shape, rnd, checked, cmd) in enumerate(plan, 1):
            facts, problems = run_one(cmd, env, args.timeout)
            if facts is not None:
                problems += judge(facts, shape[0], shape[1], checked)[1]
            r = record(v, cmd, dtype, shape, rnd, checked, facts, problems)
            records.append(r)
            where = "%s %dx%d %s round %d" % (dtype, shape[0], shape[1],
                                              v.name, rnd)
            if problems:
                failures.append((where, cmd, problems))
                print("[%d/%d] %s: FAILED: %s\n    %s%s" % (
                    i, len(plan), where, "; ".join(problems), prefix,
                    " ".join(shlex.quote(a) for a in cmd)), file=sys.stderr)
            else:
                print("[%d/%d] %s: %.1f GB/s%s, %s, grid %s%s" % (
                    i, len(plan), where, r["gbps"],
                    "" if r["percent_of_copy"] is None
                    else " (%.1f%% of copy)" % r["percent_of_copy"],
                    r["binding"], r["grid"], ", checked" if checked else ""),
                    file=sys.stderr)
    except KeyboardInterrupt:
        print("ab.py: interrupted; the runs so far:", file=sys.stderr)
        failures.append(("interrupted", [], ["interrupted"]))

    devices = sorted({r["device"] for r in records if r["device"]})
    print("device: %s" % (", ".join(devices) or "(not reported)"))
    versions = {}
    for v in variants:
        if v.binary not in versions:
            versions[v.binary] = version_of(v.binary, env)
        flags = " ".join(shlex.quote(f) for f in v.flags)
        print("%s: %s%s%s (%s)" % (
            v.name, v.binary,
            " --program " + shlex.quote(v.program) if v.program else "",
            " " + flags if flags else "", versions[v.binary]))
    print("program: %s; flags: %s; target %s%s\n" % (
        args.program, args.flags or "(none)", args.target,
        "; checked (first round)" if args.check else ""))
    # Interrupted, the rounds that ran.
    rounds = max((r["round"] for r in records), default=args.rounds)
    print(table(records, variants, dtypes, shapes, rounds))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            w.writeheader()
            for r in records:
                w.writerow(r)
    if failures:
        print("ab.py: %d of %d runs FAILED:" % (len(failures), len(plan)),
              file=sys.stderr)
        for where, cmd, problems in failures:
            print("  %s: %s" % (where, "; ".join(problems)), file=sys.stderr)
        return 1
    return 0


def self_test():
    """Parses a canned JSON line and variant spec, fills placeholders, builds
    a command, and runs two variants end to end on a stand-in softmax-run (a
    Python script printing canned JSON): no GPU, no softmax-run."""
    line = ('{"program": "softmax_fused", "rows": 4096, "cols": 1024, '
            '"dtype": "bf16", "target": "gpu", "device": "NVIDIA H100", '
            '"binding": "BLOCK=1024, warps=4", "grid": 4096, "checks": '
            '[{"output": "y", "passed": true, "against": "softmax", '
            '"max_abs": 1e-7}], "bench": {"ms": 0.0058, "runs": 50, '
            '"gbps": 2892.5, "copy_gbps": 2980.1, "percent_of_copy": 97.06}, '
            '"ok": true}')
    facts = parse_result("\n" + line + "\n")
    assert facts["bench"]["gbps"] == 2892.5 and facts["grid"] == 4096
    assert judge(facts, 4096, 1024, True) == (True, [])
    bad = dict(facts, checks=[{"output": "y", "passed": False,
                               "against": "softmax", "max_abs": 0.5}], ok=False)
    ok, problems = judge(bad, 4096, 1024, True)
    assert not ok and any("check FAILED: output y" in p for p in problems)
    assert not judge(dict(facts, checks=[]), 4096, 1024, True)[0]
    nobench = {k: v for k, v in facts.items() if k != "bench"}
    assert judge(nobench, 4096, 1024, False)[1] == ["no timing"]
    try:
        parse_result("softmax-run: 4096 x 1024 f32\n")
        raise AssertionError("parsed a human line")
    except ValueError:
        pass

    v = parse_variant('w8=bin/softmax-run:--num-warps 8 --program '
                      'examples/rms_norm.mlir --const "BLOCK={cols}"')
    assert (v.name, v.binary, v.program) == (
        "w8", "bin/softmax-run", "examples/rms_norm.mlir"), v
    assert v.flags == ["--num-warps", "8", "--const", "BLOCK={cols}"], v
    assert parse_variant("A=/tmp/a b/softmax-run").binary == "/tmp/a b/softmax-run"
    assert parse_variant("B=", "x/softmax-run").binary == "x/softmax-run"
    assert parse_variant("B=:--program=softmax_split", "r").program == \
        "softmax_split"
    for spec in ("nameless", "=bin/softmax-run", "a b=bin/x"):
        try:
            parse_variant(spec)
            raise AssertionError("accepted %r" % spec)
        except ValueError:
            pass
    assert parse_shapes("4096x1024, 1024x65536") == [(4096, 1024),
                                                     (1024, 65536)]
    assert fill("SPLITS={pow2(ceil(cols/4096))}", 8, 262144, "f32") == \
        "SPLITS=64"
    assert fill("SPLITS={pow2(ceil(cols/4096))}", 8, 151936, "f32") == \
        "SPLITS=64"
    assert fill("BLOCK=16384,SPLITS={ceil(cols/16384)}", 1, 1048576, "x") \
        == "BLOCK=16384,SPLITS=64"
    assert fill("{dtype}/{rows*2}", 3, 5, "bf16") == "bf16/6"
    try:
        fill("{__import__('os')}", 1, 1, "f32")
        raise AssertionError("evaluated a call outside the list")
    except ValueError:
        pass
    cmd = command(v, "auto", ["--runs", "20"], 4096, 1024, "bf16", "gpu", True)
    assert cmd == ["bin/softmax-run", "examples/rms_norm.mlir", "--target",
                   "gpu", "--rows", "4096", "--cols", "1024", "--dtype",
                   "bf16", "--bench", "--json", "--check", "--runs", "20",
                   "--num-warps", "8", "--const", "BLOCK=1024"], cmd

    # End to end: a stand-in softmax-run whose GB/s is 1000 x --num-warps and
    # whose check fails for --num-warps 3.
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "fake-softmax-run.py")
        with open(fake, "w") as f:
            f.write(
                "import json, sys\n"
                "a = sys.argv[1:]\n"
                "if a == ['--version']: print('fake 1.0'); sys.exit(0)\n"
                "get = lambda k, d=None: a[a.index(k) + 1] if k in a else d\n"
                "w = int(get('--num-warps', '4'))\n"
                "sys.stderr.write('human report\\n')\n"
                "facts = {'program': sys.argv[0], 'rows': int(get('--rows')),\n"
                "  'cols': int(get('--cols')), 'dtype': get('--dtype'),\n"
                "  'target': get('--target'), 'binding': 'warps=%d' % w,\n"
                "  'grid': 1, 'bench': {'ms': 1.0, 'runs': 20,\n"
                "  'gbps': 1000.0 * w, 'copy_gbps': 10000.0,\n"
                "  'percent_of_copy': 10.0 * w}, 'ok': w != 3}\n"
                "if '--check' in a:\n"
                "  facts['checks'] = [{'output': 'y', 'passed': w != 3,\n"
                "                      'against': 'softmax'}]\n"
                "print(json.dumps(facts))\n"
                "sys.exit(0 if w != 3 else 1)\n")
        out = os.path.join(tmp, "ab.csv")
        py = sys.executable
        base = ["--program", fake, "--shapes", "8x16,4x4", "--dtypes",
                "f32,bf16", "--rounds", "2", "--check", "--csv", out]
        quiet = open(os.devnull, "w")
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = quiet
        try:
            good = main(base + ["--variant", "w4=%s:--num-warps 4" % py,
                                "--variant", "w8=%s:--num-warps 8" % py])
            with open(out) as f:
                rows = list(csv.DictReader(f))
            bad = main(base + ["--variant", "w4=%s:--num-warps 4" % py,
                               "--variant", "w3=%s:--num-warps 3" % py])
            dry = main(base + ["--variant", "a=/nonexistent", "--dry-run"])
        finally:
            sys.stdout, sys.stderr = saved
            quiet.close()
        assert good == 0 and bad == 1 and dry == 0, (good, bad, dry)
        assert len(rows) == 2 * 2 * 2 * 2, len(rows)
        assert [r["variant"] for r in rows[:4]] == ["w4", "w8", "w4", "w8"]
        assert rows[0]["checked"] == "True" and rows[2]["checked"] == "False"
        assert float(rows[1]["gbps"]) == 8000.0
        records = [dict(r, rows=int(r["rows"]), cols=int(r["cols"]),
                        gbps=float(r["gbps"]),
                        percent_of_copy=float(r["percent_of_copy"]),
                        ok=r["ok"] == "True") for r in rows]
        variants = [parse_variant("w4=x"), parse_variant("w8=x")]
        text = table(records, variants, ["f32", "bf16"], [(8, 16), (4, 4)], 2)
        assert "w8/w4" in text and "2.000" in text and "80.0%" in text, text
        assert rows[1]["flags"] == "--num-warps 8", rows[1]
        records[0]["ok"] = False  # a failed run's timing is no median's
        text = table(records, variants, ["f32"], [(8, 16)], 2)
        assert "4000.0!" in text and "2.000" in text, text
    print("ab.py self-test: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
