"""Actions that count as the other kind (Rules: Quick and Full Actions).

A card in play may state `static action_swap(PHRASE, "quick", "full"[, except: "move"])`: for the
objects the phrase names, an action of the first kind counts as one of the second.  The Action Phase
asks `speed` for each attack and action ability it could offer (engine/activation.py), so a quick
attack that counts as full is no longer open after a move, and a full one that counts as quick is.
Move actions are never swapped here (the engine's move is not an action of a kind to swap).
"""
from __future__ import annotations

from ..dsl import ast as A
from .phrases import Ctx, matches

CALL = "action_swap"


def _swaps(game, obj):
    for src, ab in game.effects.statics_in_play(CALL):  # (face-up cards in play, in order)
        call = ab.effect
        pos = [a.value for a in call.args if not a.key]
        if len(pos) < 3 or not all(isinstance(p, A.StringLit) for p in pos[1:3]):
            continue
        ctx = Ctx(this=src)
        if ab.guard is not None and not game.evaluate(ab.guard, ctx):
            continue
        if isinstance(pos[0], A.Phrase) and matches(game, obj, pos[0], ctx):
            yield pos[1].value, pos[2].value


def speed(game, obj, kind: str) -> str:
    """The kind of action an action of `kind` ("quick" or "full") counts as for `obj` now."""
    for frm, to in _swaps(game, obj):
        if frm == kind:
            return to
    return kind
