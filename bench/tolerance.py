"""The relative L2 part of the check rule of blk's runtime, for bench/
scripts that check outputs themselves: an output passes when its relative
L2 error against a reference is at most the tolerance of its element type
(blk::runtime::getCheckTolerance(...).relativeL2 and ErrorStats::passes,
lib/Runtime/Numerics.cpp), or, for "tf32", of an f32 output of a product
that takes its inputs as tf32 (getTf32CheckTolerance). softmax-run's
--check also bounds each element (ErrorStats::maxElementError); these
scripts do not.
test/Bench/tolerance.mlir fails if the two disagree.

    python3 bench/tolerance.py    # prints "DTYPE TOLERANCE" lines
"""

TOLERANCE = {"f32": 1e-5, "bf16": 1e-2, "f16": 1e-2, "tf32": 1e-4}


def relative_l2(got, want):
    """||got - want|| / ||want|| over float tensors or arrays of one shape
    (torch or numpy: anything with ** and .sum())."""
    return float(((got - want) ** 2).sum() ** 0.5 / (want ** 2).sum() ** 0.5)


def passes(dtype, error):
    """The runtime's rule; a NaN error fails."""
    return error <= TOLERANCE[dtype]


if __name__ == "__main__":
    for dtype, tolerance in TOLERANCE.items():
        print(dtype, tolerance)
