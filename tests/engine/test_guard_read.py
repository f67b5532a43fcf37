"""Guards of the shapes `has(this, [NAMES])` and `guarding(this)` (or either under `not`) are read
directly while derived values are worked out (engine/effects.py, _guard_read); the answer must be the
general evaluator's in every state they read: the object's names (printed, gained, from markers), its
guard marker, and a counterspell sparing it from its own effect.  Checked on every such guard of the
shipped codex and cards."""
from __future__ import annotations

from magewars.dsl import ast as A
from magewars.engine import Game
from magewars.engine.effects import _guard_plan, _guard_read
from magewars.engine.phrases import Ctx


def _guards(corpus):
    for holder in list(corpus.codex.values()) + list(corpus.cards.values()):
        for ab in holder.abilities:
            inner = ab.ability if isinstance(ab, A.OncePerRound) else ab
            guard = getattr(inner, "guard", None)
            if guard is not None and _guard_plan(guard):
                yield holder, guard


def test_every_direct_guard_reads_as_the_evaluator(corpus):
    found = list(_guards(corpus))
    assert len(found) >= 2  # (Fast's and Flying's at least)
    names = sorted({n for _, g in found for n in _guard_plan(g)[3]})
    compared = 0
    for card in ("Timber Wolf", "Thunderift Falcon", "Stonegaze Basilisk"):
        for marker in [None, *names]:
            for guard_marker in (False, True):
                for spared in (False, True):
                    g = Game(corpus)
                    g.state.add_player("A")
                    g.state.add_player("B")
                    o = g.create(card, "o", "A", zone="A1")
                    if marker is not None and marker in g.codex:
                        g.state.add_marker(o, marker)
                    o.guard = guard_marker
                    if spared:
                        g.spared_from[o.id] = {o.id}
                    g.state.touch()
                    for _holder, guard in found:
                        want = bool(g.evaluate(guard, Ctx(this=o, it=o)))
                        assert _guard_read(g, _guard_plan(guard), o) is want, (card, marker, guard_marker, spared)
                        compared += 1
    assert compared > 50


def test_other_guards_are_left_to_the_evaluator(corpus):
    """A guard of another shape (another subject, a level test...) has no direct reading."""
    seen = 0
    for holder in corpus.codex.values():
        for ab in holder.abilities:
            guard = getattr(ab, "guard", None)
            if isinstance(guard, A.Call) and guard.name not in ("has", "guarding"):
                assert _guard_plan(guard) == ()
                seen += 1
    assert seen >= 1  # (Stagger's `level(this) <= 2` is a Compare; Incapacitated's `is(this, Mage)`)
