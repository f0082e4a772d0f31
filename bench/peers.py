#!/usr/bin/env python3
"""The peers of the project's softmax on a CUDA GPU, timed the same way, and
a side-by-side table with the project's own numbers.

Usage (bench/run.sh calls it so, after softmax-run has written OURS.csv):

    python3 bench/peers.py [--dtype f32,bf16] [--shapes 4096x128,1024x65536]
                           [--ours OURS.csv] [--out peers.csv]

Defaults: dtypes f32,bf16 (f16 is accepted too) and the 15 standard shapes
(4096 x 128 ... 32768 in powers of two, 1024x65536, 512x131072, 256x262144,
64x1048576, 262144x128, 65536x1024). The input is torch.randn(M, N) on the
GPU; softmax runs over each row (the last dimension).

Providers, all on the same input:
  copy           y.copy_(x): a device-to-device copy of the same bytes, the
                 limit a memory-bound kernel of that size can reach
  torch          torch.softmax(x, dim=-1)
  triton_fused   Triton fused softmax as in Triton's tutorial: one row per
                 program over a persistent grid (SMs x occupancy), BLOCK =
                 next power of two >= N, num_warps 4 / 8 / 16 for BLOCK up to
                 1024 / 4096 / beyond; skipped when a row exceeds 256 KiB
                 (BLOCK > 65536 for f32, > 131072 for 16-bit data)
  triton_online  Triton two-pass online softmax for long rows: one program per
                 row walks tiles of 4096, keeping a running (max, sum) per
                 lane, then writes exp(x - max) / sum in a second pass
Each softmax is checked once against torch.softmax in float32 by the rule
softmax-run's --check applies (bench/tolerance.py: relative L2 error at most
1e-5 for f32, 1e-2 for 16-bit); a failure prints a warning. A peer that
cannot run a shape (e.g. Triton's OutOfResources) prints a note and has no
number there. A 1 GiB device copy is measured once as a yardstick.

Time: median of triton.testing.do_bench (which flushes L2 before each run).
GB/s = 2 * M * N * bytes per element / time (one read and one write).

--out writes the CSV `dtype,M,N,provider,gbps` (gbps as %.1f, like the
ours.csv of softmax-run), plus the yardstick as `bytes,1,1073741824,copy,...`;
it is rewritten through a temporary file after every shape, so a failed run
keeps what it measured. Without --out the CSV goes to stdout at the end.
--ours FILE (same columns; provider e.g. `blk`; of several rows for one
dtype, shape and provider the last counts) adds the project's columns to the
table printed at the end: ours / best peer, ours / torch, and ours as a
percentage of the copy of the same bytes and of the 1 GiB copy.
"""
import argparse
import csv
import io
import os
import sys
import tempfile

from tolerance import TOLERANCE, passes, relative_l2

STANDARD_SHAPES = (
    [(4096, 1 << k) for k in range(7, 16)]
    + [(1024, 65536), (512, 131072), (256, 262144), (64, 1048576), (262144, 128), (65536, 1024)]
)
DTYPES = ("f32", "bf16", "f16")
ELEMENT_BYTES = {"f32": 4, "bf16": 2, "f16": 2}

COPY = "copy"
PEERS = ("torch", "triton_fused", "triton_online")  # the softmax peers, in table order
YARDSTICK_BYTES = 1 << 30
YARDSTICK_KEY = ("bytes", 1, YARDSTICK_BYTES)

MAX_FUSED_ROW_BYTES = 256 * 1024  # triton_fused keeps a whole row in registers
FUSED_STAGES = 2
ONLINE_TILE = 4096
ONLINE_WARPS = 16

CSV_HEADER = ["dtype", "M", "N", "provider", "gbps"]


# ---------------------------------------------------------------------------
# Arguments, CSV and the table (no GPU needed)
# ---------------------------------------------------------------------------

def parse_dtypes(text):
    dtypes = [d for d in text.split(",") if d]
    unknown = [d for d in dtypes if d not in DTYPES]
    if unknown or not dtypes:
        raise argparse.ArgumentTypeError(f"dtypes are {', '.join(DTYPES)}; got {text!r}")
    return dtypes


def parse_shapes(text):
    shapes = []
    for item in text.split(","):
        try:
            m, n = (int(v) for v in item.lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"a shape is MxN, e.g. 4096x1024; got {item!r}")
        if m <= 0 or n <= 0:
            raise argparse.ArgumentTypeError(f"a shape needs M, N > 0; got {item!r}")
        shapes.append((m, n))
    return shapes


def gbps(m, n, element_bytes, ms):
    """GB/s of a kernel that reads and writes M x N elements in ms milliseconds."""
    return 2 * m * n * element_bytes / (ms * 1e-3) / 1e9


def read_results(path):
    """{(dtype, M, N): {provider: GB/s}} from a CSV with CSV_HEADER's columns; the last row of a
    dtype, shape and provider counts."""
    results = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["dtype"], int(row["M"]), int(row["N"]))
            results.setdefault(key, {})[row["provider"]] = float(row["gbps"])
    return results


