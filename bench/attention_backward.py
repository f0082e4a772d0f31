#!/usr/bin/env python3
"""Fused attention backward, dQ, dK and dV of O = softmax(Q K^T scale) V, on
the GPU: blk's block program (python-free-examples/attention_bwd.mlir, run
by softmax-run --json --bench) against the backward of torch's
scaled_dot_product_attention with the flash backend (FlashAttention-2) and
the cuDNN backend, in TFLOP/s (10 B H S^2 D flops over the median time:
the five products of FlashAttention's count, 2.5 times the forward's; half
that when causal) and in percent of the flash backend's time.

    python3 bench/attention_backward.py --binary bin/softmax-run \
        --program examples/attention_bwd.mlir \
        --shapes 4x16x4096x128,8x16x2048x64 --causal 0,1 [--odd]

Shapes are B x H x S x D as in bench/attention.py (its default shapes and
--odd's). Every provider gets the same bf16 Q, K, V and dO, and O and the
rows' logsumexp from a float32 forward (O rounded to bf16, lse float32, as
FlashAttention keeps it); blk reads them from .npy files. Every provider's
dQ, dK and dV are checked against the gradients computed in float32 from
the same 16-bit inputs (the scores materialized, a few heads at a time), by
softmax-run's rule (bench/tolerance.py, the worst of the three); one that
fails gets a "WRONG: rel_l2" note and no time, one that raises its error.
Timings: triton.testing.do_bench of torch.autograd.grad on a retained graph
(the backward's kernels only), softmax-run's --bench for blk (its three
kernels, L2 flushed before each launch).
"""
import math
import os
import tempfile

import numpy

from attention import (blk_rows, first_line, parse_arguments, print_rows,
                       problems)
from softmax_run import run_json
from tolerance import passes, relative_l2

# The float32 reference's four score-sized matrices in one step, at most.
REFERENCE_BYTES = 4 << 30


