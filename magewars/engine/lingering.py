"""A spell whose abilities outlast its resolution: `linger(until: DURATION, uses: N)`.

An incantation goes to the discard pile as soon as it resolves, so a `when EVENT` ability printed on
it hears only what happens while it is being cast.  Some spells say what happens later to the object
they were cast on ("after its next activation", "once this round, when it attacks").  Their effect
states `linger(...)`: the spell's own triggered abilities keep listening after it has left play,
`this` still being the spell and `target` the object it was cast on, until

* `until: DURATION` ends (the durations effects end by: "round", "phase", "action_phase"...;
  engine/round.py expire ends the listener with the effects lasting that long), and/or
* its abilities have triggered `uses: N` times (N = 1: the first time it happens, and no more).

Without either it lasts until the end of the round.  A `once per round` ability keeps its limit.
Game.fire asks `listeners` for the abilities of lingering spells beside those of objects in play;
Game.run_trigger calls `triggered` after one of them has run.  The module adds `linger` to the
primitives' table on import (through engine/addons.py); it names no card.
"""
from __future__ import annotations

from typing import Optional

from ..dsl import ast as A
from .cardindex import index as card_index
from .primitives import PRIMITIVES, NotImplementedPrimitive, _args, _duration, _num, _src
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

LINGER = "linger"
#: the events an incantation's abilities hear while it is being cast: no need to linger for them
WHILE_CAST = frozenset({"casting", "cast", "targeted"})


@light_dataclass
class Lingering:
    spell: object  # the spell object (left play)
    target: object  # the object it was cast on, or None
    until: Optional[str]  # duration key (state.ends_at), or None: only `uses` ends it
    uses: Optional[int]  # triggers left, or None
    source: str


def p_linger(game, call, ctx):
    _, kw = _args(call)
    spell = ctx.this
    if spell is None:
        raise NotImplementedPrimitive(LINGER, "no spell to keep listening")
    until = _duration(game, kw["until"], ctx) if "until" in kw else None
    uses = _num(game, kw["uses"], ctx) if "uses" in kw else None
    if until is None and uses is None:
        until = "round"
    game.lingering.append(Lingering(spell, ctx.target, until, uses, _src(ctx)))
    game.state.touch()  # Game._listening keeps listeners per state version
    ends = " or ".join(x for x in ((f"the end of the {until.replace('_', ' ')}" if until else ""),
                                   (f"it has triggered {uses} time(s)" if uses is not None else "")) if x)
    game.emit("effect", f"{_src(ctx)} keeps listening after it resolves"
                        + (f" (about {ctx.target.label()})" if ctx.target is not None else "") + f", until {ends}")


def listeners(game, event: str) -> list:
    """The triggered abilities of lingering spells for `event`, as Game._listening's printed ones."""
    out = []
    for lg in game.lingering:
        for (ab, inner) in card_index(lg.spell.card).triggers.get(event, ()):
            out.append((lg.spell, ab, inner, None, None))
    return out


def target_of(game, spell) -> Optional[object]:
    for lg in game.lingering:
        if lg.spell is spell:
            return lg.target
    return None


def triggered(game, spell) -> None:
    """One of a lingering spell's abilities ran: a listener with `uses:` left counts it down."""
    for lg in list(game.lingering):
        if lg.spell is spell and lg.uses is not None:
            lg.uses -= 1
            if lg.uses <= 0:
                game.lingering.remove(lg)
                game.state.touch()
                game.emit("effect", f"{lg.source} stops listening")


def lingers(defn) -> bool:
    """Does a card's own `effect:` keep its abilities listening (for the coverage report)?"""
    for ab in getattr(defn, "abilities", ()):
        if isinstance(ab, A.OneShotAbility):
            for eff in ab.effects:
                if isinstance(eff, A.Call) and eff.name == LINGER:
                    return True
    return False


PRIMITIVES[LINGER] = p_linger
