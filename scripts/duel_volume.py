"""Play many random duels over every pair of shipped spellbooks with the invariants checked after
every event (magewars/duel/invariants.py), and report crashes and violations.

    python scripts/duel_volume.py --games 10000 --workers 2 [--max-rounds 40] [--seed 2026] [--json out.json]
                                  [--first I --count N]

`--first I --count N` plays only games I to I+N-1 of the run's jobs (the same games, on the same pairs
of books, as in a whole run): a long run can be played in parts, on one commit, and their results added up.

Exit status 0 when no game crashed and no invariant broke, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from magewars.duel.invariants import check_many, volume_jobs  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", type=Path, help="write every game's outcome and findings here")
    ap.add_argument("--first", type=int, default=0, help="the first game of the run to play (a part of it)")
    ap.add_argument("--count", type=int, help="how many games of the run to play from --first (default: all)")
    a = ap.parse_args(argv)
    if not 0 <= a.first < a.games or (a.count is not None and a.count < 1):
        ap.error("--first must be a game of the run (0 to --games - 1) and --count at least 1")
    jobs = volume_jobs(a.games, a.seed, a.max_rounds)
    jobs = jobs[a.first:None if a.count is None else a.first + a.count]
    size = 25
    parts = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    t0 = time.perf_counter()
    results = []
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    stopped = False
    # (the workers ignore SIGINT and SIGTERM: a stop reaches this process, which ends them itself)
    pool = multiprocessing.get_context("fork").Pool(a.workers, initializer=_worker_start)
    try:
        for k, part in enumerate(pool.imap(check_many, parts), 1):
            results.extend(part)
            for r in part:  # each finding as soon as its part is in: a long run need not be stopped to see it
                if r["crash"] or r["violations"]:
                    print(f"  finding: {_finding(r)}", file=sys.stderr, flush=True)
            if k % 20 == 0 or k == len(parts):
                print(f"  {len(results)}/{len(jobs)} games, {time.perf_counter() - t0:.0f} s: "
                      f"{sum(bool(r['crash']) for r in results)} crashes, "
                      f"{sum(len(r['violations']) for r in results)} violations so far", file=sys.stderr, flush=True)
    except KeyboardInterrupt:  # stopped early: report the games that were played
        stopped = True
        pool.terminate()  # no worker goes on playing once the run is stopped
    else:
        pool.close()
    pool.join()
    dt = time.perf_counter() - t0
    crashes = [r for r in results if r["crash"]]
    broken = [r for r in results if r["violations"]]
    events = sum(r["events"] for r in results)
    decided = sum(r.get("winner") is not None for r in results if not r["crash"])
    if stopped:
        print(f"stopped early after {len(results)} of {len(jobs)} games")
    part = f" (games {a.first} to {a.first + len(jobs) - 1} of a run of {a.games})" if len(jobs) < a.games else ""
    print(f"{len(results)} random duels{part} over {len({tuple(c.books) for c, _ in jobs})} pairs of shipped "
          f"spellbooks in {dt:.0f} s on {a.workers} worker(s): {events} events checked, "
          f"{decided} decided, {len(results) - decided - len(crashes)} draws; "
          f"{len(crashes)} crashes, {sum(len(r['violations']) for r in broken)} invariant violations "
          f"in {len(broken)} games")
    for r in (crashes + broken)[:20]:
        print(f"  {_finding(r)}")
    if a.json:
        a.json.write_text(json.dumps({"games": a.games, "first": a.first, "count": len(jobs), "seed": a.seed,
                                      "max_rounds": a.max_rounds,
                                      "seconds": round(dt, 1), "results": results}, indent=1))
    if stopped:  # do not wait for the workers' games in progress
        sys.stdout.flush()
        os._exit(1)
    return 1 if crashes or broken else 0


def _finding(r: dict) -> str:
    """A crashed or broken game, with what replays it (its index in this run's jobs: --games, --seed and
    --max-rounds give the same jobs)."""
    return f"game {r['index']} {r['books']}: {r['crash'] or ''} {r['violations'][:3]}"


def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


if __name__ == "__main__":
    sys.exit(main())
