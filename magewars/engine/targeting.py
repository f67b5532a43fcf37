"""Choosing the target of an ability that is not a spell (Rules: targets of abilities).

A spell's target is declared when it is cast (engine/casting.py); an `action` ability, a triggered
ability or a timed one that names `target ...` in its effects has no declared target.  When such an
effect runs and nothing has been chosen yet, the controller of the ability's source chooses one
object (or zone) in its line of sight among those the phrase describes, as a `target` decision; the choice is kept in the
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
    # `each ... in target zone` of an ability: the zone is its target, unless one was declared (a spell
    # cast on a zone carries it in ctx.extra["targets"])
    if isinstance(sel, S.Described) and not ctx.extra.get("targets"):
        for rel in sel.relations:
            inner = getattr(rel, "zone", None)
            if isinstance(inner, S.Described) and inner.quantifier == "target" and inner.domain == "zone":
                return inner
    return None


def _in_sight(game, src, target) -> bool:
    """Rules (Targeting): whatever targets must have line of sight to the target.  The source's own
    place is the point of view (an attachment sees from its host's zone); an ability of an object no
    longer in play (a destroyed creature's last word) is not checked."""
    if src is None or not getattr(src, "in_play", False) or game.state.zone_of(src) is None:
        return True
    from .movement import in_los
    return in_los(game, src, target)


def choose_target(game, sel: S.Described, ctx: Ctx, sight: bool = True):
    """Ask the ability's controller for its target among what the description fits; None if nothing does.
    `sight=False`: a target that needs no line of sight (the zone a teleport goes to)."""
    src = ctx.this
    pool = [o for o in resolve(game, replace(sel, quantifier="each"), ctx)
            if (isinstance(o, str) or (getattr(o, "in_play", False) and not getattr(o, "hidden", False)))
            and (not sight or _in_sight(game, src, o))]
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
