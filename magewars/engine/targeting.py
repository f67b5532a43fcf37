"""Choosing the target of an ability that is not a spell (Rules: targets of abilities).

A spell's target is declared when it is cast (engine/casting.py); an `action` ability, a triggered
ability or a timed one that names `target ...` in its effects has no declared target.  When such an
effect runs and nothing has been chosen yet, the controller of the ability's source chooses one
object (or zone) among those the phrase describes, as a `target` decision; the choice is kept in the
ability's context, so later effects of the same ability (`heal(target, 1)`) mean the same object.
No candidate: the effect finds nothing to act on (and says so).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..dsl import ast as A
from ..dsl import selectors as S
from .decisions import Option
from .phrases import Ctx, resolve, selector_of


def needs_choice(game, phrase, ctx: Ctx) -> Optional[S.Described]:
    """The description to choose from, when `phrase` is an undeclared `target ...` of an ability."""
    if ctx.target is not None or ctx.extra.get("probe") or not isinstance(phrase, A.Phrase):
        return None
    sel = selector_of(game, phrase)
    if isinstance(sel, S.Described) and sel.quantifier == "target" and sel.domain in ("object", "zone"):
        return sel
    if isinstance(sel, S.Described) and not ctx.extra.get("targets"):  # `each ... in target zone` of an ability
        for rel in sel.relations:
            inner = getattr(rel, "zone", None)
            if isinstance(inner, S.Described) and inner.quantifier == "target" and inner.domain == "zone":
                return inner
    return None


def choose_target(game, sel: S.Described, ctx: Ctx):
    """Ask the ability's controller for its target among what the description fits; None if nothing does."""
    pool = [o for o in resolve(game, replace(sel, quantifier="each"), ctx)
            if isinstance(o, str) or (getattr(o, "in_play", False) and not getattr(o, "hidden", False))]
    src = ctx.this
    if not pool:
        game.emit("rule", f"no legal target for '{sel.text}'" + (f" ({src.label()})" if src is not None else ""))
        return None
    player = src.controller if src is not None else game.state.order[0]
    opts = [Option(o if isinstance(o, str) else o.label(), o) for o in pool]
    got = opts[0] if len(opts) == 1 else game.decide(
        "target", player, opts, prompt=f"target of {src.label() if src is not None else 'an ability'}: {sel.text}",
        default=0)
    game.emit("rule", f"{src.label() if src is not None else 'the ability'} targets {got.label}")
    ctx.target = got.value
    return got.value
