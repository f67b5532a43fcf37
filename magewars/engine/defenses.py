"""Defense rolls in the Avoid Attack step: which object's defenses answer an attack and what
modifies the roll (engine/attack.py AvoidAttack reads this module).

* The defender is the attack's target, unless an effect made another object act as the defender
  for this attack (`act_as_defender(WHO, defense_of: OBJ)`: WHO uses its own defenses; the attack's
  target does not change).
* A defense roll is modified by the attack's own modifiers (`modify_defense_roll(N)` resolved during
  the attack, e.g. by a condition at this step), by `defense_bonus(OBJ, N, until: ...)` effects on the
  defending object (kept as temporary effects until their duration ends), and by the statics
  `[if COND] [may] modify_defense_roll(N)` of cards in play: a creature's own static modifies its own
  defense rolls, an attached card's (equipment, enchantment) those of the object it is attached to.

Nothing here names a card or a trait.
"""
from __future__ import annotations

from ..dsl import ast as A
from .cardindex import index as card_index
from .phrases import Ctx, PRONOUNS, matches, resolve

#: `static CALL(...)` forms read here when a defense is rolled
STATIC_CALLS: frozenset[str] = frozenset({"modify_defense_roll"})
#: temporary effects (Effects.temporary entries holding the call) read here
TEMPORARY_CALLS: frozenset[str] = frozenset({"defense_bonus"})


def matches_phrase(game, obj, phrase, ctx) -> bool:
    """Does `obj` fit the phrase (a pronoun such as `this` or `bearer` resolved in `ctx`)?"""
    if len(phrase.words) == 1 and phrase.words[0].text.lower() in PRONOUNS:
        return any(o is obj for o in resolve(game, phrase, ctx))
    return matches(game, obj, phrase, ctx)


def defending_object(game, atk):
    """The object whose defenses answer the attack (the target, or one acting as the defender)."""
    who = getattr(atk, "acting_defender", None)
    return who if who is not None and who.in_play else atk.target


def _static_body(eff):
    """The call of a static, looking through `may` (a bonus its controller always takes)."""
    if isinstance(eff, A.OptionalEffect) and len(eff.body) == 1:
        return eff.body[0]
    return eff


def rolls_alone(game, source) -> bool:
    """A defense given by an object carrying a trait whose codex entry states `static rolls_alone(this)`
    (Autonomous equipment): its rolls are its own, untouched by the modifiers of the creature's cards."""
    return source is not None and any(game.codex_statics(t, "rolls_alone") for t in game.d(source).traits)


def roll_modifiers(game, atk, defender, source=None) -> list:
    """(label, amount) for every modifier of a defense roll made by `defender` against `atk` (with the
    defense of `source`: one that rolls alone takes only the attack's own modifiers)."""
    mods = list(atk.defense_mods)
    if source is not None and source is not defender and rolls_alone(game, source):
        return mods
    for (_ts, label, oid, node, _until) in game.effects.temporary:
        if oid == defender.id and isinstance(node, A.Call) and node.name in TEMPORARY_CALLS:
            args = [a.value for a in node.args if not a.key]
            n = game.evaluate(args[1], Ctx(this=defender)) if len(args) > 1 else 0
            if n:
                mods.append((label, n))
    for src in game.state.in_play():
        if src.hidden:
            continue
        host = src if src.attached_to is None else game.state.objects.get(src.attached_to)
        if host is not defender:
            continue
        for ab in card_index(src.card).statics:
            call = _static_body(ab.effect)
            if not (isinstance(call, A.Call) and call.name in STATIC_CALLS and call.args):
                continue
            ctx = Ctx(this=src, attack=atk, it=defender, target=atk.target)
            try:
                if ab.guard is not None and not game.evaluate(ab.guard, ctx):
                    continue
                n = game.evaluate(call.args[0].value, ctx)
            except Exception as e:  # a condition the engine cannot read: say so, never guess
                game.note_unsupported(f"static modify_defense_roll of {src.card.name}", str(e), src=src)
                continue
            if n:
                mods.append((src.label(), n))
    return mods


#: `static action_cost(PHRASE, "defense", N)`: each use of a defense of an object the phrase names costs
#: its controller N more mana, paid when the defense is chosen, before the roll; a defense its controller
#: cannot pay for is not offered
ACTION_COST = "action_cost"
DEFENSE_ACTION = "defense"


def _is_defense_cost(call) -> bool:
    if not (isinstance(call, A.Call) and call.name == ACTION_COST and len(call.args) == 3) \
            or any(a.key for a in call.args):
        return False
    who, act = call.args[0].value, call.args[1].value
    return isinstance(who, A.Phrase) and isinstance(act, A.StringLit) and act.value == DEFENSE_ACTION


def use_costs(game, src) -> list:
    """(card, amount) of each extra mana cost of using a defense of `src` (the object whose defense it is)."""
    out = []
    for card_obj in game.state.in_play():
        if card_obj.hidden:
            continue
        for ab in card_index(card_obj.card).statics:
            call = ab.effect
            if not _is_defense_cost(call):
                continue
            ctx = Ctx(this=card_obj, it=src)
            try:
                if ab.guard is not None and not game.evaluate(ab.guard, ctx):
                    continue
                if not matches_phrase(game, src, call.args[0].value, ctx):
                    continue
                n = game.evaluate(call.args[2].value, ctx)
            except Exception as e:  # noqa: BLE001 - a phrase or value the engine cannot read: said, never guessed
                game.note_unsupported(f"static action_cost of {card_obj.card.name}", str(e), src=card_obj)
                continue
            if isinstance(n, int) and n > 0:
                out.append((card_obj, n))
    return out


def static_runs(call) -> bool:
    """Does the Avoid Attack step read this static (for the coverage report)?"""
    return isinstance(call, A.Call) and (call.name in STATIC_CALLS or _is_defense_cost(call))
