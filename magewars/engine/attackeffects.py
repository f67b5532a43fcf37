"""Effects about the attack in hand that attack bars state (registered in primitives.PRIMITIVES).

* `convert_to_critical(N)`: up to N normal faces of the attack dice become critical (the largest
  first, which is what the attacker wants); Damage and Effects counts them so.
* `look_at(PHRASE)`: the controller of the ability looks at a face-down card, which stays face
  down: the log names it to that player only.

Each takes (game, call, ctx) like every primitive; nothing here names a card or a trait.
"""
from __future__ import annotations

from ..dsl import ast as A
from .decisions import Option
from .phrases import CREATURE_KINDS, resolve, selector_of


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


def e_act_as_defender(game, call, ctx) -> None:
    """An object uses its own defenses against the current attack as if it were the defender."""
    atk = _attack(ctx)
    who = _one(game, call.args[0].value, ctx) if call.args else None
    if atk is None or who is None:
        game.emit("rule", f"{_label(ctx)}: no attack or no object to act as the defender — no effect")
        return
    atk.acting_defender = who
    game.emit("rule", f"{who.label()} will defend against this attack with its own defenses "
                      f"(the attack's target stays {atk.target.label()})")


def e_attack_each(game, call, ctx) -> None:
    """`attack_each(OBJECTS, attack: NAME)`: attacks against each object of a set, in the order the
    attacker's controller picks (`up to N`: as many as they like, up to N).  Without `attack:` and
    during an attack, they are more attacks of the current attack action (from its source);
    with it, `this` makes the named attack of its own against each, one attack action."""
    what = call.args[0].value if call.args else None
    kw = {a.key: a.value for a in call.args if a.key}
    name = kw["attack"].value if isinstance(kw.get("attack"), A.StringLit) else None
    objs = [o for o in resolve(game, what, ctx) if not isinstance(o, str)] if isinstance(what, A.Phrase) else []
    sel = selector_of(game, what) if isinstance(what, A.Phrase) else None
    limit = sel.count if sel is not None and getattr(sel, "quantifier", None) == "up_to" else None
    atk = _attack(ctx)
    attacker = atk.attacker if atk is not None and name is None else ctx.this
    if attacker is None:
        game.emit("rule", f"{_label(ctx)}: attack_each has no attacker — no effect")
        return
    if atk is not None and name is None:
        objs = [o for o in objs if o is not atk.target and game.attacks.could_attack(attacker, o, atk)]
    order = []
    while objs and (limit is None or len(order) < limit):
        if len(objs) == 1 and limit is None:
            order.append(objs.pop())
            break
        opts = [Option(o.label(), o) for o in objs] + ([Option("no more")] if limit is not None else [])
        ch = game.decide("target", attacker.controller, opts, prompt=f"next object to attack ({_label(ctx)})",
                         default=0)
        if ch.value is None:
            break
        objs.remove(ch.value)
        order.append(ch.value)
    if not order:
        game.emit("rule", f"{_label(ctx)}: no object to attack — no effect")
        return
    if atk is not None and name is None:
        for t in order:
            game.attacks.chain(atk.action, atk.source, t, atk.action.x)
        return
    game.attacks.attack_each(attacker, name, order)


#: the attacks `enhance_attack(WHO, BAR, which: ...)` may name: which attack of WHO takes on the bar
#: (kind, how long the effect waits, the attack bar must have no damage type and no effect roll)
ENHANCE_WHICH: dict[str, tuple[str, str]] = {
    "next melee this round with no damage type and no effect roll": ("melee", "round"),
}


def e_enhance_attack(game, call, ctx) -> None:
    """The object's next matching attack takes on the damage type, effect roll and traits of an attack
    bar written on this card (AttackEngine.apply_enhance, at Declare Attack)."""
    pos = [a.value for a in call.args if not a.key]
    kw = {a.key: a.value for a in call.args if a.key}
    who = _one(game, pos[0], ctx) if pos else None
    name = pos[1].value if len(pos) > 1 and isinstance(pos[1], A.StringLit) else None
    which = kw.get("which")
    which = which.value if isinstance(which, A.StringLit) else None
    bar = next((b for b in (ctx.this.card.attacks if ctx.this is not None else ()) if b.name == name), None)
    if which not in ENHANCE_WHICH or bar is None:
        game.note_unsupported("enhance_attack", f"{_label(ctx)}: which attack ({which!r}) or bar ({name!r}) "
                                                f"the engine cannot find")
        return
    if who is None:
        game.emit("rule", f"{_label(ctx)}: no object to enhance — no effect")
        return
    kind, _during = ENHANCE_WHICH[which]
    game.attacks.pending_enhance.append({"who": who.id, "bar": bar, "kind": kind, "round": game.state.round,
                                         "src": _label(ctx)})
    game.emit("effect", f"{who.label()}: its {which} takes on {bar.name} ({_label(ctx)})")


#: the attack actions `follow_up_attack(WHO, AFTER, kind: KIND)` may wait for: (its kind, whether a
#: counterstrike counts); the follow-up is an attack of KIND ("quick melee": a quick melee bar)
FOLLOW_AFTER: dict[str, tuple[str, bool]] = {
    "next non-counterstrike melee attack this round": ("melee", False),
}


