"""Engine benchmark: melee attack sequences per second (a Timber Wolf bites; setup included).

1. bare melee: every reveal window polled, nothing hidden (nothing to reveal);
2. the same against a defender carrying three hidden enchantments (every window
   offers them to their controller, who passes);
3. an armored defender with traits (Iron Golem), an armor bonus (Rhino Hide) and a
   damage barrier (Circle of Lightning) that attacks back: two attack sequences.

Run: python benchmarks/bench_engine.py [--seconds N] [--baseline REF [--rounds K]]

With --baseline, the same cases also run on another commit (checked out into a temporary git
worktree): each tree in its own long-lived process, the two alternating in slices of a quarter of a
CPU second (benchmarks/sidebyside.py, `paired`), and the median of the slices' ratios is printed with
its quartiles: the side-by-side comparison a performance claim needs.  Rates are per CPU second of
the benchmark process (time.process_time), and a slow drift in a shared machine's speed hits both
halves of a pair alike.  --rounds K repeats the whole comparison K times (K ratios per case).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the tree whose engine is measured: this one, or a baseline checkout (side-by-side runs)
TREE = Path(os.environ.get("MAGEWARS_BENCH_TREE", ROOT))
sys.path.insert(0, str(TREE))

from magewars.dsl import compile_paths  # noqa: E402
from magewars.dsl.model import Corpus  # noqa: E402
from magewars.engine import FirstLegalAgent, Game, SeededDice  # noqa: E402
from magewars.scenario.runner import base_corpus  # noqa: E402

CARDS = TREE / "tests" / "engine" / "cards"


def corpus() -> Corpus:
    base = base_corpus()
    extra, _ = compile_paths([CARDS])
    return Corpus({**base.cards, **extra.cards}, dict(base.codex))


def make_game(c: Corpus, seed: int, case: str):
    g = Game(c, SeededDice(seed), FirstLegalAgent())
    g.state.add_player("A", mana=100)
    g.state.add_player("B", mana=100)
    a = g.create("Timber Wolf", "a", "A", zone="B2")
    if case == "armored":
        d = g.create("Iron Golem", "d", "B", zone="B2")
        g.create("Rhino Hide", "e0", "B", attached_to="d")
        g.create("Circle of Lightning", "e1", "B", attached_to="d")
        return g, a, d
    d = g.create("Test Dummy", "d", "B", zone="B2")
    if case == "hidden":
        for i, name in enumerate(["Bear Strength", "Rhino Hide", "Bull Endurance"]):
            g.create(name, f"h{i}", "B", attached_to="d", hidden=True)
    return g, a, d


def bench(c: Corpus, case: str, seconds: float) -> tuple[int, float, int]:
    n = 0
    windows = 0
    # CPU time of this process: other work on a shared machine does not count against either tree
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        g, a, d = make_game(c, n, case)
        g.attacks.make_attack(a, "Bite", [d])
        windows += g.reveals.windows
        n += 1
    dt = time.process_time() - t0
    return n, dt, windows


CASES = (("melee attack, all windows polled, nothing hidden", "bare"),
         ("melee attack vs defender with 3 hidden enchantments", "hidden"),
         ("armored defender, traits, armor bonus, damage barrier", "armored"))


def worker(seconds: float) -> None:
    c = corpus()
    bench(c, "bare", min(0.5, seconds))  # warm-up
    rates = []
    for _, case in CASES:
        n, dt, _w = bench(c, case, seconds)
        rates.append(n / dt)
    print(json.dumps(rates))


def serve() -> None:
    """Long-lived worker for sidebyside.paired: runs "CASE N" requests on this process's tree."""
    from sidebyside import serve as serve_requests
    c = corpus()

    def run_case(case: str, n: int) -> None:
        for i in range(n):
            g, a, d = make_game(c, i, case)
            g.attacks.make_attack(a, "Bite", [d])

    serve_requests(run_case)


def side_by_side(ref: str, seconds: float, rounds: int) -> int:
    from sidebyside import paired
    print(f"engine benchmark, side by side with {ref}: {rounds} comparison(s), {seconds:.0f}s of CPU per case "
          f"and tree in alternating slices (sequences/s, medians; Python {sys.version.split()[0]})")
    for r in range(rounds):
        got = paired(Path(__file__), ref, [case for _, case in CASES], seconds)
        for label, case in CASES:
            a, b, ratio, (q1, q3), pairs = got[case]
            print(f"  {label:55s} {a:8.0f} vs {b:8.0f}   ratio {ratio:5.2f}x "
                  f"(quartiles {q1:.2f}-{q3:.2f}, {pairs} pairs)")
    return 0


def side_by_side_processes(ref: str, seconds: float, rounds: int) -> int:
    """The former comparison: one process per tree, case and round (kept for --separate)."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), ref], check=True)
        try:
            trees = {"this tree": ROOT, f"baseline {ref}": base}
            rates = {k: [] for k in trees}
            for r in range(rounds):
                for label, tree in trees.items():
                    env = dict(os.environ, MAGEWARS_BENCH_TREE=str(tree), MAGEWARS_NO_CACHE="1")
                    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker",
                                          "--seconds", str(seconds)],
                                         capture_output=True, text=True, cwd=tree, env=env, check=True)
                    rates[label].append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(f"engine benchmark, side by side: {rounds} alternating rounds of {seconds:.0f}s per case "
                  f"(medians, sequences/s; Python {sys.version.split()[0]})")
            now, then = list(trees)
            for i, (label, _) in enumerate(CASES):
                a = statistics.median(x[i] for x in rates[now])
                b = statistics.median(x[i] for x in rates[then])
                print(f"  {label:55s} {a:8.0f} vs {b:8.0f}   ratio {a / b:5.2f}x")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--baseline", help="a git commit to compare with, side by side (e.g. HEAD~5)")
    ap.add_argument("--rounds", type=int, default=None,
                    help="with --baseline: comparisons to make (default 1; 3 with --separate)")
    ap.add_argument("--separate", action="store_true",
                    help="with --baseline: a new process per tree and round instead of alternating slices")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.seconds)
        return 0
    if args.serve:
        serve()
        return 0
    if args.baseline:
        run = side_by_side_processes if args.separate else side_by_side
        return run(args.baseline, args.seconds, args.rounds or (3 if args.separate else 1))
    c = corpus()
    print(f"magewars engine benchmark ({args.seconds:.0f}s per case; Python {sys.version.split()[0]})")
    for label, case in CASES:
        n, dt, windows = bench(c, case, args.seconds)
        print(f"  {label:55s} {n / dt:9.0f} sequences/s   "
              f"({windows / n:.0f} windows per sequence, {1e6 * dt / n:.0f} µs each, incl. setup)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
