#!/usr/bin/env python3
"""Fused attention forward, O = softmax(Q K^T scale) V, on the GPU: blk's
block program (python-free-examples/attention_fwd.mlir, run by softmax-run
--json --bench) against torch's scaled_dot_product_attention with the flash
backend (FlashAttention-2) and the cuDNN backend, and a Triton kernel
written here (the textbook FlashAttention-2 forward: 128-row query tiles,
64-key tiles, online softmax in exp2), in TFLOP/s (4 B H S^2 D flops over
the median time, half that when causal) and in percent of the flash
backend's time.

    python3 bench/attention.py --binary bin/softmax-run \
        --shapes 4x16x4096x128,8x16x2048x64 --causal 0,1 [--odd]

Shapes are B x H x S x D (batch, heads, sequence, head dim; Q, K, V and O
are [B, H, S, D]); by default the issue's classes, head dim 64 and 128 at
sequence 1024 to 16384 with B H S = 16384 * 16 tokens. --odd adds
sequences that are no multiple of the tiles (1000, 4097) with few heads,
for the masks' sake. Each shape runs blk as a user would, with the binding
the rules choose (compiled cold, then again from the kernel cache); --chips
adds the rules' binding for other chips (sm_80).

Every provider is checked: its O against torch's SDPA with the math backend
in float32 on the same 16-bit inputs (computed once per shape and mask on
the GPU, a few heads at a time when the score matrix is large), by
softmax-run's rule (bench/tolerance.py: relative L2 error at most the
dtype's tolerance); one that fails gets a "WRONG: rel_l2" note and no time,
one that raises (a backend with no kernel for the shape) its error. blk's
inputs and output go through .npy files (float32, [B, H, S, D]). Timings
are triton.testing.do_bench's for torch and Triton (which clears L2 before
each launch) and softmax-run's for blk (L2 flushed before each launch).
"""
import argparse
import math
import os
import shlex
import sys
import tempfile

import numpy

from softmax_run import blk_row, run_json
from tolerance import passes, relative_l2

# The default shapes: B H S = TOKENS at every sequence length, with H = 32
# heads of 64 and H = 16 heads of 128 (fewer where S leaves too few tokens).
TOKENS = 16384 * 16
SEQUENCES = (1024, 2048, 4096, 8192, 16384)
HEADS = {64: 32, 128: 16}
# --odd's shapes: sequences past a tile boundary, for correctness.
ODD_SHAPES = [(2, 4, 1000, 64), (2, 4, 1000, 128),
              (1, 4, 4097, 64), (1, 4, 4097, 128)]
# The Triton kernel's tiles by head dim: BLOCK_M, BLOCK_N, warps, stages.
TRITON_TILES = {64: (128, 64, 4, 3), 128: (128, 64, 8, 2)}
# The float32 reference's score matrix in one SDPA call, at most.
REFERENCE_BYTES = 4 << 30


