"""Engine benchmark: melee attack sequences per second.

1. every reveal window polled, nothing hidden (nothing to reveal);
2. the same against a defender carrying three hidden enchantments (every window
   offers them to their controller, who passes).

Run: python benchmarks/bench_engine.py [--seconds N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from magewars.dsl import compile_paths  # noqa: E402
from magewars.dsl.model import Corpus  # noqa: E402
from magewars.engine import FirstLegalAgent, Game, SeededDice  # noqa: E402
from magewars.scenario.runner import base_corpus  # noqa: E402

CARDS = ROOT / "tests" / "engine" / "cards"


def corpus() -> Corpus:
    base = base_corpus()
    extra, _ = compile_paths([CARDS])
    return Corpus({**base.cards, **extra.cards}, dict(base.codex))


def make_game(c: Corpus, seed: int, hidden: int):
    g = Game(c, SeededDice(seed), FirstLegalAgent())
    g.state.add_player("A", mana=100)
    g.state.add_player("B", mana=100)
    a = g.create("Timber Wolf", "a", "A", zone="B2")
    d = g.create("Test Dummy", "d", "B", zone="B2")
    for i, name in enumerate(["Bear Strength", "Rhino Hide", "Bull Endurance"][:hidden]):
        g.create(name, f"h{i}", "B", attached_to="d", hidden=True)
    return g, a, d


def bench(c: Corpus, hidden: int, seconds: float) -> tuple[int, float, int]:
    n = 0
    windows = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g, a, d = make_game(c, n, hidden)
        g.attacks.make_attack(a, "Bite", [d])
        windows += g.reveals.windows
        n += 1
    dt = time.perf_counter() - t0
    return n, dt, windows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args(argv)
    c = corpus()
    print(f"magewars engine benchmark ({args.seconds:.0f}s per case; Python {sys.version.split()[0]})")
    for label, hidden in (("melee attack, all windows polled, nothing hidden", 0),
                          ("melee attack vs defender with 3 hidden enchantments", 3)):
        n, dt, windows = bench(c, hidden, args.seconds)
        print(f"  {label:55s} {n / dt:9.0f} sequences/s   "
              f"({windows / n:.0f} windows per sequence, {1e6 * dt / n:.0f} µs each, incl. setup)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
