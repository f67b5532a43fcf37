"""Duel benchmark: how fast duels run, how far processes scale them, and how strong the agents are.

1. random-agent duels per second on one core (one process), two shipped spellbooks;
2. the same games with --workers 2, timed in the same run, and the ratio to one worker;
3. greedy vs random and search vs greedy: win rates with Wilson 95% intervals (sides and the first
   initiative alternate, so each agent plays both books and both seats);
4. where the time of one random duel goes, by engine module (cProfile, own time).

Run: python benchmarks/bench_duel.py [--games N] [--greedy-games N] [--search-games N]
                                     [--search-iterations K] [--books A,B] [--skip-search]
                                     [--workers K] [--records FILE [--resume]]
     python benchmarks/bench_duel.py --baseline REF [--games N] [--rounds K]

With --baseline, the random duels of part 1 are also played on another commit (checked out into a
temporary git worktree), the two trees alternating round by round in separate processes: duels per
CPU second of each, the ratio of the medians, and whether both trees played the same games.
"""
from __future__ import annotations

import argparse
import cProfile
import functools
import hashlib
import json
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the tree whose engine plays: this one, or a baseline checkout (--baseline runs)
TREE = Path(os.environ.get("MAGEWARS_BENCH_TREE", ROOT))
print = functools.partial(print, flush=True)  # noqa: A001 - each figure shows as soon as it is measured
sys.path.insert(0, str(TREE))

from magewars.duel.runner import DuelConfig, book, corpus, play_game, run_local  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    import resource
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(cfg, games, workers):
    """(wall seconds, CPU seconds, records): CPU time says how fast a duel is whatever else runs on the
    machine; wall time says how far processes scale it (only meaningful on an otherwise idle machine)."""
    t, c = time.perf_counter(), _cpu()
    recs = run_local(cfg, games, workers)
    return time.perf_counter() - t, _cpu() - c, recs


def versus(books, a, b, games, seed, workers, opts=(), block=8, max_rounds=None, records=None, resume=False):
    """Agent a against agent b over `games` games: a is side A, with the first book in half of them
    and the second in the other half (the first initiative alternates within each).  All the games go
    to one pool of `workers` processes (interleaved: first book, second book, ...), so no worker waits
    for another's slower game before taking the next; the tally so far is printed each time another
    `block` games have finished, so a run stopped early still says where it stood.  Each game is a
    function of (books, agents, seed, index) alone, so the final tally does not depend on `workers`
    (only the order the games finish in does).  `records`: a file that gets one JSON line per
    finished game (its book order and record), as it finishes; with `resume`, the games already in it
    are read back instead of played."""
    import json
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from magewars.duel.runner import play_games
    extra = {} if max_rounds is None else {"max_rounds": max_rounds}
    c1 = DuelConfig(books, (a, b), seed, agent_options=opts, **extra)
    c2 = DuelConfig((books[1], books[0]), (a, b), seed + 1, agent_options=opts, **extra)
    half = games // 2
    jobs = []
    for i in range(max(half, games - half)):  # interleaved, so a run stopped early has both book orders
        if i < half:
            jobs.append((c1, i))
        if i < games - half:
            jobs.append((c2, i))
    t = time.perf_counter()
    played: list = []
    if resume and records and Path(records).exists():
        # Games already in the records file are not played again: each game is a function of (books,
        # agents, seed, index), so its recorded result is the one it would have again.
        done = {}
        for n, line in enumerate(Path(records).read_text(encoding="utf-8").splitlines(), 1):
            try:
                d = json.loads(line)
                key = (tuple(d["books"]), d["seed"], d["record"]["index"])
            except (ValueError, KeyError, TypeError) as e:
                raise SystemExit(f"{records}:{n}: not a game record ({e})")
            if d.get("agents", [a, b]) == [a, b] and d.get("agent_options", dict(opts)) == dict(opts):
                done[key] = d["record"]
        kept = []
        for cfg, i in jobs:
            r = done.get((cfg.books, cfg.seed, i))
            if r is None:
                kept.append((cfg, i))
            else:
                played.append((cfg, r))
        print(f"  resumed: {len(played)} game(s) read from {records}, {len(kept)} to play")
        jobs = kept
    out = open(records, "a", encoding="utf-8") if records else None

    def tally():
        from magewars.duel.stats import wilson
        n = len(played)
        wins = sum(r["winner"] == "A" for _, r in played)
        losses = sum(r["winner"] == "B" for _, r in played)
        lo, hi = wilson(wins, n)
        rounds = sum(r["rounds"] for _, r in played) / n
        dt = time.perf_counter() - t
        print(f"  {a} vs {b}: {a} won {wins} of {n} ({100 * wins / n:.1f}%, 95% {100 * lo:.1f}-{100 * hi:.1f}%), "
              f"lost {losses}, drew {n - wins - losses}; mean rounds {rounds:.1f}; {dt:.0f} s on "
              f"{workers} worker(s)" + ("" if n == games else f"  [{n} of {games} so far]"))
        return wins

    def finished(cfg, recs):
        for r in recs:
            played.append((cfg, r))
            if out:
                out.write(json.dumps({"books": list(cfg.books), "seed": cfg.seed, "agents": [a, b],
                                      "agent_options": dict(opts), "record": r}, sort_keys=True) + "\n")
                out.flush()
            if len(played) % block == 0 and len(played) < games:
                tally()

    try:
        if workers <= 1:
            for cfg, i in jobs:
                finished(cfg, play_games(cfg, [i]))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                pending = {pool.submit(play_games, cfg, [i]): cfg for cfg, i in jobs}
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for f in done:
                        finished(pending.pop(f), f.result())
    finally:
        if out:
            out.close()
    wins = tally() if played else 0
    return wins, games


