"""Benchmark: exact odds per dice count (1-20), beside the engine run per outcome and sampling.

For each dice count n, a shipped creature's attack is given n dice (the card's data changed in
memory, nothing else) and attacks a shipped defender.  Measured side by side in one run:

- query      `odds()` as the CLI runs it: one attack's exact odds plus the attacks-needed chain,
             from the attack's structure (odds/plan.py: one run of the engine's attack sequence on
             a board built for the query, then the arithmetic).  Counted: building the board, the
             engine's run, the damage of every (normal, critical) pair asked of the engine, the
             strikes and the chain in exact integers.  Not counted: process start, loading the
             corpus, and the table of the (normal, critical) sums of n dice, built once per dice
             count and process (its cost is the `table` column);
- table      building that table from nothing (odds.exact.sum_rows);
- attack     one attack's exact odds (`attack_odds`), the same path;
- engine     the same query with the engine run per outcome (`compute(method="engine")`: each d12,
             six model rolls, one board per damage value of the chain) -- the previous method;
- enumerate  the same attack with every multiset of faces run through the engine, up to
             --enum-max dice (it grows as n^4);
- simulate   --samples seeded runs of the engine's attack sequence, for the dice counts in
             --sim-dice: the ratio of their time to one exact query, and whether the sampled
             damage (all strikes of the action) equals the exact distribution within sampling
             error (chi-square p-value; total variation distance beside it).

Then shipped matchups as they are (--no-matchups to skip), one per path of the odds: an effect
die (one more engine run per table row), Bloodthirsty and Resilient (the structure asked again per
damage value reached), several strikes, a d12 defense ("d12 + structure"), a fallback to the engine
run per outcome.

The last lines check the goals of issue 12: every query <= 2 ms, the simulation >= 500x slower
than one query, and the p-value not small (> 0.001).  Times are CPU time of this process
(--wall for the wall clock): on a shared machine the wall clock mostly measures waits for a core.

With --baseline REF the query times of this tree and of commit REF (checked out into a temporary
git worktree) are measured in separate processes, alternating round by round, and printed side by
side with their ratio.

Run: python benchmarks/bench_odds.py [--max-dice 20] [--enum-max 8] [--sim-dice 7] [--samples 100000]
     python benchmarks/bench_odds.py --baseline HEAD~3 [--rounds 3]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the tree whose odds are measured: this one, or a baseline checkout (side-by-side runs)
TREE = Path(os.environ.get("MAGEWARS_BENCH_TREE", ROOT))
sys.path.insert(0, str(TREE))

from magewars.dsl.model import Corpus  # noqa: E402
from magewars.engine import SeededDice  # noqa: E402
from magewars.odds import attack_odds, compute, make_spec, odds, run  # noqa: E402
from magewars.scenario.runner import base_corpus  # noqa: E402

GOAL_MS = 2.0
GOAL_RATIO = 500
GOAL_P = 1e-3

#: shipped matchups, one per path of the odds (attacker, defender, options)
MATCHUPS = (
    ("Timber Wolf", "Iron Golem", {}),
    ("Lightning Bolt", "Iron Golem", {}),
    ("Fireball", "Timber Wolf", {}),
    ("Sslak, Orb Guardian", "Timber Wolf", {}),
    ("Timber Wolf", "Spark Elemental", {}),
    ("Timber Wolf", "Screaming Zombie", {}),
    ("Dire Wolf", "Bloodcrag Minotaur", {}),
    ("Timber Wolf", "Eeker", {}),
    ("Timber Wolf", "Warlock Stats", {}),
)


def with_dice(corpus: Corpus, attacker: str, n: int) -> Corpus:
    card = corpus.cards[attacker]
    bar = dataclasses.replace(card.attacks[0], dice=n)
    return Corpus({**corpus.cards, attacker: dataclasses.replace(card, attacks=(bar,) + card.attacks[1:])},
                  corpus.codex)


CLOCK = time.process_time  # CPU time of this process: on a shared machine, wall time adds the waits for a core


def median_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return statistics.median(times)


def once(fn) -> float:
    t0 = CLOCK()
    fn()
    return CLOCK() - t0


def simulate(spec, n_dice: int, samples: int) -> tuple[Counter, int, float]:
    """`samples` seeded runs of the engine's real attack sequence, each on a fresh board: the damage
    the action dealt to the defender (all its strikes), how often it was destroyed, the CPU time."""
    dice = SeededDice(n_dice)
    seen = Counter()
    destroyed = 0
    t0 = CLOCK()
    for _ in range(samples):
        g, a, d = run(spec, dice)
        action = g.attacks.history[0].action
        seen[sum(x.damage for x in g.attacks.history
                 if x.action is action and x.status == "hit" and x.target is d)] += 1
        destroyed += not d.in_play
    return seen, destroyed, CLOCK() - t0


def query_times(attacker: str, defender: str, max_dice: int, repeat: int) -> dict:
    """{n: median query ms} for n = 1..max_dice (the worker of --baseline)."""
    corpus = base_corpus()
    out = {}
    for n in range(1, max_dice + 1):
        c = with_dice(corpus, attacker, n)
        odds(c, attacker, defender)  # warm: the engine's caches for this corpus, the n-dice table
        out[n] = median_of(lambda: odds(c, attacker, defender), repeat) * 1000
    return out


def side_by_side(args) -> int:
    """Query times in this tree and at --baseline, alternating, each in its own process
    (benchmarks/sidebyside.py)."""
    from sidebyside import runs
    ref = args.baseline
    got = runs(Path(__file__), ref, args.rounds,
               ["--attacker", args.attacker, "--defender", args.defender, "--max-dice", str(args.max_dice),
                "--repeat", str(args.repeat)] + (["--wall"] if args.wall else []), cache=True)
    now, then = list(got)
    print(f"{args.attacker} (attack given n dice) -> {args.defender}: one query, this tree beside "
          f"{then}; medians of {args.repeat} queries x {args.rounds} alternating rounds, "
          f"{'wall-clock' if args.wall else 'CPU'} ms")
    print(f"{'dice':>4} {'query ms now':>13} {'query ms then':>14} {'speed-up':>9}")
    worst = 0.0
    for n in range(1, args.max_dice + 1):
        q = [statistics.median(r[str(n)] for r in got[k]) for k in (now, then)]
        worst = max(worst, q[0])
        print(f"{n:4d} {q[0]:13.2f} {q[1]:14.2f} {q[1] / q[0]:8.2f}x")
    print(f"slowest query in this tree: {worst:.2f} ms (goal <= {GOAL_MS} ms: "
          f"{'met' if worst <= GOAL_MS else 'NOT met'})")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--attacker", default="Timber Wolf")
    ap.add_argument("--defender", default="Iron Golem")
    ap.add_argument("--max-dice", type=int, default=20)
    ap.add_argument("--enum-max", type=int, default=8)
    ap.add_argument("--sim-dice", default="7", help="comma-separated dice counts to simulate ('' for none)")
    ap.add_argument("--wall", action="store_true", help="time with the wall clock instead of CPU time")
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--baseline", help="a git commit to compare the query times with, side by side")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-matchups", action="store_true", help="skip the shipped matchups")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not (1 <= args.max_dice <= 40 and 0 <= args.enum_max <= 20 and 1 <= args.samples <= 1_000_000
            and 1 <= args.repeat <= 100 and 1 <= args.rounds <= 20):
        ap.error("--max-dice 1-40, --enum-max 0-20, --samples 1-1,000,000, --repeat 1-100, --rounds 1-20")
    try:
        sim = {int(x) for x in args.sim_dice.split(",") if x.strip()}
    except ValueError:
        ap.error(f"--sim-dice: comma-separated dice counts, not {args.sim_dice!r}")
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    if args.worker:
        print(json.dumps(query_times(args.attacker, args.defender, args.max_dice, args.repeat)))
        return 0
    if args.baseline:
        return side_by_side(args)
    from magewars.odds.check import chi_square, total_variation  # this tree only (not the baseline's)
    from magewars.odds.exact import sum_rows
    corpus = base_corpus()

    print(f"{args.attacker} (attack given n dice) -> {args.defender}; medians of {args.repeat}, "
          f"{'wall-clock' if args.wall else 'CPU'} time")
    print(f"{'dice':>4} {'method':>10} {'query ms':>9} {'table ms':>9} {'attack ms':>10} {'engine ms':>10} "
          f"{'engine/query':>13} {'enumerate ms':>13} {'enum/attack':>12} {'simulate s':>11} {'sim/query':>10} "
          f"{'p-value':>8} {'TV dist':>8}")
    worst, ratios, pvalues = (0.0, 0), [], []
    for n in range(1, args.max_dice + 1):
        c = with_dice(corpus, args.attacker, n)
        spec = make_spec(c, args.attacker, args.defender)
        t_table = once(lambda: (sum_rows.cache_clear(), sum_rows(n)))
        report = odds(c, args.attacker, args.defender)  # warm: the engine's caches for this corpus
        t_query = median_of(lambda: odds(c, args.attacker, args.defender), args.repeat)
        worst = max(worst, (t_query, n))
        t_attack = median_of(lambda: attack_odds(spec), args.repeat)
        slow = compute(spec, 10, method="engine")
        assert (slow.first.damage, slow.attacks_needed) == (report.first.damage, report.attacks_needed), n
        t_engine = median_of(lambda: compute(spec, 10, method="engine"), max(1, args.repeat // 3))
        if n <= args.enum_max:
            t_enum = once(lambda: attack_odds(spec, method="enumeration"))
            enum = f"{t_enum * 1000:13.1f} {t_enum / t_attack:11.1f}x"
        else:
            enum = f"{'-':>13} {'-':>12}"
        simcol = f"{'-':>11} {'-':>10} {'-':>8} {'-':>8}"
        if n in sim:
            seen, destroyed, t_sim = simulate(spec, n, args.samples)
            exact = report.first.damage
            _, _, p, _ = chi_square(seen, exact, args.samples)
            tv = total_variation(exact, seen, args.samples)
            ratios.append((t_sim / t_query, n))
            pvalues.append((p, n, destroyed, float(report.first.p_destroy)))
            simcol = f"{t_sim:11.1f} {t_sim / t_query:9.0f}x {p:8.3f} {tv:8.4f}"
        print(f"{n:4d} {report.first.method:>10} {t_query * 1000:9.2f} {t_table * 1000:9.2f} {t_attack * 1000:10.2f} "
              f"{t_engine * 1000:10.1f} {t_engine / t_query:12.0f}x {enum} {simcol}", flush=True)
    if not args.no_matchups:
        print(f"\nshipped matchups (the query, --max-attacks 10; medians of {args.repeat}):")
        for attacker, defender, kw in MATCHUPS:
            try:
                r = odds(corpus, attacker, defender, **kw)
            except Exception as e:  # a card renamed or removed: say so, go on
                print(f"  {attacker} -> {defender}: {e}")
                continue
            t = median_of(lambda: odds(corpus, attacker, defender, **kw), args.repeat)
            how = r.first.method + (f" ({r.first.note})" if r.first.note else "")
            print(f"  {attacker + ' -> ' + defender:42s} {t * 1000:8.2f} ms  {r.first.dice:2d} dice, "
                  f"{r.first.strikes} strike(s){', effect die' if r.first.effect_die else ''}; {how}")
    print(f"slowest query: {worst[0] * 1000:.2f} ms at {worst[1]} dice "
          f"(goal <= {GOAL_MS} ms for every dice count: {'met' if worst[0] * 1000 <= GOAL_MS else 'NOT met'})")
    for (ratio, n), (p, _, destroyed, pd) in zip(ratios, pvalues):
        print(f"{args.samples:,} samples at {n} dice: {ratio:,.0f}x one exact query (goal >= {GOAL_RATIO}x: "
              f"{'met' if ratio >= GOAL_RATIO else 'NOT met'}); damage distribution chi-square p = {p:.3f} "
              f"({'equal within sampling error' if p > GOAL_P else 'NOT equal'}); destroyed "
              f"{destroyed / args.samples:.4f} sampled, {pd:.4f} exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
