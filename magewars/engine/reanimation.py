"""Reanimating a destroyed creature (Codex: Reanimate).

`reanimate(OBJECTS)` takes a creature that has just been destroyed out of its owner's discard pile:
it waits, face down, in the zone where it was destroyed, and at the end of the round (the End Phase,
after the `at end_of_round` abilities) it is summoned there again as a new object: no damage, no
markers, nothing attached, a new timestamp - then the markers and damage `with:` and `damage:`
name (worked out when it was reanimated) are put on it.  The controller of the card that reanimates it is its
summoner and controls it (Supplement 2016, Codex > Reanimate); it keeps its owner.

A creature still in play, or one that went anywhere but the discard pile (obliterated, back to the
spellbook), cannot be reanimated: the log says so.  The module adds `reanimate` to the primitives'
table on import (through engine/addons.py); it names no card.
"""
from __future__ import annotations

from .primitives import PRIMITIVES, _args, _num, _objs, _src, _traits
from . import movement
from .phrases import Ctx
from .restrictions import forbids
from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text

CREATURE_KINDS = ("creature",)


@light_dataclass
class Waiting:
    """A creature waiting face down to be summoned at the end of the round."""
    oid: str
    card: object
    zone: str
    summoner: str
    owner: str
    source: str
    markers: tuple = ()  # (condition, count) placed as it comes back
    damage: int = 0  # damage it comes back with


def waiting(game) -> list:
    """The creatures waiting to be reanimated this round (kept on the game)."""
    got = getattr(game, "reanimating", None)
    if got is None:
        got = game.reanimating = []
        game.end_of_round_hooks.append(summon_waiting)
    return got


def p_reanimate(game, call, ctx):
    pos, kw = _args(call)
    st = game.state
    for o in _objs(game, pos[0], ctx):
        if o.in_play or o.left_to != "discard" or o.kind not in CREATURE_KINDS or o.zone is None:
            game.emit("rule", f"{o.label()} cannot be reanimated: it is not a creature just destroyed "
                              f"({_src(ctx)})")
            continue
        why = forbids(game, "enter play", o, by=ctx.this)  # `cannot(this, "enter play", except: ...)`
        if why:
            game.emit("rule", f"{o.label()} cannot be reanimated: {why}", target=o.id)
            continue
        if o in st.graveyard:
            st.graveyard.remove(o)
        o.left_to = "reanimating"
        st.touch()
        summoner = ctx.this.controller if ctx.this is not None else o.owner
        sub = Ctx(this=ctx.this, attack=ctx.attack, it=o, target=ctx.target, extra=ctx.extra)
        dmg = _num(game, kw["damage"], sub) if "damage" in kw else 0  # worked out now (its level...)
        marks = tuple(_traits(kw["with"])) if "with" in kw else ()
        waiting(game).append(Waiting(o.id, o.card, o.zone, summoner, o.owner, _src(ctx), marks, dmg))
        game.emit("rule", f"{o.label()} waits face down in {o.zone}: it will be reanimated at the end of the "
                          f"round, summoned by {summoner} ({_src(ctx)})", target=o.id)


def summon_waiting(game) -> None:
    """End Phase: each waiting creature is summoned in the zone where it was destroyed."""
    queue = list(getattr(game, "reanimating", ()))
    if not queue:
        return
    game.reanimating.clear()
    st = game.state
    for w in queue:
        old = st.objects.get(w.oid)
        if old is not None and not old.in_play:
            del st.objects[w.oid]  # the card comes back as a new object under its old name
        if w.oid in st.objects:
            game.emit("rule", f"{w.card.name} [{w.oid}] is not reanimated: its place is taken")
            continue
        obj = game.create(w.card, w.oid, w.summoner, owner=w.owner)
        game.emit("rule", f"{obj.label()} is reanimated ({w.source})", target=obj.id)
        movement.enter_zone(game, obj, w.zone, how="summoned")
        for name, n in w.markers:  # what it comes back with (a Zombie marker...)
            game.place_condition(obj, name, n, w.source)
        if w.damage and obj.in_play:
            game.deal_damage(obj, w.damage, w.source, None)
    game.check_state()


PRIMITIVES["reanimate"] = p_reanimate
EFFECTS = ("reanimate",)
