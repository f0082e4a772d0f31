"""Running softmax-run from a bench/ script: one --json run and what its
facts say about compilation (bench/matmul.py, bench/attention.py)."""
import json
import subprocess


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
