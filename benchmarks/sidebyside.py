"""Side-by-side runs for the benchmarks: this tree against another commit, in one run.

`runs(script, ref, rounds, worker_args)` checks `ref` out into a temporary git worktree, then runs
`script --worker WORKER_ARGS` once per round in each tree, alternating the trees round by round, each
in its own process (MAGEWARS_BENCH_TREE names the tree whose `magewars` is imported).  A worker prints
one JSON value on its last line; `runs` returns them by tree.  `compare` is the common case: each
worker prints a list of rates, and the medians of each tree and their ratio are printed, so the
figure a performance claim needs comes from one run on one machine.  Rates are per CPU second of the
worker (time.process_time): other load on a shared machine skews neither tree.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parents[1]


def tree() -> Path:
    """The tree a worker measures: this one, or the baseline checkout it was started in."""
    return Path(os.environ.get("MAGEWARS_BENCH_TREE", ROOT))


def runs(script: Path, ref: str, rounds: int, worker_args: Sequence[str], cache: bool = False) -> dict:
    """Run `script --worker WORKER_ARGS` in this tree and at `ref`, alternately, `rounds` times each;
    returns {"this tree": [...], "baseline REF": [...]}: what each worker printed on its last line, as
    JSON.  `cache`: the workers may read and write the compiled-corpus cache (otherwise each compiles)."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), ref], check=True)
        try:
            trees = {"this tree": ROOT, f"baseline {ref}": base}
            got: dict = {k: [] for k in trees}
            for _ in range(rounds):
                for label, where in trees.items():
                    env = dict(os.environ, MAGEWARS_BENCH_TREE=str(where))
                    if not cache:
                        env["MAGEWARS_NO_CACHE"] = "1"
                    # the script runs from this tree (the baseline may not have it); it imports the other
                    done = subprocess.run([sys.executable, str(Path(script).resolve()), "--worker", *worker_args],
                                          capture_output=True, text=True, cwd=where, env=env)
                    if done.returncode != 0:
                        raise SystemExit(f"worker failed in {label}:\n{done.stderr[-2000:]}")
                    got[label].append(json.loads(done.stdout.strip().splitlines()[-1]))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    return got


def compare(script: Path, ref: str, rounds: int, worker_args: Sequence[str], labels: Sequence[str],
            unit: str = "per s", title: str = "") -> dict:
    """Run the worker of `script` in this tree and at `ref`, alternately (`runs`); print medians and ratios
    of the rates it prints (a JSON list, one per label).  Returns {label: (this tree's median, baseline's)}."""
    rates = runs(script, ref, rounds, worker_args)
    now, then = list(rates)
    print(f"{title or Path(script).name}, side by side with {ref}: {rounds} alternating round(s) "
          f"(medians, {unit}; Python {sys.version.split()[0]})")
    out: dict = {}
    for i, label in enumerate(labels):
        a = statistics.median(x[i] for x in rates[now])
        b = statistics.median(x[i] for x in rates[then])
        out[label] = (a, b)
        print(f"  {label:55s} {a:9.2f} vs {b:9.2f}   ratio {a / b:5.2f}x")
    return out
