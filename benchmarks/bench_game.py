"""Whole-game benchmark: seeded games between shipped spellbooks, round by round.

Plays the same seeded games (random agents) and reports, side by side in one run:

* rounds per second and games per minute;
* the share of the time each phase of the round takes (engine/round.py ROUND_PHASES), so a phase
  that grows out of proportion shows as a ratio, not as a raw time that depends on the machine;
* the share of the time spent computing derived values (the continuous-effects layer).

Run: python benchmarks/bench_game.py [--games N] [--rounds R] [--books a,b]
     python benchmarks/bench_game.py --baseline REF [--repeat K] [--games N] [--rounds R]

With --baseline, the same games are played in this tree and at commit REF, alternating the trees
K times in separate processes (benchmarks/sidebyside.py): rounds per CPU second, and the ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the tree whose engine is measured: this one, or a baseline checkout (--baseline: side by side)
sys.path.insert(0, os.environ.get("MAGEWARS_BENCH_TREE", str(ROOT)))

from magewars.dsl import load_corpus  # noqa: E402
from magewars.engine import round as R  # noqa: E402
from magewars.engine.decisions import RandomAgent  # noqa: E402
from magewars.engine.effects import Effects  # noqa: E402
from magewars.engine.match import start_game  # noqa: E402
from magewars.spellbook import load_spellbook  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--books", default="wizard,warlord")
    ap.add_argument("--baseline", help="a git commit to compare with, side by side")
    ap.add_argument("--repeat", type=int, default=3, help="alternating rounds of a side-by-side run")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.baseline:
        from sidebyside import compare
        compare(Path(__file__), args.baseline, args.repeat,
                ["--games", str(args.games), "--rounds", str(args.rounds), "--books", args.books],
                ["game rounds per CPU second"], unit="per CPU s",
                title=f"{args.games} seeded games of {args.books.replace(',', ' vs ')} (at most {args.rounds} rounds)")
        return
    corpus = load_corpus()
    names = args.books.split(",")
    books = [load_spellbook(n, corpus) for n in names]
    if args.worker:  # rounds per CPU second only (what --baseline compares)
        rounds = 0
        t0 = time.process_time()
        for seed in range(args.games):
            g = start_game(corpus, books, seed, {"P1": RandomAgent(seed), "P2": RandomAgent(seed + 1000)})
            rounds += g.play(max_rounds=args.rounds).rounds
        print(json.dumps([rounds / (time.process_time() - t0)]))
        return

    per_phase: dict = defaultdict(float)
    derived = [0.0]
    real_compute = Effects._compute

    def timed_compute(self, obj):
        t = time.perf_counter()
        try:
            return real_compute(self, obj)
        finally:
            derived[0] += time.perf_counter() - t
    Effects._compute = timed_compute
    originals = {ph.key: ph.run for ph in R.ROUND_PHASES}

    def wrap(key, fn):
        def run(game):
            t = time.perf_counter()
            try:
                return fn(game)
            finally:
                per_phase[key] += time.perf_counter() - t
        return run
    R.ROUND_PHASES = tuple(R.Phase(p.name, p.key, p.timings, wrap(p.key, p.run)) for p in R.ROUND_PHASES)

    rounds = 0
    results = []
    t0 = time.perf_counter()
    for seed in range(args.games):
        g = start_game(corpus, books, seed, {"P1": RandomAgent(seed), "P2": RandomAgent(seed + 1000)})
        res = g.play(max_rounds=args.rounds)
        rounds += res.rounds
        results.append(res.winner or "draw")
    total = time.perf_counter() - t0
    Effects._compute = real_compute
    R.ROUND_PHASES = tuple(R.Phase(p.name, p.key, p.timings, originals[p.key]) for p in R.ROUND_PHASES)

    print(f"{args.games} games of {' vs '.join(names)} (at most {args.rounds} rounds): {rounds} rounds "
          f"in {total:.2f}s -> {rounds / total:.1f} rounds/s, {60 * args.games / total:.1f} games/min")
    print(f"results: {', '.join(results)}")
    phase_total = sum(per_phase.values()) or 1.0
    print("share of the time per phase:")
    for ph in R.ROUND_PHASES:
        print(f"  {ph.name:24s} {100 * per_phase[ph.key] / phase_total:6.1f}%")
    print(f"derived values (continuous effects): {100 * derived[0] / total:.1f}% of the whole time")


if __name__ == "__main__":
    main()
