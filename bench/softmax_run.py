"""Running softmax-run from a bench/ script: one --json run, what its
facts say about compilation, and the table row of a checked run
(bench/matmul.py, bench/attention.py, bench/attention_backward.py)."""
import json
import subprocess

from tolerance import passes


def run_json(command):
    """Runs softmax-run's `command` (with --json): (facts, None), or (None,
    why) where it failed or printed no facts."""
    done = subprocess.run(command, capture_output=True, text=True)
    try:
        facts = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None, (done.stderr.strip().splitlines() or ["no output"])[-1]
    if not facts.get("ok"):
        return None, facts.get("error", "failed")
    return facts, None


def compile_note(facts):
    """The binding, and how the kernel was compiled: cold, or from the
    kernel cache."""
    times = facts["compile"]
    how = "cache hit" if times["cache_hit"] else "compiled"
    return (f"{facts['binding']}; {how} "
            f"{times['lookup_ms'] + times['compile_ms']:.0f} ms + load "
            f"{times['load_ms']:.0f} ms")


def blk_row(label, dtype, ms, error, facts):
    """The row of a blk run that gave (ms, error, facts), or (None, why,
    None): timed where its error passes softmax-run's rule for `dtype`,
    WRONG and untimed where it does not."""
    if ms is None:
        return (label, None, error)
    if not passes(dtype, error):
        return (label, None, f"WRONG: rel_l2 {error:.1e}")
    return (label, ms, f"rel_l2 {error:.1e}; " + compile_note(facts))
