"""Costs of `action` abilities other than mana and the action itself (Rules: Action abilities).

An action ability's costs may hold effect calls: `remove_tokens(enchanted, Valor, 1)` is paid before
the ability's effects run, and the ability is offered only when it can be paid.  One such cost is
`spend_action(WHO, KIND)`: the ability is used as the quick or full action (KIND) of a creature that
fits WHO, during that creature's own activation.  The ability's card need not be that creature: a
conjuration (a well, an altar) or another creature offers the ability to each friendly creature that
fits, and `it` in the effects is the creature that spent its action.  `spend_action(this, "move")`
spends the creature's move instead of its action (the ability replaces a move).

Nothing here names a card; engine/activation.py asks `offered` and `can_pay`, engine/round.py asks
`pay` and `spends_move`.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from .cardindex import per_definition
from .decisions import Option
from .phrases import Ctx, matches
from .primitives import PRIMITIVES, _args, _num, _objs, _src, _word, run_effect

SPEND = "spend_action"
#: the kinds of action a `spend_action` cost may spend: the activation's quick or full action, or a move
SPEEDS = ("quick", "full")
MOVE = "move"


def _inner(ab):
    return ab.ability if isinstance(ab, A.OncePerRound) else ab


def spend_cost(ab) -> Optional[A.Call]:
    inner = _inner(ab)
    for c in getattr(inner, "costs", ()):
        if isinstance(c, A.Call) and c.name == SPEND:
            return c
    return None


@per_definition
def _spend_costs(card) -> tuple:
    """(ability index, its `spend_action` cost) of each ability of a card that has one: read once per
    card (`offered` asks it of every friendly card in play at each decision; most have none)."""
    return tuple((i, call) for i, ab in enumerate(card.abilities) if (call := spend_cost(ab)) is not None)


def _is_this(phrase) -> bool:
    return isinstance(phrase, A.Phrase) and [w.text.lower() for w in phrase.words] == ["this"]


def spend_kind(call: A.Call) -> str:
    pos, kw = _args(call)
    v = kw.get("kind", pos[1] if len(pos) > 1 else None)
    return _word(v) if v is not None else "quick"


def spender_fits(game, src, call: A.Call, creature) -> bool:
    pos, _ = _args(call)
    if not pos:
        return False
    if _is_this(pos[0]):
        return creature is src
    return creature is not src and creature.kind == "creature" and matches(game, creature, pos[0], Ctx(this=src))


def spends_move(ab) -> bool:
    c = spend_cost(ab)
    return c is not None and spend_kind(c) == MOVE


def offered(game, creature, speeds: tuple, moves_left: bool) -> list[tuple]:
    """(source, ability index, speed) of every ability a `spend_action` cost lets this creature use now:
    abilities of friendly objects in play (the creature's own too, when the cost names `this`)."""
    out = []
    for src in game.state.in_play():
        if src.hidden or src.controller != creature.controller:
            continue
        for i, call in _spend_costs(src.card):
            if not spender_fits(game, src, call, creature):
                continue
            kind = spend_kind(call)
            if kind == MOVE:
                if not moves_left:
                    continue
            elif kind not in speeds:
                continue
            out.append((src, i, kind))
    return out


def can_pay(game, src, actor, ab) -> bool:
    """Can the ability's call costs be paid now?  (Tokens to remove must be there.)"""
    for c in getattr(_inner(ab), "costs", ()):
        if not isinstance(c, A.Call) or c.name == SPEND:
            continue
        if c.name == "remove_tokens":
            pos, kw = _args(c)
            ctx = Ctx(this=src, it=actor, extra={"probe": True})
            n = _num(game, kw.get("count", pos[2] if len(pos) > 2 else 1), ctx)
            name = pos[1].text if isinstance(pos[1], A.Phrase) else str(pos[1])
            holders = _objs(game, pos[0], ctx)
            if not holders or any(h.markers.get(name, 0) < n for h in holders):
                return False
    return True


def pay(game, src, actor, ab, ctx: Ctx) -> None:
    """Pay the ability's call costs, in order, before its effects (the creature that spends its action
    is `it` for them)."""
    for c in getattr(_inner(ab), "costs", ()):
        if not isinstance(c, A.Call):
            continue
        if c.name == SPEND:
            kind = spend_kind(c)
            game.emit("action", f"{actor.label()} spends its {kind} {'' if kind == MOVE else 'action '}on "
                                f"{src.label()}'s ability", target=actor.id, source=src.id)
            ctx.it = actor
            continue
        run_effect(game, c, ctx)


def p_spend_action(game, call, ctx):
    """As an effect (not a cost): a ready creature fitting the phrase, chosen by the source's controller,
    uses up its action for this round (its action marker turns to its used side)."""
    pos, _ = _args(call)
    ready = [o for o in _objs(game, pos[0], ctx) if o.kind == "creature" and o.action_marker == "ready"]
    if not ready:
        game.emit("rule", f"no creature can spend its action ({_src(ctx)})")
        ctx.extra["succeeded"] = False
        return
    who = ready[0] if len(ready) == 1 else game.decide(
        "target", ctx.this.controller if ctx.this is not None else ready[0].controller,
        [Option(o.label(), o) for o in ready], prompt=f"which creature spends its action? ({_src(ctx)})",
        default=0).value
    who.action_marker = "used"
    game.state.touch()
    ctx.it = who
    game.emit("action", f"{who.label()} spends its {spend_kind(call)} action ({_src(ctx)})", target=who.id)


PRIMITIVES[SPEND] = p_spend_action
EFFECTS = (SPEND,)
