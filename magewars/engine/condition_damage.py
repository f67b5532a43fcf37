"""A condition dealing damage to the object that carries it (Burn, Rot, Bleed...): the
`condition_damage` event (Codex: conditions that deal damage).

When an ability of a condition's codex entry damages the object carrying the marker, the engine
announces it first: `when condition_damage(WHO, kind: [Name])` abilities run with `amount()` the
damage about to be dealt, and may `prevent_damage()` it (the damage is then not dealt).  Nothing
here names a condition: the entry an ability belongs to is looked up by the ability itself.
"""
from __future__ import annotations

from typing import Optional

from .phrases import Ctx

EVENT = "condition_damage"


def condition_of(game, ctx: Ctx, target) -> Optional[str]:
    """The condition whose own ability is damaging `target`, the object carrying it; else None."""
    aid = ctx.extra.get("ability")
    if ctx.this is None or target is not ctx.this or aid is None:
        return None
    for name, n in target.markers.items():  # the conditions on it: is the ability one of theirs?
        cd = game.codex.get(name)
        if n and cd is not None and cd.marker == "condition" and any(
                id(ab) == aid or id(getattr(ab, "ability", None)) == aid for ab in cd.abilities):
            return name
    return None


def announce(game, target, kind: str, amount: int) -> int:
    """Fire the event before the damage: returns the damage still to deal (0 if prevented)."""
    would = {"prevented": False}
    game.fire("condition_damage", target, Ctx(this=target, it=target), kind=kind, amount=amount, would=would)
    if would["prevented"]:
        game.emit("rule", f"{amount} damage of {kind} to {target.label()} is prevented ({would['prevented']})")
        return 0
    return amount