def format_csv(results):
    """results as CSV text, in their order."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for (dtype, m, n), providers in results.items():
        for provider, value in providers.items():
            writer.writerow([dtype, m, n, provider, f"{value:.1f}"])
    return text.getvalue()


def write_atomically(path, text):
    """Writes text to path through a temporary file in the same directory renamed over it, so
    that path holds either its old or its new content."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def side_by_side(peers, ours):
    """The table of every dtype and shape of peers (then those only in ours): the providers of
    ours, COPY and PEERS in GB/s, and where ours has a number, the best of ours against the
    best peer, torch, the same-size copy and the 1 GiB copy of peers' YARDSTICK_KEY."""
    yardstick = peers.get(YARDSTICK_KEY, {}).get(COPY)
    keys = [k for k in peers if k != YARDSTICK_KEY] + [k for k in ours if k not in peers]
    ours_names = list(dict.fromkeys(p for values in ours.values() for p in values))
    header = ["dtype", "M", "N"] + ours_names + [COPY, *PEERS]
    if ours_names:
        header += ["ours/best peer", "ours/torch", "% of copy", "% of 1 GiB copy"]
    rows = [header]
    for key in keys:
        values = {**peers.get(key, {}), **ours.get(key, {})}
        row = [key[0], str(key[1]), str(key[2])]
        row += [f"{values[p]:.0f}" if p in values else "-" for p in ours_names + [COPY, *PEERS]]
        if ours_names:
            best = max((values[p] for p in ours_names if p in values), default=None)
            best_peer = max((values[p] for p in PEERS if p in values), default=None)
            row += [
                ratio(best, best_peer, "{:.3f}"),
                ratio(best, values.get("torch"), "{:.3f}"),
                ratio(best, values.get(COPY), "{:.1%}"),
                ratio(best, yardstick, "{:.0%}"),
            ]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(r, widths)) for r in rows)


def ratio(numerator, denominator, form):
    return form.format(numerator / denominator) if numerator and denominator else "-"


def note(text):
    print(f"# {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Peers (torch and triton are imported by import_gpu_modules)
# ---------------------------------------------------------------------------

torch = triton = tl = None


def import_gpu_modules():
    """Imports torch and Triton as module globals: only after the arguments are parsed, so that
    --help and argument errors work on a host without them."""
    global torch, triton, tl
    import torch
    import triton
    import triton.language as tl


def triton_kernels():
    """The two Triton kernels (defined here because they need triton imported)."""

    @triton.jit
    def fused_softmax(y_ptr, x_ptr, x_stride, y_stride, n_rows, n_cols,
                      BLOCK: tl.constexpr, STAGES: tl.constexpr):
        # Persistent: program p handles rows p, p + programs, ...; a whole row in registers.
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=STAGES):
            x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
            e = tl.exp(x - tl.max(x, axis=0))
            y = e / tl.sum(e, axis=0)
            tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def online_softmax(y_ptr, x_ptr, x_stride, y_stride, n_cols, TILE: tl.constexpr):
        # One program per row. Pass 1: per lane, a running max m and sum s of exp(x - m).
        x_ptr += tl.program_id(0) * x_stride
        y_ptr += tl.program_id(0) * y_stride
        m = tl.full([TILE], -float("inf"), tl.float32)
        s = tl.zeros([TILE], tl.float32)
        for start in range(0, n_cols, TILE):
            cols = start + tl.arange(0, TILE)
            inside = cols < n_cols
            x = tl.load(x_ptr + cols, mask=inside, other=-float("inf")).to(tl.float32)
            m_new = tl.maximum(m, x)
            # A lane that has seen no element yet has m_new = -inf and s = 0.
            s = s * tl.exp(tl.where(m_new == -float("inf"), 0.0, m - m_new))
            s += tl.where(inside, tl.exp(x - m_new), 0.0)
            m = m_new
        row_max = tl.max(m, axis=0)
        row_sum = tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
        # Pass 2: read the row again and write it normalized.
        for start in range(0, n_cols, TILE):
            cols = start + tl.arange(0, TILE)
            inside = cols < n_cols
            x = tl.load(x_ptr + cols, mask=inside, other=-float("inf")).to(tl.float32)
            y = tl.exp(x - row_max) / row_sum
            tl.store(y_ptr + cols, y.to(y_ptr.dtype.element_ty), mask=inside)

    return fused_softmax, online_softmax


class Skip(Exception):
    """A provider does not run this shape by design."""


def prepare_copy(x):
    y = torch.empty_like(x)
    return lambda: y.copy_(x)


def prepare_torch(x):
    return lambda: torch.softmax(x, dim=-1)


