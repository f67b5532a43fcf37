"""A Mage's school Glyphs, and using another object's bars for a while.

* `glyph(WHO, School, "active" | "inactive")`: one of the object's Glyphs (one per school) is turned
  face up or face down.  A Glyph starts inactive.  The state is kept on the game per object and school
  (`game.glyphs`); turning a Glyph to the state it is in changes nothing.
* `glyph_active(WHO, School)`: whether that Glyph is active now.
* `borrow_bars(WHO, OTHER, until: DURATION)`: WHO may use the action abilities and attack bars of
  OTHER until the duration ends: a temporary effect (Effects: `Derived.borrowed`, the attacks it
  lists; activation.action_ability_sources offers OTHER's `action` abilities to WHO).  An attack made
  with a borrowed bar is WHO's attack, with OTHER as the bar's owner.

The module adds these to the primitives' tables on import (through engine/addons.py); it names no card.
"""
from __future__ import annotations

from ..dsl import ast as A
from .effects import BORROW_BARS
from .primitives import PRIMITIVES, VALUES, NotImplementedPrimitive, _args, _one, _src, _until, _word

GLYPH_STATES = ("active", "inactive")


def _state(game) -> dict:
    got = getattr(game, "glyphs", None)
    if got is None:
        got = game.glyphs = {}
    return got


def p_glyph(game, call, ctx) -> None:
    pos, _ = _args(call)
    who = _one(game, pos[0], ctx) if pos else None
    school = _word(pos[1]) if len(pos) > 1 else ""
    state = _word(pos[2]).strip().lower() if len(pos) > 2 else ""
    if who is None or not school or state not in GLYPH_STATES:
        raise NotImplementedPrimitive("glyph", f"needs an object, a school and one of {GLYPH_STATES}")
    glyphs = _state(game).setdefault(who.id, set())
    if (school in glyphs) == (state == "active"):
        game.emit("rule", f"{who.label()}'s {school} Glyph is {state} already ({_src(ctx)})")
        return
    (glyphs.add if state == "active" else glyphs.discard)(school)
    game.emit("effect", f"{who.label()}'s {school} Glyph turns {state} ({_src(ctx)})", target=who.id)


def v_glyph_active(game, call, ctx) -> bool:
    pos, _ = _args(call)
    who = _one(game, pos[0], ctx) if pos else None
    school = _word(pos[1]) if len(pos) > 1 else ""
    return who is not None and school in _state(game).get(who.id, ())


def p_borrow_bars(game, call, ctx) -> None:
    pos, kw = _args(call)
    who = _one(game, pos[0], ctx) if pos else None
    other = _one(game, pos[1], ctx) if len(pos) > 1 else None
    if who is None or other is None or who is other:
        game.emit("rule", f"{_src(ctx)}: no other object to borrow bars from — no effect")
        return
    if "until" not in kw:
        raise NotImplementedPrimitive("borrow_bars", "no until: duration")
    until = _until(game, kw["until"], ctx, who)
    node = A.Call(BORROW_BARS, (A.Arg(None, A.StringLit(other.id)),))
    ts = game.state.next_timestamp()
    game.effects.temporary.append((ts, _src(ctx), who.id, node, until))
    game.state.touch()
    game.emit("effect", f"{who.label()} may use the action and attack bars of {other.label()} "
                        f"(from {_src(ctx)}, t{ts}, until {_word(kw['until']).replace('_', ' ')})", target=who.id)


PRIMITIVES.update({"glyph": p_glyph, BORROW_BARS: p_borrow_bars})
VALUES["glyph_active"] = v_glyph_active