def default_shapes():
    """The issue's classes: head dim 64 and 128, S of SEQUENCES, B H S =
    TOKENS."""
    shapes = []
    for d, heads in HEADS.items():
        for s in SEQUENCES:
            h = min(heads, TOKENS // s)
            shapes.append((TOKENS // s // h, h, s, d))
    return shapes


def parse_shapes(text):
    """'4x16x4096x128,8x16x2048x64' (B x H x S x D)."""
    shapes = []
    for item in text.split(","):
        dims = tuple(int(d) for d in item.split("x"))
        if len(dims) != 4:
            raise SystemExit(f"--shapes: {item!r} is not B x H x S x D")
        shapes.append(dims)
    return shapes


def first_line(error):
    """An exception's first line, fit for a CSV note (no commas)."""
    text = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return text.replace(",", ";")


def reference(q, k, v, scale, causal):
    """softmax(Q K^T scale) V by SDPA's math backend in float32 on the 16-bit
    inputs: float32 [B, H, S, D] on the GPU, computed a few (batch, head)
    pairs at a time so that no call's scores pass REFERENCE_BYTES."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    b, h, s, d = q.shape
    step = max(1, REFERENCE_BYTES // (s * s * 4))
    attention = torch.nn.functional.scaled_dot_product_attention
    flat = [t.reshape(b * h, s, d) for t in (q, k, v)]
    out = torch.empty(b * h, s, d, device=q.device, dtype=torch.float32)
    with sdpa_kernel(SDPBackend.MATH):
        for at in range(0, b * h, step):
            x, y, z = (t[at:at + step].float() for t in flat)
            out[at:at + step] = attention(x, y, z, is_causal=causal,
                                          scale=scale)
    return out.reshape(b, h, s, d)


def sdpa_row(name, backend, dtype, q, k, v, scale, causal, want):
    """(name, ms, note) of torch's SDPA restricted to one backend (a
    SDPBackend name), checked and timed under that restriction."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(getattr(SDPBackend, backend)):
        return torch_row(
            name, dtype,
            lambda: torch.nn.functional.scaled_dot_product_attention(
                q, k, v, is_causal=causal, scale=scale), want)


def torch_row(name, dtype, launch, want):
    """(name, ms, note) of a torch or Triton provider: `launch` returns O,
    checked against `want` before do_bench times it; a launch that raises
    gets its error as the note."""
    import torch
    from triton.testing import do_bench
    try:
        got = launch()
        torch.cuda.synchronize()
        error = relative_l2(got.float(), want)
        if not passes(dtype, error):
            return name, None, f"WRONG: rel_l2 {error:.1e}"
        return name, do_bench(launch), f"rel_l2 {error:.1e}"
    except Exception as failure:  # no kernel for the shape, or a bad launch
        return name, None, first_line(failure)


def triton_attention():
    """The Triton provider: run(q, k, v, o, lse, scale, causal) writes O and
    the rows' natural-log logsumexp (lse, float32 [B H, S])."""
    import triton
    import triton.language as tl

    @triton.jit
    def attend(acc, l_i, m_i, x, k_ptrs, v_ptrs, sks, svs, rows, lo, hi, S,
               qk_scale, BLOCK_N: tl.constexpr, MASKED: tl.constexpr,
               CAUSAL: tl.constexpr):
        # Key tiles [lo, hi) into the running (acc, l_i, m_i), in log2
        # units; MASKED tiles drop keys past S and, if CAUSAL, past the row.
        cols = tl.arange(0, BLOCK_N)
        for start in range(lo, hi, BLOCK_N):
            n = start + cols
            if MASKED:
                kt = tl.load(k_ptrs + start * sks, mask=n[:, None] < S,
                             other=0.0)
            else:
                kt = tl.load(k_ptrs + start * sks)
            s = tl.dot(x, tl.trans(kt)) * qk_scale
            if MASKED:
                keep = n[None, :] < S
                if CAUSAL:
                    keep = keep & (n[None, :] <= rows[:, None])
                s = tl.where(keep, s, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, 1))
            p = tl.math.exp2(s - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            if MASKED:
                vt = tl.load(v_ptrs + start * svs, mask=n[:, None] < S,
                             other=0.0)
            else:
                vt = tl.load(v_ptrs + start * svs)
            acc = acc * alpha[:, None] + tl.dot(p.to(vt.dtype), vt)
            m_i = m_new
        return acc, l_i, m_i

    @triton.jit
    def kernel(q, k, v, o, lse, qk_scale, H, S,
               sqb, sqh, sqs, sqd, skb, skh, sks, skd,
               svb, svh, svs, svd, sob, soh, sos, sod,
               D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               CAUSAL: tl.constexpr):
        start_m = tl.program_id(0)
        bh = tl.program_id(1)
        b = bh // H
        h = bh % H
        rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
        cols = tl.arange(0, BLOCK_N)
        dims = tl.arange(0, D)
        x = tl.load(q + b * sqb + h * sqh + rows[:, None] * sqs
                    + dims[None, :] * sqd, mask=rows[:, None] < S, other=0.0)
        k_ptrs = (k + b * skb + h * skh + cols[:, None] * sks
                  + dims[None, :] * skd)
        v_ptrs = (v + b * svb + h * svh + cols[:, None] * svs
                  + dims[None, :] * svd)
        acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
        l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
        m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
        if CAUSAL:  # whole tiles left of the diagonal, then the diagonal's
            lo = start_m * BLOCK_M
            hi = tl.minimum(lo + BLOCK_M, S)
        else:  # whole tiles, then the partial one at S
            lo = S // BLOCK_N * BLOCK_N
            hi = S
        acc, l_i, m_i = attend(acc, l_i, m_i, x, k_ptrs, v_ptrs, sks, svs,
                               rows, 0, lo, S, qk_scale, BLOCK_N, False,
                               CAUSAL)
        acc, l_i, m_i = attend(acc, l_i, m_i, x, k_ptrs, v_ptrs, sks, svs,
                               rows, lo, hi, S, qk_scale, BLOCK_N, True,
                               CAUSAL)
        tl.store(lse + bh * S + rows,
                 (m_i + tl.math.log2(l_i)) * 0.6931471805599453,
                 mask=rows < S)
        tl.store(o + b * sob + h * soh + rows[:, None] * sos
                 + dims[None, :] * sod,
                 (acc / l_i[:, None]).to(o.dtype.element_ty),
                 mask=rows[:, None] < S)

    def run(q, k, v, o, lse, scale, causal):
        b, h, s, d = q.shape
        block_m, block_n, warps, stages = TRITON_TILES.get(d, (64, 64, 4, 2))
        assert block_m % block_n == 0  # the causal diagonal starts a tile
        grid = (triton.cdiv(s, block_m), b * h)
        kernel[grid](q, k, v, o, lse, scale * math.log2(math.e), h, s,
                     *q.stride(), *k.stride(), *v.stride(), *o.stride(),
                     D=d, BLOCK_M=block_m, BLOCK_N=block_n,
                     CAUSAL=bool(causal), num_warps=warps, num_stages=stages)
        return o
    return run


def blk_run(binary, program, files, shape, causal, scale, dtype, want,
            extra=()):
    """softmax-run on the inputs in `files` (q.npy, k.npy, v.npy) with the
    kernel cache in `files`/cache (empty at the first run of a binding: a
    cold compile): (ms, rel_l2 against `want`, facts), or (None, why,
    None)."""
    import torch
    b, h, s, d = shape
    out = os.path.join(files, "o.npy")
    command = [binary, program, "--target", "gpu", "--dtype", dtype,
               "--batch", str(b), "--heads", str(h), "--rows", str(s),
               "--inner", str(s), "--cols", str(d),
               "--const", f"CAUSAL={int(causal)}",
               "--param", f"scale={scale!r}",
               "--input", "q=" + os.path.join(files, "q.npy"),
               "--input", "k=" + os.path.join(files, "k.npy"),
               "--input", "v=" + os.path.join(files, "v.npy"),
               "--output", "o=" + out, "--bench", "--json",
               "--cache-dir", os.path.join(files, "cache"), *extra]
    facts, error = run_json(command)
    if facts is None:
        return None, error, None
    got = torch.from_numpy(numpy.load(out)).to(want.device)
    return facts["bench"]["ms"], relative_l2(got, want), facts


def blk_runs(args):
    """The blk runs of one shape: (label, softmax-run's extra flags)."""
    common = tuple(shlex.split(args.blk_flags))
    runs = [("blk rules", common), ("blk rules again", common)]
    runs += [("blk rules " + chip, common + ("--chip", chip))
             for chip in args.chips.split(",") if chip]
    return runs


def blk_rows(args, dtype, run):
    """The rows of blk's runs of one problem (blk_runs): `run(extra)` gives
    (ms, error, facts) or (None, why, None)."""
    return [blk_row(label, dtype, *run(extra))
            for label, extra in blk_runs(args)]


def print_rows(prefix, flops, rows):
    """The CSV rows of one shape and mask, in percent of the flash
    backend's time (and the cuDNN backend's, in the note)."""
    times = {name: ms for name, ms, _ in rows}
    flash, cudnn = times.get("sdpa flash"), times.get("sdpa cudnn")
    for name, ms, note in rows:
        note = note.replace(",", ";")
        if ms is None:
            print(f"{prefix},{name},,,,{note}")
            continue
        percent = f"{100 * flash / ms:.1f}" if flash else ""
        if cudnn and name != "sdpa cudnn":
            note += f"; {100 * cudnn / ms:.1f}% of cudnn"
        print(f"{prefix},{name},{ms:.4f},{flops / ms / 1e9:.1f},{percent},"
              f"{note}")
    sys.stdout.flush()


def parse_arguments(description, program):
    """The command line both attention benchmarks take (this one's and
    bench/attention_backward.py's, whose default program differs)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", default="build/bin/softmax-run")
    parser.add_argument("--program", default=program)
    parser.add_argument("--shapes", default="",
                        help="B x H x S x D, comma-separated (default: head "
                             "dim 64 and 128, S 1024 to 16384, B H S = "
                             f"{TOKENS})")
    parser.add_argument("--causal", default="0,1",
                        help="which masks to run: 0 (none), 1 (causal)")
    parser.add_argument("--odd", action="store_true",
                        help="also sequences no multiple of the tiles "
                             "(1000, 4097) with few heads, for correctness")
    parser.add_argument("--dtypes", default="bf16")
    parser.add_argument("--chips", default="",
                        help="also the rules' binding compiled for these "
                             "chips, e.g. sm_80")
    parser.add_argument("--blk-flags", default="",
                        help="more softmax-run flags for every blk run, "
                             "e.g. '--num-warps 8'")
    return parser.parse_args()


def problems(args):
    """(shapes, masks) of a run, with torch set up for a float32 reference
    and seeded; returns torch's 16-bit types too."""
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False  # a float32 reference
    torch.manual_seed(0)
    shapes = parse_shapes(args.shapes) if args.shapes else default_shapes()
    if args.odd:
        shapes += ODD_SHAPES
    masks = [bool(int(c)) for c in args.causal.split(",") if c]
    torch_types = {"bf16": torch.bfloat16, "f16": torch.float16}
    return shapes, masks, torch_types


def main():
    args = parse_arguments(__doc__.splitlines()[0],
                           "python-free-examples/attention_fwd.mlir")
    import torch
    shapes, masks, torch_types = problems(args)
    tri = triton_attention()
    print("dtype,B,H,S,D,causal,provider,ms,tflops,percent_of_flash,note")
    for dtype in args.dtypes.split(","):
        for b, h, s, d in shapes:
            scale = 1.0 / math.sqrt(d)
            q, k, v = (torch.randn(b, h, s, d, device="cuda",
                                   dtype=torch_types[dtype])
                       for _ in range(3))
            o = torch.empty_like(q)
            lse = torch.empty(b * h, s, device="cuda", dtype=torch.float32)
            with tempfile.TemporaryDirectory() as files:
                for name, t in (("q", q), ("k", k), ("v", v)):
                    numpy.save(os.path.join(files, name + ".npy"),
                               t.float().cpu().numpy())
                for causal in masks:
                    flops = 4.0 * b * h * s * s * d / (2 if causal else 1)
                    want = reference(q, k, v, scale, causal)
                    torch.cuda.empty_cache()  # the reference's scores
                    rows = [sdpa_row(name, backend, dtype, q, k, v, scale,
                                     causal, want)
                            for name, backend in
                            (("sdpa flash", "FLASH_ATTENTION"),
                             ("sdpa cudnn", "CUDNN_ATTENTION"))]
                    rows.append(torch_row(
                        "triton", dtype,
                        lambda: tri(q, k, v, o, lse, scale, causal), want))
                    rows += blk_rows(args, dtype, lambda extra: blk_run(
                        args.binary, args.program, files, (b, h, s, d),
                        causal, scale, dtype, want, extra))
                    print_rows(f"{dtype},{b},{h},{s},{d},{int(causal)}",
                               flops, rows)
                    del want
            del q, k, v, o, lse
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
