"""A digest of everything the engine logs in a fixed set of games: the check that a change meant to
make the engine faster left every event, its data and its text as they were.

    python scripts/engine_digest.py [--duels 28] [--rounds 12] [--sequences 40] [--parts]

It plays `--duels` seeded random duels (game 0 of seed 7 for pairs of shipped spellbooks spread evenly
over every unordered pair, up to `--rounds` rounds each) and `--sequences` attack sequences of each of the three matchups of
`benchmarks/bench_engine.py` (bare, hidden, armored; dice seeded by the sequence's index), and prints
the sha256 of all their event logs (every event's kind, text, data and who may see it), in order.
Two trees that print the same digest logged the same events.  `--parts` prints one digest per game as
well, so that a difference can be found.

The figure is only meaningful beside the same command run on another tree (a digest of the baseline
commit, taken in the same way); it is not pinned anywhere.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _log_bytes(game) -> bytes:
    return json.dumps(game.log.to_json(), sort_keys=True, default=repr).encode()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=28, help="how many pairs of shipped books play (at most all)")
    ap.add_argument("--rounds", type=int, default=16, help="round cap of each duel")
    ap.add_argument("--sequences", type=int, default=40, help="attack sequences of each matchup")
    ap.add_argument("--parts", action="store_true", help="print a digest per game too")
    a = ap.parse_args(argv)

    from magewars.duel.runner import DuelConfig, play_game
    from magewars.spellbook import shipped_books
    import bench_engine  # the matchups the engine benchmark times

    total = hashlib.sha256()

    def part(label: str, data: bytes) -> None:
        total.update(data)
        if a.parts:
            print(f"{hashlib.sha256(data).hexdigest()[:16]}  {label}")

    books = sorted(shipped_books())
    pairs = list(itertools.combinations(books, 2))
    n_duels = min(a.duels, len(pairs))  # spread evenly over every unordered pair, so every book plays
    for n, (x, y) in enumerate(pairs[k * len(pairs) // n_duels] for k in range(n_duels)):
        played = play_game(DuelConfig((x, y), ("random", "random"), 7, a.rounds), 0)
        part(f"duel {n}: {x} vs {y}, {played.record['rounds']} rounds", _log_bytes(played.game))
    c = bench_engine.corpus()
    for _, case in bench_engine.CASES:
        for i in range(a.sequences):
            g, att, d = bench_engine.make_game(c, i, case)
            g.attacks.make_attack(att, "Bite", [d])
            part(f"sequence {case} {i}", _log_bytes(g))
    print(total.hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
