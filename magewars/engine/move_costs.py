"""Extra mana a move action costs (Rules: Move Action, step 2 Pay Costs).

A card in play may state `static action_cost(PHRASE, "move", N)`: each move action of an object the
phrase names costs its controller N more mana, paid in the Pay Costs step of the move, once per move
action (a teleport, a push or a move made by an effect is no move action and costs nothing).  A move
its controller cannot pay for is not offered; one declared anyway is canceled at Pay Costs and its move
action is lost.  engine/movement.py asks `unpaid_reason` as it lists the moves and in its Pay Costs step
(pay_costs), which then calls `pay`.

`static action_cost(PHRASE, "teleport", N)` is the same for a teleport an object makes in place of a
move action (a `can(WHO, "teleport", instead_of: "move")` permission): each costs N mana, and one its
controller cannot pay for is not offered (engine/movement.py teleport_moves and teleport_move).
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from .phrases import Ctx, matches

CALL = "action_cost"
#: the rule a move refused for its cost names
RULE = "Rules: Move Action (step 2, Pay Costs)"
MOVE = "move"
#: a teleport made in place of a move action
TELEPORT = "teleport"
ACTIONS = (MOVE, TELEPORT)


def reads(call: A.Call, action: Optional[str] = None) -> bool:
    """Is this `static action_cost(PHRASE, "move"|"teleport", N)` (of that action, when given), a form
    this module applies?"""
    if call.name != CALL or len(call.args) < 3:
        return False
    act = call.args[1].value
    return isinstance(act, A.StringLit) and act.value in ((action,) if action else ACTIONS) \
        and isinstance(call.args[0].value, A.Phrase)


def costs(game, obj, action: str = MOVE) -> list[tuple]:
    """(source, amount) of each cost of that action (a move action, or a teleport in place of one) that
    applies to `obj` now."""
    out = []
    for src, ab in game.effects.statics_in_play(CALL):  # (face-up cards in play, in order)
        call = ab.effect
        if not reads(call, action):
            continue
        ctx = Ctx(this=src)
        if ab.guard is not None and not game.evaluate(ab.guard, ctx):
            continue
        if matches(game, obj, call.args[0].value, ctx):
            n = game.evaluate(call.args[2].value, ctx)
            if isinstance(n, int) and n > 0:
                out.append((src, n))
    return out


def unpaid_reason(game, obj, action: str = MOVE) -> Optional[str]:
    """Why the controller cannot pay for a move action of `obj` now (None: they can, or it is free)."""
    got = costs(game, obj, action)
    if not got:
        return None
    total = sum(n for _, n in got)
    mana = game.state.players[obj.controller].mana if obj.controller in game.state.players else 0
    if total > mana:
        who = ", ".join(src.label() for src, _ in got)
        what = "a move action" if action == MOVE else f"a {action} in place of a move action"
        return f"{what} of {obj.label()} costs {total} mana ({who}); its controller has {mana}"
    return None


def pay(game, obj, action: str = MOVE) -> int:
    """Pay the move costs of one move action (step 2 of the move), or of a teleport in place of one."""
    total = 0
    for src, n in costs(game, obj, action):
        p = game.state.players[obj.controller]
        p.mana -= n
        total += n
        game.state.touch()
        game.emit("mana", f"{p.name} pays {n} mana for {obj.label()}'s {action} ({src.label()}; now {p.mana})",
                  player=p.name, amount=n, source=src.id)
    return total
