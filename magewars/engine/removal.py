"""Removing conditions by paying for them (Codex: Conditions, removal cost).

A condition's codex entry states what one marker costs to remove (`removal N`, `removal X`, or
`removal none`: nothing pays it off).  When the cost is X, the entry says what X is with a
`static set_x(VALUE)` evaluated about the object carrying the marker (Sleep: the sleeper's level).
An entry may also state `static immune(this, "effects that remove conditions")`: no removal effect
takes its markers (Growth).

`remove_condition(OBJECTS[, count: N])` lets the controller of the effect's source pick markers one
at a time (a `remove_condition` decision: a condition, or stop), paying each one's removal cost, up to
`count` (or as many as they wish).  Written about a marker phrase (`a Poison condition on target`),
only the markers the phrase names are offered, and "a"/"the" means one.  `removal_cost([Name])` is
the value of one marker's cost; `remove_paying(OBJECT, kind: K)` is the same choice among the markers
of the condition or category K.

This module adds its effect and value to the engine's tables (`primitives.PRIMITIVES`, `VALUES`)
when it is imported (through engine/addons.py); it names no card or condition.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from ..dsl import selectors as S
from .decisions import Option
from .phrases import Ctx, selector_of
from .primitives import PRIMITIVES, VALUES, NotImplementedPrimitive, _args, _num, _objs, _src, _traits, _word

#: the words of a condition's `static immune(this, "...")` that keep its markers from removal effects
IMMUNE_TO_REMOVAL = "effects that remove conditions"
#: the codex static that says what X is in a condition's `removal X`
SET_X = "set_x"
#: the decision a player answers for each marker they may pay to remove
DECISION = "remove_condition"
STOP = "stop removing conditions"


def _static_calls(entry, name: str):
    for ab in entry.abilities:
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == name:
            yield ab.effect


def immune_to_removal(entry) -> bool:
    """Does the condition's entry keep its markers from every removal effect?"""
    for call in _static_calls(entry, "immune"):
        pos, _ = _args(call)
        if len(pos) > 1 and isinstance(pos[1], A.StringLit) and pos[1].value == IMMUNE_TO_REMOVAL:
            return True
    return False


def removal_cost(game, name: str, carrier) -> Optional[int]:
    """The mana to remove one `name` marker from `carrier`; None when nothing pays it off."""
    entry = game.codex.get(name)
    if entry is None or entry.marker != "condition" or entry.removal is None or immune_to_removal(entry):
        return None
    cost = entry.removal
    if isinstance(cost, int):
        return cost
    calls = list(_static_calls(entry, SET_X))
    if not calls or carrier is None:
        raise NotImplementedPrimitive(f"removal cost X of {name} (its entry states no set_x)")
    x = _num(game, _args(calls[0])[0][0], Ctx(this=carrier, it=carrier))
    return cost.coef * x if isinstance(cost, A.XValue) else x


def _marker_filter(game, phrase):
    """For a marker phrase: (which names it takes, how many at most by its quantifier); else (None, None)."""
    if not isinstance(phrase, A.Phrase):
        return None, None
    sel = selector_of(game, phrase)
    if not isinstance(sel, S.Described) or sel.domain != "marker":
        return None, None

    def fits(name: str) -> bool:
        entry = game.codex.get(name)
        if sel.marker_kind is not None and (entry is None or entry.marker != sel.marker_kind):
            return False
        cats = entry.categories if entry is not None else ()
        return all((name == t.name or t.name in cats) != t.negated for t in sel.names)
    limit = 1 if sel.quantifier in ("one", "the") else sel.count if sel.quantifier == "up_to" else None
    return fits, limit


def p_remove_condition(game, call, ctx):
    pos, kw = _args(call)
    fits, limit = _marker_filter(game, pos[0])
    if "count" in kw:
        limit = _num(game, kw["count"], ctx)
    elif len(pos) > 1:
        limit = _num(game, pos[1], ctx)
    payer = ctx.this.controller if ctx.this is not None else game.state.order[0]
    if "by" in kw:  # the player named (by their Mage) chooses and pays
        who = _objs(game, kw["by"], ctx)
        if not who:
            return
        payer = who[0] if isinstance(who[0], str) else who[0].controller
    _remove_paid(game, pos[0], ctx, fits, limit, payer)


def p_remove_paying(game, call, ctx):
    """`remove_paying(OBJECT, kind: Poison, count: N)`: as remove_condition, only markers of that
    condition or category."""
    pos, kw = _args(call)
    kind = kw.get("kind")
    kind = _word(kind) if kind is not None else None

    def fits(name: str) -> bool:
        entry = game.codex.get(name)
        return kind is None or name == kind or (entry is not None and kind in entry.categories)
    limit = _num(game, kw["count"], ctx) if "count" in kw else None
    payer = ctx.this.controller if ctx.this is not None else game.state.order[0]
    _remove_paid(game, pos[0], ctx, fits, limit, payer)


def _remove_paid(game, what, ctx, fits, limit, payer) -> None:
    """The payer picks markers one at a time among those `fits` allows, paying each removal cost."""
    carriers = []
    for o in _objs(game, what, ctx):  # a marker phrase names its carrier once a marker: once is enough
        if all(c is not o for c in carriers):
            carriers.append(o)
    removed = 0
    for o in carriers:
        while limit is None or removed < limit:
            mana = game.state.players[payer].mana
            opts = []
            for name, n in sorted(o.markers.items()):
                if n <= 0 or (fits is not None and not fits(name)):
                    continue
                cost = removal_cost(game, name, o)
                if cost is not None and cost <= mana:
                    opts.append(Option(f"remove {name} ({cost} mana)", (name, cost)))
            if not opts:
                break
            ch = game.decide("remove_condition", payer, [Option(STOP, None)] + opts,
                             prompt=f"pay to remove a condition from {o.label()} ({_src(ctx)})", default=0)
            if ch.value is None:
                break
            name, cost = ch.value
            p = game.state.players[payer]
            p.mana -= cost
            game.state.remove_marker(o, name, 1)
            removed += 1
            game.emit("condition", f"{payer} pays {cost} mana: 1 {name} removed from {o.label()} ({_src(ctx)})",
                      target=o.id, condition=name, paid=cost)
            game.fire("condition_removed", o, Ctx(this=o, it=o), kind=name, rolled=None)  # paid: no roll
    ctx.extra["last_amount"] = removed
    ctx.extra["succeeded"] = removed > 0
    game.check_state()


def v_removal_cost(game, call, ctx):
    pos, _ = _args(call)
    names = _traits(pos[0])
    if len(names) != 1:
        raise NotImplementedPrimitive("removal_cost of other than one condition")
    carrier = ctx.target or ctx.it or ctx.this
    cost = removal_cost(game, names[0][0], carrier)
    if cost is None:
        raise NotImplementedPrimitive(f"removal_cost of {names[0][0]}, which cannot be removed by paying")
    return cost


PRIMITIVES["remove_condition"] = p_remove_condition
PRIMITIVES["remove_paying"] = p_remove_paying
VALUES["removal_cost"] = v_removal_cost
EFFECTS = ("remove_condition", "remove_paying")
VALUES_ADDED = ("removal_cost",)