def e_follow_up_attack(game, call, ctx) -> None:
    """The object, the next time this round it ends a matching attack action, may make one more
    attack of a kind within that action (AttackEngine.follow_up, at the end of the action)."""
    pos = [a.value for a in call.args if not a.key]
    kw = {a.key: a.value for a in call.args if a.key}
    who = _one(game, pos[0], ctx) if pos else None
    after = pos[1].value if len(pos) > 1 and isinstance(pos[1], A.StringLit) else None
    kind = kw.get("kind")
    kind = kind.value if isinstance(kind, A.StringLit) else None
    words = (kind or "").split()
    if after not in FOLLOW_AFTER or len(words) != 2 or words[0] not in ("quick", "full") \
            or words[1] not in ("melee", "ranged"):
        game.note_unsupported("follow_up_attack", f"{_label(ctx)}: attack {after!r} or kind {kind!r} the engine "
                                                  f"cannot read")
        return
    if who is None:
        game.emit("rule", f"{_label(ctx)}: no object — no effect")
        return
    on_kind, counterstrike = FOLLOW_AFTER[after]
    game.attacks.pending_follow.append({"who": who.id, "kind": on_kind, "counterstrike": counterstrike,
                                        "speed": words[0], "attack_kind": words[1],
                                        "round": game.state.round, "src": _label(ctx)})
    game.emit("effect", f"{who.label()}: after its {after} it may make one more {kind} attack ({_label(ctx)})")


def e_next_attack_targets(game, call, ctx) -> None:
    """`next_attack_targets(WHO, N)`: once this round, WHO's quick melee attack made as its full action
    may be made against up to N different objects in its zone (AttackEngine.widen)."""
    pos = [a.value for a in call.args if not a.key]
    who = _one(game, pos[0], ctx) if pos else None
    n = game.evaluate(pos[1], ctx) if len(pos) > 1 else 1
    if who is None:
        game.emit("rule", f"{_label(ctx)}: no object — no effect")
        return
    game.attacks.pending_targets.append({"who": who.id, "count": int(n), "round": game.state.round,
                                         "src": _label(ctx)})
    game.emit("effect", f"{who.label()}: its next quick melee attack made as a full action this round may go "
                        f"against up to {n} objects ({_label(ctx)})")


EFFECTS = {"convert_to_critical": e_convert_to_critical, "next_attack_targets": e_next_attack_targets, "look_at": e_look_at, "enhance_attack": e_enhance_attack,
           "follow_up_attack": e_follow_up_attack,
           "act_as_defender": e_act_as_defender, "attack_each": e_attack_each}


# ---------------------------------------------------------------- values about the attack in hand
#: the actions `able(WHO, ACTION, target: PHRASE)` answers: could WHO make the current attack at the
#: target now (the attack sequence's own legality, AttackEngine.could_attack)
ABLE_ACTIONS: frozenset[str] = frozenset({"attack", "melee_attack", "ranged_attack"})


class UnreadableValue(Exception):
    """A value asked in a form the engine does not answer (reported where the value is read)."""


def _one(game, v, ctx):
    if isinstance(v, A.Phrase):
        got = [o for o in resolve(game, v, ctx) if not isinstance(o, str)]
        return got[0] if got else None
    return None


def v_able(game, call, ctx) -> bool:
    pos = [a.value for a in call.args if not a.key]
    kw = {a.key: a.value for a in call.args if a.key}
    act = pos[1].value if len(pos) > 1 and isinstance(pos[1], A.StringLit) else None
    target = kw.get("target", pos[2] if len(pos) > 2 else None)
    atk = _attack(ctx)
    if act in ABLE_ACTIONS and target is not None and atk is None:
        return _able_now(game, pos[0], act, target, ctx)
    if act not in ABLE_ACTIONS or target is None or atk is None:
        raise UnreadableValue(f"able(...) answers only whether the current attack could be made at a target "
                              f"({', '.join(sorted(ABLE_ACTIONS))}, target:)")
    who, obj = _one(game, pos[0], ctx), _one(game, target, ctx)
    if who is None or obj is None or who is not atk.attacker:
        return False
    kind = act.split("_")[0] if act != "attack" else None
    if kind is not None and kind not in atk.kinds():
        return False
    return game.attacks.could_attack(who, obj, atk)


def _able_now(game, who_phrase, act: str, target, ctx) -> bool:
    """Outside an attack: could the creature now make an attack of this kind (one of its melee or ranged
    attack actions) on an object the phrase names?  Each is probed with the attack sequence's own
    legality check, as the Action Phase probes the attacks it offers."""
    from .attack import Attack, AttackAction
    who = _one(game, who_phrase, ctx)
    if who is None or who.kind not in CREATURE_KINDS or not who.in_play:
        return False
    objs = [o for o in resolve(game, target, ctx) if not isinstance(o, str) and o is not who]
    kind = act.split("_")[0] if act != "attack" else None
    for (adef, _src_id) in game.d(who).attacks:
        if adef.kind not in ("melee", "ranged") or (kind is not None and adef.kind != kind) or adef.is_zone \
                or any(s in adef.special for s in ("counterstrike", "barrier", "passage", "bash")):
            continue
        action = AttackAction(who, adef, who, tuple(adef.traits), adef.kind)
        if any(game.attacks.illegal_reason(Attack(action, who, who, o)) is None for o in objs):
            return True
    return False


def v_redirected_to(game, call, ctx) -> bool:
    atk = _attack(ctx)
    obj = _one(game, call.args[0].value, ctx) if call.args else None
    return atk is not None and obj is not None and atk.redirected and atk.target is obj


def v_defended_by(game, call, ctx) -> bool:
    """Was the current attack avoided with a defense of this object (its own, or one it grants)?"""
    atk = _attack(ctx)
    obj = _one(game, call.args[0].value, ctx) if call.args else None
    if atk is None or obj is None or not atk.defended_by:
        return False
    oid, key = atk.defended_by
    return oid == obj.id or str(key).startswith(f"{obj.label()}#")


VALUES = {"able": v_able, "redirected_to": v_redirected_to, "defended_by": v_defended_by}
