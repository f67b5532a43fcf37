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

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator, Sequence

ROOT = Path(__file__).resolve().parents[1]


def tree() -> Path:
    """The tree a worker measures: this one, or the baseline checkout it was started in."""
    return Path(os.environ.get("MAGEWARS_BENCH_TREE", ROOT))


@contextlib.contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """`ref` checked out into a temporary git worktree of this repository, removed again afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), ref], check=True)
        try:
            yield base
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)


def runs(script: Path, ref: str, rounds: int, worker_args: Sequence[str], cache: bool = False) -> dict:
    """Run `script --worker WORKER_ARGS` in this tree and at `ref`, alternately, `rounds` times each;
    returns {"this tree": [...], "baseline REF": [...]}: what each worker printed on its last line, as
    JSON.  `cache`: the workers may read and write the compiled-corpus cache (otherwise each compiles)."""
    with checkout(ref) as base:
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


class Server:
    """A persistent worker: `script --serve` in one tree, asked over a pipe to run a case for a number of
    repetitions; it answers with the CPU seconds they took.  Kept alive for the whole comparison, so the
    two trees can alternate in short slices (`paired`)."""

    def __init__(self, script: Path, where: Path, label: str, cache: bool = False):
        env = dict(os.environ, MAGEWARS_BENCH_TREE=str(where))
        if not cache:
            env["MAGEWARS_NO_CACHE"] = "1"
        self.label = label
        self.proc = subprocess.Popen([sys.executable, str(Path(script).resolve()), "--serve"], cwd=where, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, case: str, n: int) -> float:
        self.proc.stdin.write(f"{case} {n}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"benchmark worker in {self.label} stopped (exit {self.proc.wait()})")
        return float(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


def serve(run_case) -> None:
    """The worker's side of `Server`: read "CASE N" lines, run `run_case(case, n)`, print its CPU seconds."""
    import time
    for line in sys.stdin:
        case, n = line.split()
        t0 = time.process_time()
        run_case(case, int(n))
        print(f"{time.process_time() - t0:.6f}", flush=True)


def paired(script: Path, ref: str, cases: Sequence[str], seconds: float, slice_s: float = 0.25) -> dict:
    """Both trees as persistent workers, alternating in slices of about `slice_s` CPU seconds (ABBA order),
    `seconds` of CPU per case and tree.  Slow drifts of a shared machine's speed hit both trees of a pair
    alike, so the ratio of each pair is a far steadier figure than separate runs: returns, per case,
    (this tree's median rate, the baseline's, the median of the pairs' ratios, its quartiles, pairs)."""
    with checkout(ref) as base:
        a = b = None
        try:
            a = Server(script, ROOT, "this tree")
            b = Server(script, base, f"baseline {ref}")
            out = {}
            for case in cases:
                # size a slice from a first try on each tree (it also warms both up)
                n = 20
                while True:
                    dt = max(a.run(case, n), b.run(case, n))
                    if dt >= slice_s / 4 or n >= 1 << 20:
                        break
                    n *= 4
                n = max(1, int(n * slice_s / max(dt, 1e-6)))
                ra, rb, ratios = [], [], []
                spent = 0.0
                i = 0
                while spent < seconds:
                    first, second = (a, b) if i % 2 == 0 else (b, a)
                    t1 = first.run(case, n)
                    t2 = second.run(case, n)
                    ta, tb = (t1, t2) if first is a else (t2, t1)
                    ra.append(n / ta)
                    rb.append(n / tb)
                    ratios.append(tb / ta)
                    spent += max(ta, tb)
                    i += 1
                q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
                out[case] = (statistics.median(ra), statistics.median(rb), statistics.median(ratios),
                             (q[0], q[2]), len(ratios))
        finally:
            for s in (a, b):
                if s is not None:
                    s.close()
    return out
