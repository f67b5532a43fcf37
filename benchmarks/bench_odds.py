"""Benchmark: one exact odds query vs a 100,000-sample simulation of the same attack on the engine.

Both go through the engine's real attack sequence: the odds query enumerates every roll
(grouped by faces) once, the simulation rolls seeded dice 100,000 times.  Prints both
times, the ratio, and how far the sampled mean is from the exact one.

Run: python benchmarks/bench_odds.py [--samples N] [--attacker NAME] [--defender NAME]
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from magewars.engine import SeededDice  # noqa: E402
from magewars.odds import make_spec, odds, run  # noqa: E402
from magewars.scenario.runner import base_corpus  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--attacker", default="Lightning Bolt")
    ap.add_argument("--defender", default="Iron Golem")
    ap.add_argument("--defender-damage", type=int, default=3)
    args = ap.parse_args(argv)
    corpus = base_corpus()

    t0 = time.perf_counter()
    report = odds(corpus, args.attacker, args.defender, defender_damage=args.defender_damage)
    t_exact = time.perf_counter() - t0
    exact = report.first.damage

    spec = make_spec(corpus, args.attacker, args.defender, defender_damage=args.defender_damage)
    dice = SeededDice(1)
    seen = Counter()
    t0 = time.perf_counter()
    for _ in range(args.samples):
        g, a, d = run(spec, dice)
        atk = g.attacks.history[0]
        seen[atk.damage if atk.status == "hit" and atk.target is d else 0] += 1
    t_sim = time.perf_counter() - t0

    mean_exact = float(report.first.mean)
    mean_sim = sum(k * n for k, n in seen.items()) / args.samples
    tv = 0.5 * sum(abs(float(exact.get(k, 0)) - seen.get(k, 0) / args.samples) for k in set(exact) | set(seen))
    print(f"attack: {report.spec.attacker.name} ({report.attack_name}) -> {report.spec.defender.name}, "
          f"{report.first.dice} dice, defender damage {args.defender_damage}")
    print(f"exact odds query (incl. attacks-needed chain): {t_exact * 1000:9.1f} ms")
    print(f"simulation, {args.samples:,} engine attacks:       {t_sim * 1000:9.1f} ms")
    print(f"ratio simulation / exact: {t_sim / t_exact:.1f}x")
    print(f"mean damage exact {mean_exact:.4f}, sampled {mean_sim:.4f}; total variation distance {tv:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
