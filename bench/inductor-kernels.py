#!/usr/bin/env python3
"""What torch.compile runs for one kernel of the row-wise family: Inductor's
generated Triton source and the PTX of every kernel it compiled, written
to a folder, so that the peer bench/rowwise.py measures can be read (its
launch shape, its loops, and with ptxas -v its registers).

  bench/inductor-kernels.py layer_norm bf16 4096x8192 OUT_DIR

The function is bench/rowwise.py's own (the same torch.compile, dynamic=
False), compiled once and run once with a fresh Triton cache in
OUT_DIR/triton-cache; OUT_DIR/output_code.py is Inductor's module (the
Triton source, its heuristics and launch grid), OUT_DIR/*.ptx the PTX."""

import argparse
import glob
import os
import shutil
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kernel")
    parser.add_argument("dtype")
    parser.add_argument("shape", help="MxN")
    parser.add_argument("out_dir")
    args = parser.parse_args()
    m, n = (int(v) for v in args.shape.split("x"))
    out = os.path.abspath(args.out_dir)
    os.makedirs(out, exist_ok=True)
    # Both must be set before torch and triton are imported.
    os.environ["TRITON_CACHE_DIR"] = os.path.join(out, "triton-cache")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(out, "inductor")
    import torch
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import rowwise
    from torch._inductor import config
    config.debug = False
    launch = rowwise.torch_launcher(args.kernel, args.dtype, m, n,
                                    compiled=True)
    launch()
    torch.cuda.synchronize()
    sources = glob.glob(os.path.join(out, "inductor", "**", "*.py"),
                        recursive=True)
    for source in sources:
        if "triton_" in open(source).read():
            shutil.copy(source, os.path.join(out, "output_code-%s" %
                                             os.path.basename(source)))
    # Inductor times a reduction's candidate configs on its first call and
    # keeps the winner beside the kernel's source (.best_config).
    for best in glob.glob(os.path.join(out, "inductor", "**",
                                       "*.best_config"), recursive=True):
        shutil.copy(best, out)
    for ptx in glob.glob(os.path.join(out, "triton-cache", "**", "*.ptx"),
                         recursive=True):
        shutil.copy(ptx, out)
    for meta in glob.glob(os.path.join(out, "triton-cache", "**", "*.json"),
                          recursive=True):
        if not os.path.basename(meta).startswith("__grp__"):
            shutil.copy(meta, out)
    shutil.rmtree(os.path.join(out, "triton-cache"), ignore_errors=True)
    shutil.rmtree(os.path.join(out, "inductor"), ignore_errors=True)
    print("\n".join(sorted(os.listdir(out))))


if __name__ == "__main__":
    main()
