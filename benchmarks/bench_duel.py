"""Duel benchmark: how fast duels run, how far processes scale them, and how strong the agents are.

1. random-agent duels per second on one core (one process), two shipped spellbooks;
2. the same games with --workers 2, timed in the same run, and the ratio to one worker;
3. greedy vs random and search vs greedy: win rates with Wilson 95% intervals (sides and the first
   initiative alternate, so each agent plays both books and both seats);
4. where the time of one random duel goes, by engine module (cProfile, own time).

Run: python benchmarks/bench_duel.py [--games N] [--greedy-games N] [--search-games N]
                                     [--search-iterations K] [--books A,B] [--skip-search]
     python benchmarks/bench_duel.py --baseline REF [--rounds K] [--games N] [--max-rounds R]

With --baseline, only (1) is measured, in this tree and at commit REF, alternating the trees
round by round in separate processes (benchmarks/sidebyside.py): duels per CPU second and the
ratio of the medians.
"""
from __future__ import annotations

import argparse
import cProfile
import functools
import json
import os
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
print = functools.partial(print, flush=True)  # noqa: A001 - each figure shows as soon as it is measured
# the tree whose engine is measured: this one, or a baseline checkout (--baseline: side by side)
sys.path.insert(0, os.environ.get("MAGEWARS_BENCH_TREE", str(ROOT)))

from magewars.duel.runner import DuelConfig, book, corpus, play_game, run_local  # noqa: E402
from magewars.duel.stats import summarize  # noqa: E402


def timed(cfg, games, workers):
    t = time.perf_counter()
    recs = run_local(cfg, games, workers)
    return time.perf_counter() - t, recs


def versus(books, a, b, games, seed, workers, opts=()):
    """Agent a against agent b over `games` games: a takes side A in half of them (both books)."""
    half = games // 2
    c1 = DuelConfig(books, (a, b), seed, agent_options=opts)
    c2 = DuelConfig((books[1], books[0]), (a, b), seed + 1, agent_options=opts)
    t = time.perf_counter()
    r1 = run_local(c1, half, workers)
    r2 = run_local(c2, games - half, workers)
    dt = time.perf_counter() - t
    s1, s2 = summarize(r1, c1.books, c1.agents), summarize(r2, c2.books, c2.agents)
    wins = s1.sides[0].wins + s2.sides[0].wins
    losses = s1.sides[1].wins + s2.sides[1].wins
    from magewars.duel.stats import wilson
    lo, hi = wilson(wins, games)
    mean_rounds = (s1.mean_rounds * len(r1) + s2.mean_rounds * len(r2)) / games
    print(f"  {a} vs {b}: {a} won {wins} of {games} ({100 * wins / games:.1f}%, 95% {100 * lo:.1f}-{100 * hi:.1f}%), "
          f"lost {losses}, drew {games - wins - losses}; mean rounds {mean_rounds:.1f}; {dt:.0f} s on "
          f"{workers} worker(s)")
    return wins, games


def profile(cfg):
    prof = cProfile.Profile()
    prof.enable()
    play_game(cfg, 0)
    prof.disable()
    st = pstats.Stats(prof)
    by_mod = defaultdict(float)
    total = 0.0
    for (file, _line, _fn), (_cc, _nc, tt, _ct, _callers) in st.stats.items():
        key = file.split("/magewars/")[-1] if "/magewars/" in file else "python (stdlib, builtins)"
        by_mod[key] += tt
        total += tt
    print(f"  one random duel: {total:.2f} s of own time (profiled); by module:")
    for mod, tt in sorted(by_mod.items(), key=lambda kv: -kv[1])[:8]:
        print(f"    {100 * tt / total:5.1f}%  {mod}")


def worker(books, games: int, max_rounds: int, seed: int) -> None:
    """Random duels on one core: duels and rounds per CPU second (the figure --baseline compares)."""
    corpus()
    for b in books:
        book(b)
    play_game(DuelConfig(books, ("random", "random"), seed, max_rounds=2), 0)  # warm: imports and caches
    cfg = DuelConfig(books, ("random", "random"), seed, max_rounds=max_rounds)
    t = time.process_time()
    rounds = sum(play_game(cfg, i).record["rounds"] for i in range(games))
    dt = time.process_time() - t
    print(json.dumps([games / dt, rounds / dt]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="random duels timed (one and two workers)")
    ap.add_argument("--greedy-games", type=int, default=200)
    ap.add_argument("--search-games", type=int, default=100)
    ap.add_argument("--search-iterations", type=int, default=8)
    ap.add_argument("--books", default="beastmaster,wizard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-search", action="store_true")
    ap.add_argument("--baseline", help="a git commit to compare with, side by side (random duels only)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of a side-by-side run")
    ap.add_argument("--max-rounds", type=int, default=None, help="game rounds at most (default: the runner's)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    books = tuple(a.books.split(","))
    max_rounds = a.max_rounds or DuelConfig(books).max_rounds
    if a.worker:
        worker(books, a.games, max_rounds, a.seed)
        return
    if a.baseline:
        from sidebyside import compare
        compare(Path(__file__), a.baseline, a.rounds,
                ["--games", str(a.games), "--max-rounds", str(max_rounds), "--books", a.books, "--seed", str(a.seed)],
                ["random duels per CPU second", "game rounds per CPU second"], unit="per CPU s",
                title=f"random duels, {books[0]} vs {books[1]}, {a.games} games of at most {max_rounds} rounds")
        return
    corpus()
    for b in books:
        book(b)
    cfg = DuelConfig(books, ("random", "random"), a.seed)
    play_game(cfg, 0)  # warm: imports and caches

    print(f"random duels, {books[0]} vs {books[1]}, {a.games} games, up to {cfg.max_rounds} rounds:")
    t1, r1 = timed(cfg, a.games, 1)
    t2, r2 = timed(cfg, a.games, 2)
    assert r1 == r2, "one and two workers must play the same games"
    rounds = sum(r["rounds"] for r in r1) / len(r1)
    events = sum(r["events"] for r in r1) / len(r1)
    print(f"  1 worker : {a.games / t1:6.1f} duels/s ({1000 * t1 / a.games:.0f} ms a duel; mean {rounds:.1f} rounds, "
          f"{events:.0f} events)")
    print(f"  2 workers: {a.games / t2:6.1f} duels/s  -> {t1 / t2:.2f}x one worker")
    profile(cfg)

    print("agents (sides and first initiative alternate):")
    versus(books, "greedy", "random", a.greedy_games, a.seed, 2)
    if not a.skip_search:
        versus(books, "search", "greedy", a.search_games, a.seed, 2, (("iterations", a.search_iterations),))


if __name__ == "__main__":
    main()
