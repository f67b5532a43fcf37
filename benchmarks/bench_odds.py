"""Benchmark: exact odds per dice count (1-20), beside the engine run per outcome and sampling.

For each dice count n, a shipped creature's attack is given n dice (the card's data changed in
memory, nothing else) and attacks a shipped defender.  Measured side by side in one run:

- query      `odds()` as the CLI runs it: one attack's exact odds plus the attacks-needed chain,
             from the attack's structure (odds/plan.py: one run of the engine);
- attack     one attack's exact odds (`attack_odds`), the same path;
- engine     the same query with the engine run per outcome (`compute(method="engine")`: each d12,
             six model rolls, one board per damage value of the chain) -- the previous method;
- enumerate  the same attack with every multiset of faces run through the engine, up to
             --enum-max dice (it grows as n^4);
- simulate   --samples seeded runs of the engine's attack sequence, for the dice counts in
             --sim-dice; prints the ratio to one exact query and the gap between the sampled
             and the exact damage distribution (total variation distance).

Run: python benchmarks/bench_odds.py [--max-dice 20] [--enum-max 8] [--sim-dice 4,7] [--samples 100000]
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from magewars.dsl.model import Corpus  # noqa: E402
from magewars.engine import SeededDice  # noqa: E402
from magewars.odds import attack_odds, compute, make_spec, odds, run  # noqa: E402
from magewars.scenario.runner import base_corpus  # noqa: E402


def with_dice(corpus: Corpus, attacker: str, n: int) -> Corpus:
    card = corpus.cards[attacker]
    bar = dataclasses.replace(card.attacks[0], dice=n)
    return Corpus({**corpus.cards, attacker: dataclasses.replace(card, attacks=(bar,) + card.attacks[1:])},
                  corpus.codex)


CLOCK = time.process_time  # CPU time of this process: on a shared machine, wall time adds the waits for a core


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--attacker", default="Timber Wolf")
    ap.add_argument("--defender", default="Iron Golem")
    ap.add_argument("--max-dice", type=int, default=20)
    ap.add_argument("--enum-max", type=int, default=8)
    ap.add_argument("--sim-dice", default="7", help="comma-separated dice counts to simulate ('' for none)")
    ap.add_argument("--wall", action="store_true", help="time with the wall clock instead of CPU time")
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    if not (1 <= args.max_dice <= 40 and 0 <= args.enum_max <= 20 and 1 <= args.samples <= 1_000_000
            and 1 <= args.repeat <= 100):
        ap.error("--max-dice 1-40, --enum-max 0-20, --samples 1-1,000,000, --repeat 1-100")
    sim = {int(x) for x in args.sim_dice.split(",") if x.strip()}
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    corpus = base_corpus()

    print(f"{args.attacker} (attack given n dice) -> {args.defender}; medians of {args.repeat}, "
          f"{'wall-clock' if args.wall else 'CPU'} time")
    print(f"{'dice':>4} {'method':>10} {'query ms':>9} {'attack ms':>10} {'engine ms':>10} {'engine/query':>13}"
          f" {'enumerate ms':>13} {'enum/attack':>12} {'simulate ms':>12} {'sim/query':>10} {'TV dist':>8}")
    for n in range(1, args.max_dice + 1):
        c = with_dice(corpus, args.attacker, n)
        spec = make_spec(c, args.attacker, args.defender)
        report = odds(c, args.attacker, args.defender)  # warm: the sum table for n is built once
        t_query = best_of(lambda: odds(c, args.attacker, args.defender), args.repeat)
        t_attack = best_of(lambda: attack_odds(spec), args.repeat)
        slow = compute(spec, 10, method="engine")
        assert (slow.first.damage, slow.attacks_needed) == (report.first.damage, report.attacks_needed), n
        t_engine = best_of(lambda: compute(spec, 10, method="engine"), max(1, args.repeat // 2))
        enum = ""
        if n <= args.enum_max:
            t_enum = best_of(lambda: attack_odds(spec, method="enumeration"), 1)
            enum = f"{t_enum * 1000:13.1f} {t_enum / t_attack:11.1f}x"
        else:
            enum = f"{'-':>13} {'-':>12}"
        simcol = f"{'-':>12} {'-':>10} {'-':>8}"
        if n in sim:
            dice = SeededDice(n)
            seen = Counter()
            t0 = CLOCK()
            for _ in range(args.samples):
                g, a, d = run(spec, dice)
                atk = g.attacks.history[0]
                seen[atk.damage if atk.status == "hit" and atk.target is d else 0] += 1
            t_sim = CLOCK() - t0
            exact = report.first.damage
            tv = 0.5 * sum(abs(float(exact.get(k, 0)) - seen.get(k, 0) / args.samples)
                           for k in set(exact) | set(seen))
            simcol = f"{t_sim * 1000:12.0f} {t_sim / t_query:9.0f}x {tv:8.4f}"
        print(f"{n:4d} {report.first.method:>10} {t_query * 1000:9.2f} {t_attack * 1000:10.2f} "
              f"{t_engine * 1000:10.1f} {t_engine / t_query:12.0f}x {enum} {simcol}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