def prepare_triton_fused(kernel, device, x):
    m, n = x.shape
    block = triton.next_power_of_2(n)
    if block * x.element_size() > MAX_FUSED_ROW_BYTES:
        raise Skip(f"BLOCK={block} holds more than {MAX_FUSED_ROW_BYTES // 1024} KiB per row")
    warps = 4 if block <= 1024 else 8 if block <= 4096 else 16
    y = torch.empty_like(x)
    args = (y, x, x.stride(0), y.stride(0), m, n)
    # As in Triton's tutorial: compile once, then size the persistent grid from the kernel's
    # registers and shared memory.
    compiled = kernel.warmup(*args, BLOCK=block, STAGES=FUSED_STAGES, num_warps=warps, grid=(1,))
    compiled._init_handles()
    per_sm = device["max_num_regs"] // (max(compiled.n_regs, 1) * device["warpSize"] * warps)
    if compiled.metadata.shared:
        per_sm = min(per_sm, device["max_shared_mem"] // compiled.metadata.shared)
    grid = (min(m, device["multiprocessor_count"] * max(per_sm, 1)),)

    def launch():
        kernel[grid](*args, BLOCK=block, STAGES=FUSED_STAGES, num_warps=warps)
        return y

    return launch


def prepare_triton_online(kernel, x):
    m, n = x.shape
    y = torch.empty_like(x)
    tile = min(ONLINE_TILE, triton.next_power_of_2(n))

    def launch():
        kernel[(m,)](y, x, x.stride(0), y.stride(0), n, TILE=tile, num_warps=ONLINE_WARPS)
        return y

    return launch


def providers():
    """{name: prepare(x)} for COPY and PEERS; prepare returns a function that launches the
    provider on x and returns its output, or raises Skip."""
    fused, online = triton_kernels()
    device = triton.runtime.driver.active.utils.get_device_properties(torch.cuda.current_device())
    return {
        COPY: prepare_copy,
        "torch": prepare_torch,
        "triton_fused": lambda x: prepare_triton_fused(fused, device, x),
        "triton_online": lambda x: prepare_triton_online(online, x),
    }


def time_ms(launch):
    return triton.testing.do_bench(launch, return_mode="median")


def measure_yardstick():
    x = torch.empty(YARDSTICK_BYTES // 4, dtype=torch.float32, device="cuda")
    return gbps(1, YARDSTICK_BYTES, 1, time_ms(prepare_copy(x)))


def check(name, dtype, shape, y, reference):
    error = relative_l2(y.float(), reference)
    if not passes(dtype, error):
        note(f"WARNING: {name} {dtype} {shape}: relative L2 error {error:.3g} against "
             f"torch.softmax in float32 (tolerance {TOLERANCE[dtype]:g})")


def measure_shape(prepares, dtype, m, n):
    """{provider: GB/s} for one dtype and shape."""
    torch_dtype = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    x = torch.randn(m, n, device="cuda", dtype=torch_dtype)
    reference = torch.softmax(x.float(), dim=-1)
    shape = f"{m}x{n}"
    results = {}
    for name, prepare in prepares.items():
        try:
            launch = prepare(x)
            if name != COPY:
                check(name, dtype, shape, launch(), reference)
            results[name] = gbps(m, n, ELEMENT_BYTES[dtype], time_ms(launch))
        except Skip as skip:
            note(f"{name} {dtype} {shape}: skipped, {skip}")
        except Exception as error:  # a peer that cannot run a shape has no number there
            message = str(error).strip().splitlines()
            note(f"{name} {dtype} {shape}: {type(error).__name__}" + (f": {message[0]}" if message else ""))
    return results


def measure(dtypes, shapes, out):
    """Measures the yardstick and every provider at every dtype and shape; rewrites out (if
    any) after each shape. Returns {(dtype, M, N): {provider: GB/s}}, YARDSTICK_KEY first."""
    torch.manual_seed(0)
    yardstick = measure_yardstick()
    print(f"1 GiB device copy: {yardstick:.0f} GB/s (yardstick)", flush=True)
    results = {YARDSTICK_KEY: {COPY: yardstick}}
    prepares = providers()
    for dtype in dtypes:
        for m, n in shapes:
            results[(dtype, m, n)] = measure_shape(prepares, dtype, m, n)
            if out:
                write_atomically(out, format_csv(results))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dtype", type=parse_dtypes, default="f32,bf16",
                        help="comma-separated dtypes: f32, bf16, f16 (default: f32,bf16)")
    parser.add_argument("--shapes", type=parse_shapes,
                        default=",".join(f"{m}x{n}" for m, n in STANDARD_SHAPES),
                        help="comma-separated MxN shapes (default: the 15 standard shapes)")
    parser.add_argument("--ours", metavar="FILE",
                        help="the project's CSV (dtype,M,N,provider,gbps) to compare")
    parser.add_argument("--out", metavar="FILE",
                        help="write the peers' CSV here (default: stdout)")
    args = parser.parse_args()
    ours = read_results(args.ours) if args.ours else {}

    import_gpu_modules()
    results = measure(args.dtype, args.shapes, args.out)
    if not args.out:
        sys.stdout.write(format_csv(results))
    print()
    print(side_by_side(results, ours))


if __name__ == "__main__":
    main()
