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


def _rules(game) -> dict:
    """id of each ability (and of the ability inside a once-per-round one) -> its codex entry."""
    got = getattr(game, "_condition_rules", None)
    if got is None or got[0] is not game.codex:
        names = {}
        for name, cd in game.codex.items():
            for ab in cd.abilities:
                names[id(ab)] = cd
                inner = getattr(ab, "ability", None)
                if inner is not None:
                    names[id(inner)] = cd
        got = game._condition_rules = (game.codex, names)
    return got[1]


def condition_of(game, ctx: Ctx, target) -> Optional[str]:
    """The condition whose own ability is damaging `target`, the object carrying it; else None."""
    if ctx.this is None or target is not ctx.this or "ability" not in ctx.extra:
        return None
    cd = _rules(game).get(ctx.extra["ability"])
    if cd is None or cd.marker != "condition" or not target.markers.get(cd.name):
        return None
    return cd.name


def announce(game, target, kind: str, amount: int) -> int:
    """Fire the event before the damage: returns the damage still to deal (0 if prevented)."""
    would = {"prevented": False}
    game.fire("condition_damage", target, Ctx(this=target, it=target), kind=kind, amount=amount, would=would)
    if would["prevented"]:
        game.emit("rule", f"{amount} damage of {kind} to {target.label()} is prevented ({would['prevented']})")
        return 0
    return amount
