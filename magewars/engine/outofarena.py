"""Objects out of the arena: `remove_from_arena(OBJECTS, tokens: NAME, count: N)`.

The object leaves the arena but stays in play: it is in no zone, so nothing measures a range or a
line of sight to it, no attack or spell can reach it, zone effects pass it by, and it takes no action
(the Action Phase activates only creatures in a zone; its action marker stays as it was).  What is
attached to it, its markers and its own traits and abilities still apply to it.

Leaving the arena is a teleport: an object that cannot be teleported out of its zone stays.
With `tokens:`, N tokens of that name are placed on it; at each Upkeep Phase (after the upkeep effects)
one is removed, and when the last goes it comes back into the zone it left (it enters that zone; it
does not move there).  The game keeps who is out and where from (`game.out_of_arena`).  The module adds
`remove_from_arena` to the primitives' table on import (through engine/addons.py); it names no card.
"""
from __future__ import annotations

from .primitives import PRIMITIVES, _args, _num, _objs, _src, _word
from . import movement


def _out(game) -> dict:
    got = getattr(game, "out_of_arena", None)
    if got is None:
        got = game.out_of_arena = {}
        game.upkeep_hooks.append(upkeep)
    return got


def p_remove_from_arena(game, call, ctx) -> None:
    pos, kw = _args(call)
    token = _word(kw["tokens"]) if "tokens" in kw else None
    count = _num(game, kw["count"], ctx) if "count" in kw else 1
    for o in _objs(game, pos[0], ctx):
        zone = game.state.zone_of(o)
        if not o.in_play or zone is None or o.zone is None:
            game.emit("rule", f"{o.label()} is not in a zone of the arena: it cannot be removed from it")
            continue
        # it goes as a teleport would: what forbids teleporting it out of its zone keeps it there
        who = movement.restriction(game, o, movement.CANNOT_TELEPORTED, here=zone, dest=zone)
        if who:
            game.emit("rule", f"{o.label()} cannot be teleported out of {zone} ({who}): it stays ({_src(ctx)})",
                      target=o.id)
            continue
        _out(game)[o.id] = (zone, token)
        o.zone = None
        if token:
            game.state.add_marker(o, token, count)
        game.state.touch()
        game.emit("effect", f"{o.label()} leaves the arena ({_src(ctx)})"
                            + (f" with {count} {token} token(s)" if token else ""), target=o.id, zone=zone)
    game.check_state()


def upkeep(game) -> None:
    """Upkeep Phase: one token comes off each object out of the arena; with the last it comes back."""
    out = getattr(game, "out_of_arena", {})
    for oid, (zone, token) in list(out.items()):
        o = game.state.objects.get(oid)
        if o is None or not o.in_play:
            out.pop(oid, None)
            continue
        if not token:
            continue
        if o.markers.get(token, 0):
            game.state.remove_marker(o, token, 1)
            game.emit("rule", f"1 {token} token comes off {o.label()} ({o.markers.get(token, 0)} left)", target=oid)
        if not o.markers.get(token, 0):
            out.pop(oid)
            movement.enter_zone(game, o, zone, how="comes back into the arena")
            game.check_state()


PRIMITIVES["remove_from_arena"] = p_remove_from_arena