def profile(cfg):
    prof = cProfile.Profile(time.process_time)  # CPU time: other jobs on the machine do not count
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
    print(f"  one random duel: {total:.2f} CPU s of own time (profiled); by module:")
    for mod, tt in sorted(by_mod.items(), key=lambda kv: -kv[1])[:8]:
        print(f"    {100 * tt / total:5.1f}%  {mod}")
    duel = sum(tt for mod, tt in by_mod.items() if mod.startswith("duel/"))
    print(f"    {100 * duel / total:5.1f}%  the duel layer itself (magewars/duel/: seats, agents, runner)")


def speed_worker(books, games: int, seed: int, max_rounds: int) -> None:
    """Play `games` random duels in this process after one warm-up game; print (CPU seconds, a digest of
    the records) as JSON: what --baseline compares."""
    cfg = DuelConfig(books, ("random", "random"), seed, max_rounds)
    play_game(cfg, games)  # warm: imports, caches (a game outside the timed ones)
    t = time.process_time()
    recs = [play_game(cfg, i).record for i in range(games)]
    cpu = time.process_time() - t
    digest = hashlib.sha256(json.dumps(recs, sort_keys=True).encode()).hexdigest()[:16]
    print(json.dumps({"cpu": cpu, "digest": digest, "rounds": sum(r["rounds"] for r in recs),
                      "events": sum(r["events"] for r in recs)}))


