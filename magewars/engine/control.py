"""Control changed by a card in play: `static gain_control(WHO, OBJECTS)`.

While the card carrying the static is face up in play (and its guard holds), the player WHO names
(their Mage, or `controller`) controls the objects.  When it stops applying (the card leaves play, is
turned face down, the guard fails), each object goes back to the player who controlled it before.
`reconcile` is run by the state check (Game.check_state), so every change of state is followed by the
control it implies.  Nothing here names a card.
"""
from __future__ import annotations

from .cardindex import index as card_index
from .errors import secret_keywords
from .phrases import Ctx, resolve

GAIN_CONTROL = "gain_control"


def _player(game, v, ctx):
    for x in resolve(game, v, ctx):
        if isinstance(x, str) and x in game.state.players:
            return x
        if not isinstance(x, str):
            return x.controller
    return None


def wanted(game) -> dict:
    """object id -> (player, source object) for every `static gain_control` that applies now."""
    out = {}
    for src in game.state.in_play():
        if src.hidden:
            continue
        for inner, _once in card_index(src.card).static_calls.get(GAIN_CONTROL, ()):
            ctx = Ctx(this=src, it=src)
            if inner.guard is not None and not game.evaluate(inner.guard, ctx):
                continue
            args = [a.value for a in inner.effect.args if not a.key]
            if len(args) < 2:
                continue
            player = _player(game, args[0], ctx)
            if player is None:
                continue
            for o in resolve(game, args[1], ctx):
                if not isinstance(o, str) and o is not src:
                    out[o.id] = (player, src)
    return out


def _any_gain_control(game) -> bool:
    """Is a face-up card in play stating `static gain_control`?  Kept per fingerprint (which cards are in
    play and face up is fingerprinted: Effects.for_shape): the state check asks at every change of the state."""
    return game.effects.for_shape(GAIN_CONTROL, lambda: _states_gain_control(game))


def _states_gain_control(game) -> bool:
    indexed = card_index.table  # (cardindex.per_definition's table, read without a call per object)
    for o in game.state.objects.values():
        if o.in_play and not o.hidden:
            ci = indexed.get(id(o.card))
            if GAIN_CONTROL in (ci if ci is not None else card_index(o.card)).static_calls:
                return True
    return False


def reconcile(game) -> bool:
    """Give each object to the player a static says controls it, and back when none does.  Returns
    whether anything changed."""
    taken = game.taken_control  # object id -> the controller it had before
    if not taken and not _any_gain_control(game):
        return False  # no control taken, and nothing in play states gain_control: nothing to give or give back
    want = wanted(game)
    changed = False
    for oid, (player, src) in want.items():
        obj = game.state.objects[oid]
        if obj.controller != player:
            taken.setdefault(oid, obj.controller)
            obj.controller = player
            changed = True
            game.emit("effect", f"{player} takes control of {obj.label()} ({src.label()})", target=oid,
                      **secret_keywords(obj, f"{player} takes control of {obj.public_label()}"))
    for oid in [i for i in taken if i not in want]:
        before = taken.pop(oid)
        obj = game.state.objects.get(oid)
        if obj is not None and obj.in_play and obj.controller != before:
            obj.controller = before
            changed = True
            game.emit("effect", f"{before} controls {obj.label()} again", target=oid,
                      **secret_keywords(obj, f"{before} controls {obj.public_label()} again"))
    if changed:
        game.state.touch()
    return changed
