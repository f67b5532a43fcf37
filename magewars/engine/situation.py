"""Values about what is happening now: the kind of action under way, and whether an upkeep was paid.

* `action_kind("quick" | "full")`: while a spell is being cast, whether it is cast as a quick or a
  full action (its card's casting action); while an attack is resolved, the action of its attack bar.
  `action_kind("quickcast")` holds for a spell cast with the quickcast marker, and for an attack made
  with it (a Mage a `can(WHO, "attack", during: "quickcast")` permits: activation.quickcast_attacks).
* `random_target(PHRASE?)`: a legal target of the attack being resolved (any object the attacker could
  attack with it, the present target included, itself never; of those fitting the phrase, if given),
  picked by the effect die: the roll r of 12 picks candidate number (r - 1) * n // 12, so a scenario
  can script it.
* `could_attach(WHAT, TO)`: whether the spell WHAT could now be cast on TO: TO fits its target phrase,
  can be targeted by its controller's spells (casting.legal_target) and is not immune to it.
* `had(OBJECT, [Traits])`: whether the object had these traits just before the event being answered
  (Game.place_condition hands them to condition_placed abilities); asked elsewhere, it is refused.
* `paid(OBJECT?)`: whether the object (default: the ability's source) paid tokens or mana during the
  attack being resolved (primitives._note_paid records it on the attack): an optional cost was paid.
* `cost_on(SPELL, OBJECT)`: the spell's full cost (casting plus reveal) as if it were cast on the
  object: its own traits (Magebind on a Mage...) are asked with the object as their host.
* `upkeep_paid(OBJECT?)`: whether the object's (default: the ability's source's) upkeep was paid in
  this round's Upkeep Phase (engine/primitives.py p_pay_upkeep records each payment on the object).
  Abilities of one player's upkeep are ordered by that player, so an ability reading it runs after
  the payment when the player orders it so.

The module adds these values to the primitives' table on import (through engine/addons.py); it
names no card.
"""
from __future__ import annotations

from .attack import Attack
from .casting import legal_target
from .phrases import matches
from .primitives import VALUES, NotImplementedPrimitive, _args, _atk, _cost_of, _one, _traits, _word

#: the mark p_pay_upkeep leaves on an object whose upkeep is paid, with the round number
UPKEEP_PAID = "upkeep_paid"
QUICKCAST = "quickcast"


def v_action_kind(game, call, ctx) -> bool:
    pos, _ = _args(call)
    kind = _word(pos[0]).lower() if pos else ""
    cur = ctx.attack
    if cur is None:
        return False
    if getattr(cur, "is_casting", False):
        if kind == QUICKCAST:
            return bool(getattr(cur, "quickcast", False))
        return getattr(cur.card, "action", None) == kind
    atk = _atk(ctx)
    if atk is None:
        return False
    if kind == QUICKCAST:  # an attack made with the quickcast marker (activation.quickcast_attacks)
        return bool(getattr(atk.action, "quickcast", False))
    return getattr(atk.action.definition, "action", None) == kind


def v_upkeep_paid(game, call, ctx) -> bool:
    pos, _ = _args(call)
    obj = _one(game, pos[0], ctx) if pos else ctx.this
    return obj is not None and (UPKEEP_PAID, game.state.round) in obj.uses


def v_random_target(game, call, ctx):
    pos, _ = _args(call)
    atk = _atk(ctx)
    if atk is None:
        return None
    cands = []
    for o in game.state.in_play():
        if o is atk.attacker or o.hidden or game.life(o) is None:
            continue
        if pos and not matches(game, o, pos[0], ctx):
            continue
        probe = Attack(atk.action, atk.attacker, atk.source, o)
        if game.attacks.illegal_reason(probe) is None:
            cands.append(o)
    if not cands:
        game.emit("rule", "no legal target to pick at random")
        return None
    roll = game.dice.d12()
    got = cands[(roll - 1) * len(cands) // 12]
    game.emit("roll", f"random target among {len(cands)} ({', '.join(o.label() for o in cands)}): "
                      f"effect die {roll} picks {got.label()}", d12=roll, purpose="random target")
    return got


def v_could_attach(game, call, ctx) -> bool:
    pos, kw = _args(call)
    what = _one(game, pos[0], ctx) if pos else None
    to = _one(game, kw.get("to", pos[1] if len(pos) > 1 else None), ctx)
    if what is None or to is None:
        return False
    caster = game.state.mage_of(what.controller) or what
    return legal_target(game, caster, what.card, to, what) is None and not game.immune_to_source(to, what)


def v_had(game, call, ctx) -> bool:
    pos, _ = _args(call)
    had = ctx.extra.get("had")
    if had is None:
        raise NotImplementedPrimitive("had() outside an event that records what the object had")
    return all(name in had for name, _n in _traits(pos[1] if len(pos) > 1 else None))


def v_paid(game, call, ctx) -> bool:
    pos, _ = _args(call)
    obj = _one(game, pos[0], ctx) if pos else ctx.this
    atk = ctx.attack
    return obj is not None and atk is not None and obj.id in (getattr(atk, "paid_by", None) or ())


def v_cost_on(game, call, ctx) -> int:
    pos, kw = _args(call)
    what = _one(game, pos[0], ctx) if pos else None
    on = _one(game, kw.get("on", pos[1] if len(pos) > 1 else None), ctx)
    if what is None:
        return 0
    if on is None or on is what:
        return _cost_of(game, what)
    saved = (what.attached_to, what.attached_zone)
    what.attached_to, what.attached_zone = on.id, None  # asked as if it were on the object
    game.state.touch()
    try:
        return _cost_of(game, what)
    finally:
        what.attached_to, what.attached_zone = saved
        game.state.touch()


VALUES["action_kind"] = v_action_kind
VALUES["cost_on"] = v_cost_on
VALUES["paid"] = v_paid
VALUES["had"] = v_had
VALUES["could_attach"] = v_could_attach
VALUES["random_target"] = v_random_target
VALUES["upkeep_paid"] = v_upkeep_paid
VALUES_ADDED = ("action_kind", "cost_on", "could_attach", "had", "paid", "random_target", "upkeep_paid")
