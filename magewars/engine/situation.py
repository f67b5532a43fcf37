"""Values about what is happening now: the kind of action under way, and whether an upkeep was paid.

* `action_kind("quick" | "full")`: while a spell is being cast, whether it is cast as a quick or a
  full action (its card's casting action); while an attack is resolved, the action of its attack bar.
  `action_kind("quickcast")` holds only for a spell cast with the quickcast marker; the engine does
  not let other actions use that marker, so for them it is false.
* `upkeep_paid(OBJECT?)`: whether the object's (default: the ability's source's) upkeep was paid in
  this round's Upkeep Phase (engine/primitives.py p_pay_upkeep records each payment on the object).
  Abilities of one player's upkeep are ordered by that player, so an ability reading it runs after
  the payment when the player orders it so.

The module adds these values to the primitives' table on import (through engine/addons.py); it
names no card.
"""
from __future__ import annotations

from .primitives import VALUES, _args, _atk, _one, _word

#: the mark p_pay_upkeep leaves on an object whose upkeep is paid, with the round number
UPKEEP_PAID = "upkeep_paid"
QUICKCAST = "quickcast"


def v_action_kind(game, call, ctx) -> bool:
    pos, _ = _args(call)
    kind = _word(pos[0]).lower() if pos else ""
    cur = ctx.attack
    if cur is None:
        return False
    if getattr(cur, "is_casting", False):
        if kind == QUICKCAST:
            return bool(getattr(cur, "quickcast", False))
        return getattr(cur.card, "action", None) == kind
    atk = _atk(ctx)
    if atk is None or kind == QUICKCAST:
        return False
    return getattr(atk.action.definition, "action", None) == kind


def v_upkeep_paid(game, call, ctx) -> bool:
    pos, _ = _args(call)
    obj = _one(game, pos[0], ctx) if pos else ctx.this
    return obj is not None and (UPKEEP_PAID, game.state.round) in obj.uses


VALUES["action_kind"] = v_action_kind
VALUES["upkeep_paid"] = v_upkeep_paid
VALUES_ADDED = ("action_kind", "upkeep_paid")
