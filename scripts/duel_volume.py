"""Play many random duels over every pair of shipped spellbooks with the invariants checked after
every event (magewars/duel/invariants.py), and report crashes and violations.

    python scripts/duel_volume.py --games 10000 --workers 2 [--max-rounds 40] [--seed 2026] [--json out.json]

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
    a = ap.parse_args(argv)
    jobs = volume_jobs(a.games, a.seed, a.max_rounds)
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
    print(f"{len(results)} random duels over {len({tuple(c.books) for c, _ in jobs})} pairs of shipped "
          f"spellbooks in {dt:.0f} s on {a.workers} worker(s): {events} events checked, "
          f"{decided} decided, {len(results) - decided - len(crashes)} draws; "
          f"{len(crashes)} crashes, {sum(len(r['violations']) for r in broken)} invariant violations "
          f"in {len(broken)} games")
    for r in (crashes + broken)[:20]:
        print(f"  {_finding(r)}")
    if a.json:
        a.json.write_text(json.dumps({"games": a.games, "seed": a.seed, "max_rounds": a.max_rounds,
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