def reference(q, k, v, do, scale, causal):
    """O (rounded to q's type), lse (float32, [B, H, S]) and the float32
    gradients (dq, dk, dv) of the 16-bit inputs, computed a few (batch,
    head) pairs at a time: S = Q K^T scale, P = softmax(S), dV = P^T dO,
    dP = dO V^T, dS = P (dP - rowsum(dP P)), dQ = dS K scale, dK = dS^T Q
    scale."""
    import torch
    b, h, s, d = q.shape
    step = max(1, REFERENCE_BYTES // (s * s * 4 * 4))
    flat = [t.reshape(b * h, s, d) for t in (q, k, v, do)]
    o = torch.empty(b * h, s, d, device=q.device, dtype=q.dtype)
    lse = torch.empty(b * h, s, device=q.device, dtype=torch.float32)
    grads = [torch.empty(b * h, s, d, device=q.device, dtype=torch.float32)
             for _ in range(3)]
    future = torch.ones(s, s, device=q.device, dtype=torch.bool).triu(1)
    for at in range(0, b * h, step):
        x, y, z, g = (t[at:at + step].float() for t in flat)
        scores = x @ y.transpose(1, 2) * scale
        if causal:
            scores.masked_fill_(future, float("-inf"))
        lse[at:at + step] = torch.logsumexp(scores, -1)
        p = torch.softmax(scores, -1)
        del scores
        o[at:at + step] = (p @ z).to(q.dtype)
        grads[2][at:at + step] = p.transpose(1, 2) @ g
        dp = g @ z.transpose(1, 2)
        ds = p * (dp - (dp * p).sum(-1, keepdim=True))
        del p, dp
        grads[0][at:at + step] = ds @ y * scale
        grads[1][at:at + step] = ds.transpose(1, 2) @ x * scale
        del ds
    shape = (b, h, s, d)
    return (o.reshape(shape), lse.reshape(b, h, s),
            [t.reshape(shape) for t in grads])


def worst_error(got, want):
    """The largest relative L2 error of three gradients."""
    return max(relative_l2(x.float(), y) for x, y in zip(got, want))


def sdpa_row(name, backend, dtype, q, k, v, do, scale, causal, want):
    """(name, ms, note) of the backward of torch's SDPA restricted to one
    backend (a SDPBackend name): its forward once, then torch.autograd.grad
    on the retained graph, checked and timed."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from triton.testing import do_bench
    try:
        with sdpa_kernel(getattr(SDPBackend, backend)):
            inputs = [t.detach().requires_grad_() for t in (q, k, v)]
            out = torch.nn.functional.scaled_dot_product_attention(
                *inputs, is_causal=causal, scale=scale)

            def launch():
                return torch.autograd.grad(out, inputs, do,
                                           retain_graph=True)
            error = worst_error(launch(), want)
            if not passes(dtype, error):
                return name, None, f"WRONG: rel_l2 {error:.1e}"
            return name, do_bench(launch), f"rel_l2 {error:.1e}"
    except Exception as failure:  # no kernel for the shape, or a bad launch
        return name, None, first_line(failure)


def blk_run(binary, program, files, shape, causal, scale, dtype, want,
            extra=()):
    """softmax-run on the inputs in `files` with the kernel cache in
    `files`/cache: (ms, worst rel_l2 against `want`, facts), or (None, why,
    None)."""
    import torch
    b, h, s, d = shape
    inputs = [f"{name}={os.path.join(files, name + '.npy')}"
              for name in ("q", "k", "v", "o", "do", "lse")]
    outputs = [os.path.join(files, name + ".npy")
               for name in ("dq", "dk", "dv")]
    command = [binary, program, "--target", "gpu", "--dtype", dtype,
               "--batch", str(b), "--heads", str(h), "--rows", str(s),
               "--inner", str(s), "--cols", str(d),
               "--const", f"CAUSAL={int(causal)}",
               "--param", f"scale={scale!r}", "--bench", "--json",
               "--cache-dir", os.path.join(files, "cache"), *extra]
    for item in inputs:
        command += ["--input", item]
    for name, path in zip(("dq", "dk", "dv"), outputs):
        command += ["--output", f"{name}={path}"]
    facts, error = run_json(command)
    if facts is None:
        return None, error, None
    got = [torch.from_numpy(numpy.load(path)).to(want[0].device)
           for path in outputs]
    return facts["bench"]["ms"], worst_error(got, want), facts


def main():
    args = parse_arguments(__doc__.splitlines()[0],
                           "python-free-examples/attention_bwd.mlir")
    import torch
    shapes, masks, torch_types = problems(args)
    print("dtype,B,H,S,D,causal,provider,ms,tflops,percent_of_flash,note")
    for dtype in args.dtypes.split(","):
        for b, h, s, d in shapes:
            scale = 1.0 / math.sqrt(d)
            q, k, v, do = (torch.randn(b, h, s, d, device="cuda",
                                       dtype=torch_types[dtype])
                           for _ in range(4))
            with tempfile.TemporaryDirectory() as files:
                for name, t in (("q", q), ("k", k), ("v", v), ("do", do)):
                    numpy.save(os.path.join(files, name + ".npy"),
                               t.float().cpu().numpy())
                for causal in masks:
                    flops = 10.0 * b * h * s * s * d / (2 if causal else 1)
                    o, lse, want = reference(q, k, v, do, scale, causal)
                    numpy.save(os.path.join(files, "o.npy"),
                               o.float().cpu().numpy())
                    numpy.save(os.path.join(files, "lse.npy"),
                               lse.cpu().numpy())
                    del o, lse
                    torch.cuda.empty_cache()  # the reference's scores
                    rows = [sdpa_row(name, backend, dtype, q, k, v, do, scale,
                                     causal, want)
                            for name, backend in
                            (("sdpa flash", "FLASH_ATTENTION"),
                             ("sdpa cudnn", "CUDNN_ATTENTION"))]
                    torch.cuda.empty_cache()
                    rows += blk_rows(args, dtype, lambda extra: blk_run(
                        args.binary, args.program, files, (b, h, s, d),
                        causal, scale, dtype, want, extra))
                    print_rows(f"{dtype},{b},{h},{s},{d},{int(causal)}",
                               flops, rows)
                    del want
            del q, k, v, do
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
