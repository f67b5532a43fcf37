"""Abilities that work every time instead of once per round, for one object.

A card may state `static unlimited_per_round(this, [Name])`: the once-per-round ability of the codex
entry Name (Trample...) works every time it triggers for this object.  Game.run_trigger asks
`unlimited` before refusing a once-per-round ability already used this round.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A

CALL = "unlimited_per_round"


def unlimited(game, src, rule: Optional[str]) -> bool:
    """Does `src`'s card lift the once-per-round limit of the codex entry `rule` for itself?"""
    if rule is None or src is None:
        return False
    for ab in src.card.abilities:
        call = getattr(ab, "effect", None)
        if not (isinstance(ab, A.StaticAbility) and isinstance(call, A.Call) and call.name == CALL):
            continue
        pos = [a.value for a in call.args if not a.key]
        if len(pos) > 1 and isinstance(pos[1], A.TraitGroup) and any(r.name.text == rule for r in pos[1].traits):
            return True
    return False
