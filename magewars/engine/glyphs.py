"""A Mage's school Glyphs, and using another object's bars for a while.

* `glyph(WHO, School, "active" | "inactive")`: one of the object's Glyphs (one per school) is turned
  face up or face down.  A Glyph starts inactive.  The state is kept on the game per object and school
  (`game.glyphs`); turning a Glyph to the state it is in changes nothing.
* `glyph_active(WHO, School)`: whether that Glyph is active now.
* `static glyphs(WHO, School...)` (on the card of the object that owns them, `this`): the object owns one
  Glyph of each of those schools, inactive at first.  An object that states it has no other Glyph: turning
  one of a school it does not own does nothing (said in the log).  An object that states none is not limited.
* `move_glyph(FROM, TO)`: FROM's controller chooses one of the Glyphs FROM owns and holds now, and places it
  on TO.  A Glyph stays its owner's wherever it is: its owner's abilities still turn it and read it (the
  Elemental Drake: "in the same manner as if it were on" its owner); what holds it matters to what reads
  the Glyphs an object holds (`glyph_schools`).  When what holds it leaves play the Glyph goes back to its
  owner as it is (the card says nothing of it; Glyphs are the Mage's own, never spells in a discard pile).
* `glyph_schools(WHO)`: the schools of the Glyphs the object holds now (its own not placed elsewhere, and
  those placed on it): a `cast_only(..., school_of: glyph_schools(this))` restriction reads them.
* `borrow_bars(WHO, OTHER, until: DURATION)`: WHO may use the action abilities and attack bars of
  OTHER until the duration ends: a temporary effect (Effects: `Derived.borrowed`, the attacks it
  lists; activation.action_ability_sources offers OTHER's `action` abilities to WHO).  An attack made
  with a borrowed bar is WHO's attack, with OTHER as the bar's owner.

The module adds these to the primitives' tables on import (through engine/addons.py); it names no card.
"""
from __future__ import annotations

from ..dsl import ast as A
from .decisions import Option
from .effects import BORROW_BARS
from .primitives import PRIMITIVES, VALUES, NotImplementedPrimitive, _args, _one, _src, _until, _word

GLYPH_STATES = ("active", "inactive")
#: the static stating the Glyphs an object owns
GLYPHS = "glyphs"


def owned(game, obj):
    """The schools of the Glyphs `obj` owns (its card's `static glyphs(this, School...)`), in the order
    stated, or None when its card states none (then it is not limited)."""
    out = None
    for ab in obj.card.abilities:
        if isinstance(ab, A.StaticAbility) and isinstance(ab.effect, A.Call) and ab.effect.name == GLYPHS:
            out = (out or []) + [_word(a.value) for a in ab.effect.args[1:] if not a.key]
    return out


def _holders(game) -> list:
    """[owner, school, holder] of each Glyph placed on another object (objects, not ids: a scenario names
    an object after it was cast)."""
    got = getattr(game, "glyph_holders", None)
    if got is None:
        got = game.glyph_holders = []
    return got


def holder(game, owner, school: str):
    """What holds the owner's Glyph of a school now: the object it was placed on while that is in play,
    else the owner."""
    for o, sc, h in _holders(game):
        if o is owner and sc == school:
            return h if h.in_play else owner
    return owner


def held_schools(game, obj) -> list:
    """The schools of the Glyphs `obj` holds now."""
    out = [sc for sc in (owned(game, obj) or ()) if holder(game, obj, sc) is obj]
    for o, sc, h in _holders(game):
        if h is obj and o is not obj and obj.in_play and sc not in out:
            out.append(sc)
    return out


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
    own = owned(game, who)
    if own is not None and school not in own:
        game.emit("rule", f"{who.label()} has no {school} Glyph ({_src(ctx)}) — no effect")
        return
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


def p_move_glyph(game, call, ctx) -> None:
    pos, _ = _args(call)
    frm = _one(game, pos[0], ctx) if pos else None
    to = _one(game, pos[1], ctx) if len(pos) > 1 else None
    if frm is None or to is None or frm is to or not to.in_play:
        game.emit("rule", f"{_src(ctx)}: no Glyph to move (nothing to move it from or to) — no effect")
        return
    mine = [sc for sc in (owned(game, frm) or ()) if holder(game, frm, sc) is frm]
    if not mine:
        game.emit("rule", f"{_src(ctx)}: {frm.label()} holds none of its Glyphs — no effect")
        return
    active = _state(game).get(frm.id, set())
    school = mine[0] if len(mine) == 1 else game.decide(
        "choose", frm.controller,
        [Option(f"{sc} Glyph ({'active' if sc in active else 'inactive'})", sc) for sc in mine],
        prompt=f"{_src(ctx)}: which Glyph of {frm.label()} to place on {to.label()}", default=0).value
    placed = _holders(game)
    placed[:] = [e for e in placed if not (e[0] is frm and e[1] == school)] + [[frm, school, to]]
    game.emit("effect", f"{frm.label()}'s {school} Glyph ({'active' if school in active else 'inactive'}) is placed "
                        f"on {to.label()} ({_src(ctx)})", target=to.id)


def v_glyph_schools(game, call, ctx) -> list:
    pos, _ = _args(call)
    who = _one(game, pos[0], ctx) if pos else None
    return held_schools(game, who) if who is not None else []


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


PRIMITIVES.update({"glyph": p_glyph, "move_glyph": p_move_glyph, BORROW_BARS: p_borrow_bars})
VALUES["glyph_active"] = v_glyph_active
VALUES["glyph_schools"] = v_glyph_schools
