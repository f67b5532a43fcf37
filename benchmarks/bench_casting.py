"""Benchmark: what a random agent asks of the casting sequence, side by side in one run.

On a mid-game board (two Mages, creatures, a wall, enchantments) it times, for every spell of a
shipped spellbook:
  * legal_casts(game, caster, card): every legal CastChoice (what an agent is offered);
  * the same list found by brute force: check_cast on every object, zone and border of the arena;
  * cast_spell of the first legal choice, on a freshly built board (the whole sequence, with its
    reveal windows), beside building that board alone.
and prints the time per call and the ratios brute force / legal_casts and cast / copy.

Run: python benchmarks/bench_casting.py [--rounds N] [--book wizard]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from magewars.dsl import load_corpus  # noqa: E402
from magewars.engine import Game  # noqa: E402
from magewars.engine import placement as P  # noqa: E402
from magewars.engine.casting import IllegalCast, cast_spell, check_cast, legal_casts, target_kind  # noqa: E402
from magewars.spellbook import load_spellbook, shipped_books  # noqa: E402


def board(corpus) -> Game:
    g = Game(corpus)
    g.state.add_player("Alice", mana=25)
    g.state.add_player("Bob", mana=25)
    g.create("Wizard", "wiz", "Alice", zone="B2")
    g.create("Timber Wolf", "wolf", "Alice", zone="B2")
    g.create("Priestess", "pri", "Bob", zone="B4")
    g.create("Timber Wolf", "fang", "Bob", zone="B3")
    g.create("Elemental Drake", "drake", "Bob", zone="C3")
    g.create("Bear Strength", "bs", "Bob", attached_to="fang")
    g.create("Nullify", "null", "Bob", attached_to="drake", hidden=True)
    g.create("Wall of Stone", "wall", "Bob", zone="A3").border = frozenset(("A3", "A4"))
    return g


def brute_force(g, caster, card) -> int:
    st = g.state
    if target_kind(card) == "unsupported":
        return 0
    n = 0
    shapes = [((o,), None) for o in st.in_play()] + [((), z) for z in st.arena.zones()] \
        + [((), "/".join(b)) for b in P.borders(st.arena)] + [((), None)]
    for ts, z in shapes:
        try:
            check_cast(g, caster, card, ts, z, card.kind == "enchantment", None)
            n += 1
        except IllegalCast:
            pass
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--book", default="wizard")
    args = ap.parse_args(argv)
    corpus = load_corpus()
    book = load_spellbook(shipped_books()[args.book], corpus=corpus)
    cards = [e.card for e in book.entries if e.card is not None]
    g = board(corpus)
    caster = g.state.get("wiz")

    t0 = time.perf_counter()
    offered = 0
    for _ in range(args.rounds):
        for c in cards:
            offered += len(legal_casts(g, caster, c))
    t_legal = (time.perf_counter() - t0) / (args.rounds * len(cards))

    t0 = time.perf_counter()
    for _ in range(args.rounds):
        for c in cards:
            brute_force(g, caster, c)
    t_brute = (time.perf_counter() - t0) / (args.rounds * len(cards))

    first = {c.name: legal_casts(g, caster, c) for c in cards}
    castable = [(c, ch[0]) for c in cards for ch in [first[c.name]] if ch]
    t0 = time.perf_counter()
    for _ in range(args.rounds):
        for c, _ch in castable:
            board(corpus)
    t_copy = (time.perf_counter() - t0) / (args.rounds * max(1, len(castable)))
    t0 = time.perf_counter()
    for _ in range(args.rounds):
        for c, ch in castable:
            h = board(corpus)
            try:
                cast_spell(h, h.state.get(ch.caster_id), c, [h.state.get(t) for t in ch.target_ids], zone=ch.zone,
                           face_down=ch.face_down)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
                print(f"  {c.name}: {type(exc).__name__}: {exc}")
    t_cast = (time.perf_counter() - t0) / (args.rounds * max(1, len(castable)))

    print(f"spellbook {args.book}: {len(cards)} spells, {offered // args.rounds} legal choices offered on the board")
    print(f"legal_casts, per spell:                 {t_legal * 1e6:9.1f} us  ({1 / t_legal:,.0f} calls/s)")
    print(f"brute force check_cast, per spell:      {t_brute * 1e6:9.1f} us")
    print(f"ratio brute force / legal_casts:        {t_brute / t_legal:9.2f}x")
    print(f"build the board:                        {t_copy * 1e6:9.1f} us")
    print(f"build + cast_spell (whole sequence):     {t_cast * 1e6:9.1f} us  ({len(castable)} spells castable)")
    print(f"ratio (build+cast) / build:                    {t_cast / t_copy:9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