def side_by_side(ref: str, books, games: int, seed: int, max_rounds: int, rounds: int) -> int:
    """The random duels of part 1 on this tree and on `ref`, alternating, each in its own process
    (benchmarks/sidebyside.py)."""
    from sidebyside import runs
    got = runs(Path(__file__), ref, rounds, ["--books", ",".join(books), "--games", str(games), "--seed", str(seed),
                                             "--max-rounds", str(max_rounds)], cache=True)
    now, then = list(got)
    print(f"random duels side by side, {books[0]} vs {books[1]}, {games} games of up to {max_rounds} "
          f"rounds, {rounds} alternating rounds (medians; Python {sys.version.split()[0]}):")
    rates = {}
    for label in got:
        cpu = statistics.median(x["cpu"] for x in got[label])
        rates[label] = games / cpu
        x = got[label][0]
        print(f"  {label:28s} {games / cpu:7.3f} duels per CPU second ({1000 * cpu / games:.0f} CPU ms a "
              f"duel; {x['rounds'] / games:.1f} rounds, {x['events'] / games:.0f} events a duel)")
    same = got[now][0]["digest"] == got[then][0]["digest"]
    print(f"  ratio {rates[now] / rates[then]:.2f}x; the same games on both trees: {'yes' if same else 'no'}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="random duels timed (one and two workers)")
    ap.add_argument("--greedy-games", type=int, default=200)
    ap.add_argument("--search-games", type=int, default=100)
    ap.add_argument("--search-iterations", type=int, default=6)
    ap.add_argument("--search-horizon", type=int, default=1, help="rounds a search copy plays ahead")
    ap.add_argument("--books", default="beastmaster,wizard")
    ap.add_argument("--versus-books", default=None,
                    help="books of the agent matches (default: --books); a mirror (x,x) measures the agents alone")
    ap.add_argument("--block", type=int, default=8, help="games between two tallies of an agent match")
    ap.add_argument("--workers", type=int, default=2, help="processes playing an agent match's games at once")
    ap.add_argument("--records", default=None, metavar="FILE",
                    help="append one JSON line per finished agent-match game (book order, seed, record)")
    ap.add_argument("--resume", action="store_true",
                    help="with --records: read back the games already recorded there instead of playing them")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-rounds", type=int, default=40, help="round cap of the timed random duels")
    ap.add_argument("--skip-search", action="store_true")
    ap.add_argument("--parts", default="speed,profile,greedy,search",
                    help="which parts to run, comma-separated: speed, profile, greedy, search")
    ap.add_argument("--baseline", metavar="REF",
                    help="a git commit: play part 1's random duels on it too, side by side (duels per CPU second)")
    ap.add_argument("--rounds", type=int, default=3, help="with --baseline: alternating rounds")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)  # (sidebyside.runs)
    a = ap.parse_args(argv)
    if a.worker:
        speed_worker(tuple(a.books.split(",")), a.games, a.seed, a.max_rounds)
        return
    if a.baseline:
        raise SystemExit(side_by_side(a.baseline, tuple(a.books.split(",")), a.games, a.seed, a.max_rounds,
                                      a.rounds))
    parts = set(a.parts.split(","))
    if a.skip_search:
        parts.discard("search")
    books = tuple(a.books.split(","))
    vbooks = tuple((a.versus_books or a.books).split(","))
    corpus()
    for b in books + vbooks:
        book(b)
    cfg = DuelConfig(books, ("random", "random"), a.seed, a.max_rounds)
    if parts & {"speed", "profile"}:
        play_game(cfg, 0)  # warm: imports and caches

    if "speed" in parts:
        print(f"random duels, {books[0]} vs {books[1]}, {a.games} games, up to {cfg.max_rounds} rounds:")
        t1, c1, r1 = timed(cfg, a.games, 1)
        t2, c2, r2 = timed(cfg, a.games, 2)
        assert r1 == r2, "one and two workers must play the same games"
        rounds = sum(r["rounds"] for r in r1) / len(r1)
        events = sum(r["events"] for r in r1) / len(r1)
        print(f"  1 worker : {a.games / t1:6.2f} duels/s wall, {a.games / c1:6.2f} duels per CPU second "
              f"({1000 * c1 / a.games:.0f} CPU ms a duel; mean {rounds:.1f} rounds, {events:.0f} events)")
        print(f"  2 workers: {a.games / t2:6.2f} duels/s wall, {a.games / c2:6.2f} duels per CPU second  "
              f"-> {t1 / t2:.2f}x one worker (wall)")
        try:
            import os
            load = os.getloadavg()[0]
            print(f"  (load average {load:.1f} on {os.cpu_count()} CPUs during the run: the wall ratio needs "
                  f"an idle machine)")
        except OSError:
            pass
    if "profile" in parts:
        profile(cfg)

    if parts & {"greedy", "search"}:
        print("agents (sides and first initiative alternate):")
    if "greedy" in parts:
        versus(vbooks, "greedy", "random", a.greedy_games, a.seed, a.workers, block=a.block, records=a.records,
               resume=a.resume)
    if "search" in parts:
        versus(vbooks, "search", "greedy", a.search_games, a.seed, a.workers,
               (("horizon", a.search_horizon), ("iterations", a.search_iterations)), block=a.block,
               records=a.records, resume=a.resume)


if __name__ == "__main__":
    main()
