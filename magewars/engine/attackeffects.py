"""Effects about the attack in hand that attack bars state (registered in primitives.PRIMITIVES).

* `convert_to_critical(N)`: up to N normal faces of the attack dice become critical (the largest
  first, which is what the attacker wants); Damage and Effects counts them so.
* `look_at(PHRASE)`: the controller of the ability looks at a face-down card, which stays face
  down: the log names it to that player only.

Each takes (game, call, ctx) like every primitive; nothing here names a card or a trait.
"""
from __future__ import annotations

from ..dsl import ast as A
from .phrases import resolve


def _attack(ctx):
    atk = ctx.attack
    return None if atk is None or getattr(atk, "is_casting", False) else atk


def _label(ctx) -> str:
    label = ctx.extra.get("label")
    if label:
        return label
    return ctx.this.label() if ctx.this is not None else "an effect"


def e_convert_to_critical(game, call, ctx) -> None:
    atk = _attack(ctx)
    if atk is None:
        game.emit("rule", f"{_label(ctx)}: no attack is being resolved — no effect")
        return
    n = game.evaluate(call.args[0].value, ctx) if call.args else 0
    if not isinstance(n, int) or isinstance(n, bool):
        game.note_unsupported("convert_to_critical", f"{_label(ctx)}: {n!r} is not a number")
        return
    atk.to_critical += max(0, n)
    game.emit("rule", f"{_label(ctx)}: up to {n} normal die result(s) of this attack count as critical")


def e_look_at(game, call, ctx) -> None:
    what = call.args[0].value if call.args else None
    got = [o for o in resolve(game, what, ctx) if not isinstance(o, str)] if isinstance(what, A.Phrase) else []
    viewer = ctx.this.controller if ctx.this is not None else None
    if not got:
        game.emit("info", f"{_label(ctx)}: nothing to look at")
        return
    for o in got:
        game.emit("look", f"{viewer} looks at {o.label()} (it stays face down)", secret_for=viewer,
                  public_text=f"{viewer} looks at {o.public_label()}", target=o.id)


EFFECTS = {"convert_to_critical": e_convert_to_critical, "look_at": e_look_at}
